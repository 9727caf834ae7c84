"""PRJ-1: the PRNG is a keyed hash in counter mode, the salts an HMAC keyed from the secret
seed; both are recomputed here from the documented derivation (src/pax_hispanica/engine/keys.py),
independently of the engine's code."""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets

import pytest

from pax_hispanica import api
from pax_hispanica.engine import rng
from pax_hispanica.engine.keys import derive
from support import random_game

from .helpers import secret_violations, view_json


def _key(seed: int, label: str) -> bytes:
    return hashlib.sha256(label.encode() + b"\x00" + seed.to_bytes(32, "big")).digest()


def _output(seed: int, i: int) -> int:
    d = hashlib.blake2b(i.to_bytes(8, "little"), key=_key(seed, "paxh-rng"), digest_size=8).digest()
    return int.from_bytes(d, "little")


def _salt(seed: int, dec_id: str, seat: int) -> str:
    return hmac.new(_key(seed, "paxh-salt"), f"{dec_id}|{seat}".encode(), hashlib.sha256).hexdigest()


SEEDS = (0, 1, 2 ** 64 + 7, secrets.randbits(128), 2 ** 256 - 1)


@pytest.mark.parametrize("seed", SEEDS)
def test_PRJ_1_outputs_are_blake2b_of_the_counter_keyed_by_the_seed(seed):
    counter = rng.seed_state(seed)
    assert counter == 0
    for i in range(20):
        counter, x = rng.next_u64(seed, counter)
        assert counter == i + 1 and x == _output(seed, i)


def test_PRJ_1_below_is_unbiased_rejection_sampling():
    # n just above 2**63: half the 64-bit outputs are rejected; each accepted one is x % n
    n = 2 ** 63 + 1
    seed = 5
    counter, x = rng.below(seed, 0, n)
    outs = [_output(seed, i) for i in range(counter)]
    assert all(o >= 2 ** 64 - 2 ** 64 % n for o in outs[:-1]) and outs[-1] < 2 ** 64 - 2 ** 64 % n
    assert x == outs[-1] % n
    with pytest.raises(ValueError):
        rng.below(seed, 0, 0)


def test_PRJ_1_the_saved_state_is_the_counter_alone_and_reveals_nothing_of_the_next_output():
    seed = secrets.randbits(128)
    counter = 0
    seen = []
    for _ in range(50):
        counter, x = rng.next_u64(seed, counter)
        seen.append(x)
    # the state after 50 outputs is the count of outputs: everything else is in the secret key
    assert counter == 50 and isinstance(counter, int)
    # another seed with the same counter gives unrelated outputs (no state shared between games)
    assert rng.next_u64(seed + 1, counter)[1] != rng.next_u64(seed, counter)[1]


def test_PRJ_1_same_seed_same_game_different_seeds_different_games():
    a, b = random_game(4, 99, bot_seed=3), random_game(4, 99, bot_seed=3)
    assert a.state.fingerprint() == b.state.fingerprint() and a.events == b.events
    tops = set()
    for seed in (1, 2, 3, 2 ** 100 + 1):
        g = api.Game.new(api.Config(players=4), seed)
        tops.add((tuple(g.state.order), tuple(g.state.market), tuple(g.state.haven)))
    assert len(tops) == 4


def test_PRJ_1_a_replayed_game_with_a_128_bit_seed_is_identical():
    seed = secrets.randbits(128)
    g = random_game(3, seed, bot_seed=1)
    r = api.replay(json.loads(json.dumps(g.record)))
    assert r.state.fingerprint() == g.state.fingerprint() and r.events == g.events


@pytest.mark.parametrize("bad", [-1, 2 ** 256, 2 ** 5000, True, False, 1.0, "1", None, [1]])
def test_PRJ_1_a_seed_that_is_not_a_whole_number_below_2_256_is_refused_at_setup(bad):
    with pytest.raises(api.IllegalAction) as e:
        api.Game.new(api.Config(players=3), bad)
    assert (e.value.code, e.value.rule) == ("bad_config", "PRJ-1") and len(e.value.message) < 200
    with pytest.raises(api.IllegalAction):
        api.from_scenario({"config": {"players": 3}, "seed": bad, "position": {}})


@pytest.mark.parametrize("bad", [-1, 2 ** 256, True, False, 1.0, "1", None, [1]])
def test_PRJ_1_every_entry_point_that_takes_a_seed_refuses_a_bad_one_with_bad_config(bad):
    """new_game, new_game_with_outcomes and replay take the caller's seed as it came (declared
    `object`, narrowed by the engine): bad_config, never a TypeError (compiled, an `int`
    argument would raise one, or unbox a bool to 1, before the engine's check)."""
    calls = [lambda: api.new_game(api.Config(players=3), bad),
             lambda: api.new_game({"players": 3}, bad),
             lambda: api.new_game_with_outcomes({"players": 3}, bad, []),
             lambda: api.replay({"format": api.RECORD_FORMAT, "config": {"players": 3}, "seed": bad, "actions": []})]
    for call in calls:
        with pytest.raises(api.IllegalAction) as e:
            call()
        assert (e.value.code, e.value.rule) == ("bad_config", "PRJ-1")
    # verify_log with a seed that is not one: a problem to report, not an exception
    log = api.redact(api.Game.new({"players": 3}, 5).events, None)
    assert api.verify_log(log, bad) == ["the seed is not a whole number from 0 to 2**256-1"]
    assert api.verify_log(log, 5) == []


def test_PRJ_1_a_record_keeps_the_seed_setup_accepted():
    g = api.Game.new({"players": 3}, 2 ** 200 + 3)
    assert type(g.record["seed"]) is int and g.record["seed"] == g.state.seed == 2 ** 200 + 3


def test_PRJ_1_salts_are_the_hmac_of_the_seed_and_differ_between_games_with_other_seeds():
    salts = {}
    for seed in (11, 2 ** 90 + 11):
        g = random_game(3, seed, bot_seed=7)
        got = {}
        for e in g.events:
            if e["type"] == "ChoicesRevealed":
                for c in e["choices"]:
                    assert c["salt"] == _salt(seed, e["id"], c["seat"])
                    got[(e["id"], c["seat"])] = c["salt"]
        assert got
        salts[seed] = got
    a, b = salts.values()
    common = set(a) & set(b)
    assert common and all(a[k] != b[k] for k in common)


def test_PRJ_1_seed_hash_is_a_tagged_sha256_of_the_seed():
    seed = secrets.randbits(128)
    g = api.Game.new(api.Config(players=2), seed)
    want = hashlib.sha256(b"paxh-seed\x00" + seed.to_bytes(32, "big")).hexdigest()
    assert g.events[0]["seed_hash"] == want == api.seed_hash(seed)


def test_PRJ_1_verify_record_checks_the_seed_and_every_commitment():
    g = random_game(3, secrets.randbits(128), bot_seed=2)
    assert api.verify_record(g.record) == []
    log = api.redact(g.events, None)
    assert api.verify_log(log, g.record["seed"]) == []
    assert api.verify_log(log, g.record["seed"] + 1)            # the wrong seed: nothing matches
    reveal = next(i for i, e in enumerate(log) if e["type"] == "ChoicesRevealed")
    forged = [dict(e) for e in log]
    c = dict(forged[reveal]["choices"][0])
    forged[reveal] = dict(forged[reveal], choices=[dict(c, value=c["value"] + 1)] + forged[reveal]["choices"][1:])
    problems = api.verify_log(forged, g.record["seed"])
    assert len(problems) == 1 and "do not match the hash" in problems[0]
    # a salt chosen after the fact (with a matching hash) is caught too
    bad_salt = "0" * 64
    c2 = dict(c, salt=bad_salt, hash=hashlib.sha256(f"{log[reveal]['id']}|{c['seat']}|{c['value']}|{bad_salt}"
                                                    .encode()).hexdigest())
    forged[reveal] = dict(log[reveal], choices=[c2] + log[reveal]["choices"][1:])
    problems = api.verify_log(forged, g.record["seed"])
    assert any("salt" in p for p in problems) and any("committed" in p for p in problems)


def test_PRJ_1_no_view_carries_the_seed_the_counter_a_key_or_an_unrevealed_salt():
    seed = secrets.randbits(128)
    keys = {_key(seed, label).hex() for label in ("paxh-rng", "paxh-salt")}
    checked = []

    def check(before, action, after, events):
        if after.over:
            return
        future_salts = {_salt(seed, d["id"], s) for d in after.stack if d.get("sealed") for s in d["seats"]}
        for viewer in (None, *range(after.n)):
            v = view_json(after, viewer)
            text = json.dumps(v)
            assert v["seed"] is None and v["state"]["seed"] is None and v["state"]["rng"] is None
            assert str(seed) not in text and not any(k in text for k in keys)
            assert not any(s in text for s in future_salts)
            assert secret_violations(after, viewer) == []
            checked.append(1)

    random_game(3, seed, bot_seed=5, on_step=check)
    assert len(checked) > 100


def test_PRJ_1_a_derived_seed_is_a_keyed_hash_of_the_seed_and_its_label():
    seed = secrets.randbits(128)
    want = int.from_bytes(_key(seed, "paxh-sub:bot-2"), "big") >> 193      # first 8 bytes, >> 1
    assert api.derived_seed(seed, "bot-2") == want < 2 ** 63
    assert len({api.derived_seed(seed, f"bot-{s}") for s in range(5)} | {api.derived_seed(seed + 1, "bot-2")}) == 6


def test_PRJ_1_a_shuffle_whose_draw_is_rejected_draws_again_from_the_next_counter(monkeypatch):
    """PRJ-1's generator: output i is BLAKE2b(i as 8 little-endian bytes, key=derive(seed,
    "paxh-rng"), 8 bytes) as a little-endian u64; a draw in 0..n-1 rejects outputs at or above
    its limit and reads the next (rng.below). Real rejections come about n in 2**64, so the
    limits are lowered to 2**63 here: about half the draws are rejected, and the shuffle must
    still be Fisher-Yates over the accepted outputs, counter included."""
    low = 1 << 63
    monkeypatch.setattr(rng, "_LIMITS", tuple(low for _ in range(257)))
    seed, start, items = 77, 10, list(range(12))

    def out(c):
        return int.from_bytes(hashlib.blake2b(c.to_bytes(8, "little"), key=derive(seed, "paxh-rng"),
                                              digest_size=8).digest(), "little")

    ref, c, rejected = items[:], start, 0
    for i in range(len(ref) - 1, 0, -1):
        x = out(c)
        c += 1
        while x >= low:
            rejected += 1
            x = out(c)
            c += 1
        j = x % (i + 1)
        ref[i], ref[j] = ref[j], ref[i]
    assert rejected >= 1, "pick another seed: no draw was rejected"
    got = items[:]
    assert rng.shuffle(seed, start, got) == c == start + 11 + rejected
    assert got == ref


@pytest.mark.parametrize("start", [4090, 4095, 4096, 5000, 2 ** 40])
def test_PRJ_1_a_shuffle_past_the_precomputed_counters_is_still_fisher_yates_over_below(start):
    """shuffle writes `below` out inline with the first 4,096 counters' bytes precomputed; from
    counter 4,096 on it encodes the counter itself. Across that edge and far past it, the
    shuffle is Fisher-Yates over rng.below's draws, counter included."""
    seed, items = 2024, list(range(20))
    ref, c = items[:], start
    for i in range(len(ref) - 1, 0, -1):
        c, j = rng.below(seed, c, i + 1)
        ref[i], ref[j] = ref[j], ref[i]
    got = items[:]
    assert rng.shuffle(seed, start, got) == c and got == ref


@pytest.mark.parametrize("n", [0, -3])
def test_PRJ_1_a_draw_among_no_outcomes_is_refused_in_words(n):
    with pytest.raises(ValueError, match=r"^n must be positive$"):
        rng.below(1, 0, n)
