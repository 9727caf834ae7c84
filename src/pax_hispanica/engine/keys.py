"""The game's secret seed and the keys derived from it (PRJ-1).

A seed is an int in 0..2**256-1 (served games use 128 random bits from `secrets`;
tests and scenarios use small ones). Each use gets its own key, so that publishing
the seed's hash, the PRNG's outputs or a salt reveals nothing about the others:

    S = seed.to_bytes(32, "big")
    derive(seed, label) = SHA-256(label || 0x00 || S)        label: "paxh-rng", "paxh-salt"
    derived_seed(seed, label) = first 8 bytes of derive(seed, "paxh-sub:" + label), big-endian, >> 1
    seed_hash(seed)     = hex SHA-256("paxh-seed" || 0x00 || S)
"""

from __future__ import annotations

import hashlib
import hmac
from functools import lru_cache
from typing import TypeGuard

SEED_LIMIT = 1 << 256


def is_seed(seed: object) -> TypeGuard[int]:
    """Whether `seed` is a seed: an int (not a bool) in 0..2**256-1. Callers declare a seed
    they are given `object` and narrow it here (compiled, an `int` argument would unbox a
    bool and refuse a float with TypeError before this check; docs/api.md, "Errors")."""
    return type(seed) is int and 0 <= seed < SEED_LIMIT        # bool is not a seed


def _tagged(label: str, seed: int) -> bytes:
    return hashlib.sha256(label.encode() + b"\x00" + seed.to_bytes(32, "big")).digest()


def derive(seed: int, label: str) -> bytes:
    """The 32-byte key for one use of the seed (`label` is its domain)."""
    return _tagged(label, seed)


def seed_hash(seed: int) -> str:
    """The public commitment to the seed, published at setup (GameStarted.seed_hash)."""
    return _tagged("paxh-seed", seed).hex()


def derived_seed(seed: int, label: str) -> int:
    """A 63-bit seed for something outside the game (a bot's own PRNG, say) that reveals
    nothing of the game's seed, however many of its outputs are seen: seeding a bot with
    the game's seed itself would let its moves (a Mersenne Twister's outputs) betray it."""
    return int.from_bytes(derive(seed, "paxh-sub:" + label)[:8], "big") >> 1


# ---- PRJ-1's salts and commitments (sealed.py re-exports them; decisions.py fills a hash
# apply_trusted left unmade) ----------------------------------------------------------------
@lru_cache(maxsize=256)
def _salt_key(seed: int) -> bytes:
    return derive(seed, "paxh-salt")


@lru_cache(maxsize=4096)
def salt(seed: int, dec_id: str, seat: int) -> str:
    """A seat's salt for one sealed decision: HMAC-SHA256(K_salt, "id|seat"). Memoised (a pure
    function of its arguments), so the reveal reads the salts its commits made."""
    return hmac.digest(_salt_key(seed), f"{dec_id}|{seat}".encode(), "sha256").hex()


def commitment(dec_id: str, seat: int, value: object, salt_: str) -> str:
    return hashlib.sha256(f"{dec_id}|{seat}|{value}|{salt_}".encode()).hexdigest()
