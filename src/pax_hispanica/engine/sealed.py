"""Commit-then-reveal for simultaneous secret choices (sealed bids, Battle Cards).

Each commit is published as sha256 of the choice and a secret salt; the salts
are derived from the game's secret seed, so they cost no randomness and anyone
can check them once the reveal (salts) and the game's end (seed) are public.
The result never depends on the order of commits: resolution reads the
choices by seat, never by arrival (PRJ-1).
"""

from __future__ import annotations

import hashlib

from .flow import Out, require


def salt(seed: int, dec_id: str, seat: int) -> str:
    return hashlib.sha256(f"salt|{seed}|{dec_id}|{seat}".encode()).hexdigest()[:32]


def commitment(dec_id: str, seat: int, value, salt_: str) -> str:
    return hashlib.sha256(f"{dec_id}|{seat}|{value}|{salt_}".encode()).hexdigest()


def seed_hash(seed: int) -> str:
    return hashlib.sha256(f"seed|{seed}".encode()).hexdigest()


def commit(st, dec: dict, seat: int, value, out: Out, resolve) -> None:
    """Record `seat`'s secret choice; when all have chosen, reveal and call resolve(st, dec, values, out)."""
    require(seat not in {s for s, _ in dec["committed"]}, "already_committed", dec["rule"],
            "Your choice is already sealed; it cannot be changed before the reveal.")
    s = salt(st.seed, dec["id"], seat)
    h = commitment(dec["id"], seat, value, s)
    st.secrets[seat] = value
    dec["committed"] = dec["committed"] + ((seat, h),)
    out.irreversible = True
    out.emit("ChoiceCommitted", dec["rule"], decision=dec["d"], id=dec["id"], seat=seat, hash=h)
    out.emit("ChoiceSealed", dec["rule"], to=[seat], decision=dec["d"], seat=seat, value=value)
    if len(dec["committed"]) < len(dec["seats"]):
        return
    values = {seat: st.secrets[seat] for seat in dec["seats"]}
    revealed = [{"seat": x, "value": values[x], "salt": salt(st.seed, dec["id"], x), "hash": h}
                for x, h in sorted(dec["committed"])]
    st.secrets = {}
    st.stack.pop()
    out.emit("ChoicesRevealed", dec["rule"], decision=dec["d"], id=dec["id"], choices=revealed)
    resolve(st, dec, values, out)


def verify(dec_id: str, choice: dict) -> bool:
    """Anyone can check a revealed choice against its published hash."""
    return commitment(dec_id, choice["seat"], choice["value"], choice["salt"]) == choice["hash"]
