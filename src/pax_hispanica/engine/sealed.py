"""Commit-then-reveal for simultaneous secret choices (sealed bids, Battle Cards).

Each commit is published as sha256 of the choice and a secret salt. A salt is
HMAC-SHA256(K_salt, "decision id|seat") with K_salt = keys.derive(seed, "paxh-salt"):
it costs no randomness, nobody can compute it before its reveal without the secret
seed (so nobody can test guesses of a bid against its hash), and anyone can check
every salt and commitment once the game's end publishes the seed (verify_record).
The result never depends on the order of commits: resolution reads the
choices by seat, never by arrival (PRJ-1).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

from .decisions import SealedContext
from .errors import IllegalAction
from .flow import Out
from .decisions import committed_hashes
from .keys import (_salt_key, commitment, derive, is_seed, salt,  # noqa: F401  (re-exported: the
                   seed_hash)                                  # salts and commitments live in keys.py)
from .state import with_item

if TYPE_CHECKING:
    from .state import State

R = TypeVar("R")                                 # what resolving the choices gives
S = TypeVar("S", bound=SealedContext)            # the sealed decision's saved context
V = TypeVar("V")                                 # a secret's type


def commit(st: State, dec: S, seat: int, value: V, out: Out,
           resolve: Callable[[State, S, dict[int, V], Out], R]) -> R | None:
    """Record `seat`'s secret choice; when all have chosen, reveal and return
    resolve(st, dec, values, out) (None while some seat has yet to choose)."""
    committed = dec["committed"]
    for s, _ in committed:
        if s == seat:
            raise IllegalAction("already_committed", dec["rule"],
                                "Your choice is already sealed; it cannot be changed before the reveal.")
    # apply_trusted (out.quiet) leaves the hash None: nobody reads it in a search, and
    # decisions.committed_hashes makes it, the same digest, wherever a saved state or a view
    # reads it (tests/engine/test_trusted_apply.py)
    h = None if out.quiet else commitment(dec["id"], seat, value, salt(st.seed, dec["id"], seat))
    st.secrets = with_item(st.secrets, seat, value)      # shared between states: replaced
    dec["committed"] = committed = committed + ((seat, h),)
    out.irreversible = True
    out.emit("ChoiceCommitted", dec["rule"], decision=dec["d"], id=dec["id"], seat=seat, hash=h)
    out.emit("ChoiceSealed", dec["rule"], to=[seat], decision=dec["d"], seat=seat, value=value)
    if len(committed) < len(dec["seats"]):
        return None
    values = {seat: st.secrets[seat] for seat in dec["seats"]}
    st.secrets = {}
    st.stack.pop()
    if out.quiet:                      # apply_trusted: the reveal's salts are read by nobody
        out.emit("ChoicesRevealed", dec["rule"])
    else:
        revealed = [{"seat": x, "value": values[x], "salt": salt(st.seed, dec["id"], x), "hash": h}
                    for x, h in sorted(committed_hashes(dec, st.seed, values))]
        out.emit("ChoicesRevealed", dec["rule"], decision=dec["d"], id=dec["id"], choices=revealed)
    return resolve(st, dec, values, out)


def verify(dec_id: str, choice: dict[str, Any]) -> bool:
    """Anyone can check a revealed choice against its published hash."""
    return bool(commitment(dec_id, choice["seat"], choice["value"], choice["salt"]) == choice["hash"])


def verify_log(events: list[dict[str, Any]], seed: object) -> list[str]:
    """What is wrong with a game's public log once its seed is known (PRJ-1); [] when nothing is:
    the seed matches GameStarted.seed_hash (ScenarioLoaded's for a scenario), and every revealed choice has the salt derived from
    the seed, matches its hash, and that hash is the one committed before the reveal. A seed
    that is not one (keys.is_seed; the caller's data, declared `object`) is the one problem."""
    if not is_seed(seed):
        return ["the seed is not a whole number from 0 to 2**256-1"]
    problems = []
    started = next((e for e in events if e.get("type") in ("GameStarted", "ScenarioLoaded")), None)
    if started is None or started.get("seed_hash") != seed_hash(seed):
        problems.append(f"the seed does not match {started['type'] if started else 'GameStarted'}.seed_hash")
    committed: dict[tuple[str, int], str] = {}
    for e in events:
        if e.get("type") == "ChoiceCommitted":
            committed[(e["id"], e["seat"])] = e["hash"]
        elif e.get("type") == "ChoicesRevealed":
            for c in e["choices"]:
                where = f"decision {e['id']} seat {c['seat']}"
                if c["salt"] != salt(seed, e["id"], c["seat"]):
                    problems.append(f"{where}: the salt is not the one derived from the seed")
                if not verify(e["id"], c):
                    problems.append(f"{where}: the value and salt do not match the hash")
                if committed.get((e["id"], c["seat"])) != c["hash"]:
                    problems.append(f"{where}: the hash is not the one committed before the reveal")
    return problems
