"""Tests written to kill mutants that survived a mutation-testing run (mutmut) of engine/:
what a seat knows of a card discarded into the Market discard pile (HID-2, knowledge.py), a
ruleset folder without `[setup.by_players.N]` tables (PRJ-75, ruleset.py), a pick's stream
after a rejection (PRJ-45, sampling.py), and the schema's words for a boolean key given
something else (PRJ-7, CYC-4, schema.py); then refusals' exact words (CYC-2, PRJ-7, CYC-4,
CARD-2), a shuffle's rejected draw (PRJ-1, rng.py) and a sample of a Market deck that hides
nothing (HID-2, PRJ-45, information.py)."""

from __future__ import annotations

import hashlib
import re
import shutil
import uuid
from pathlib import Path

import pytest

from pax_hispanica import api
from pax_hispanica.engine import rng, sampling
from pax_hispanica.engine.keys import derive
from pax_hispanica.engine.ruleset import RulesetError
from pax_hispanica.engine.sampling import SLACK, Stream
from pax_hispanica.rulesets import DATA, load_ruleset
from support import modified_ruleset, random_game, scenario

from .test_why import ZONE, at_sail


# ---- HID-2: a card discarded into the Market discard pile, then shuffled back ------------------

def test_HID_2_a_won_card_discarded_to_the_market_pile_and_refilled_is_known_in_the_deck_not_in_hand():
    """Seat 0 wins the Market deck's last card X at auction (AUC-6: `AuctionWon`, public), then
    discards it in the Play Year (HND-4: a Market card goes to the Market discard pile) while
    the deck is empty: the pile is shuffled back at once (PRJ-19), so X is the deck's again.
    Every seat knows it from the log (`CardDiscarded` with deck "market", then `DeckRefilled`):
    seat 0's hand is known to be empty, X known to be the deck's, for the others too (whose
    own scenario hands, PRJ-33, stay unknown to each other)."""
    rs = api.load_ruleset("reference")
    market = list(rs.market)
    x, rest = market[0], market[1:]
    scn = {"config": {"players": 3, "nations": ["spanish", "english", "french"]}, "seed": 9,
           "position": {"year": "auction", "order": [0, 1, 2],
                        "players": [{"hand": [], "money": 5}, {"hand": rest[: len(rest) // 2], "money": 5},
                                    {"hand": rest[len(rest) // 2:], "money": 5}],
                        "decks": {"market": [x]}}}
    g = api.from_scenario(scn)
    g.act({"seat": 0, "type": "initiate", "deck": "market", "buried": False})
    for seat in (0, 1, 2):
        g.act({"seat": seat, "type": "bid", "amount": 0})           # a tie: the initiator wins (AUC-4)
    g.act({"seat": 1, "type": "pass"})
    g.act({"seat": 2, "type": "pass"})
    assert [(e["card"], e["winner"]) for e in g.events if e["type"] == "AuctionWon"] == [(x, 0)]
    assert g.state.hands[0] == [x] and g.state.market == [] and list(api.acting(g.state)) == [0]

    def known(viewer):
        return api.known_cards(api.view(g.state, viewer, include_state=False), api.redact(g.events, viewer))

    for viewer in (None, 1, 2):                   # the win is public: X is known to be in seat 0's hand
        assert known(viewer)["hands"][0] == {"seat": 0, "count": 1, "known": [x], "unknown": 0}
    g.act({"seat": 0, "type": "discard", "card": x})
    assert [(e["card"], e["deck"]) for e in g.events if e["type"] == "CardDiscarded"] == [(x, "market")]
    assert g.events[-2]["type"] == "DeckRefilled"
    assert g.state.market == [x] and g.state.market_discard == [] and g.state.hands[0] == []
    for viewer in (None, 0, 1, 2):
        k = known(viewer)
        assert k["hands"][0] == {"seat": 0, "count": 0, "known": [], "unknown": 0}, viewer
        hidden = sorted(c for s in (1, 2) if s != viewer for c in g.state.hands[s])   # hands unseen by viewer
        assert k["decks"]["market"] == {"count": 1, "top": x, "cards": [x], "unsure": hidden}, viewer
        assert k["market_discard"] == []
        for s in (1, 2):
            assert k["hands"][s]["known"] == (sorted(g.state.hands[s]) if s == viewer else [])


# ---- PRJ-75: a ruleset.toml whose [setup] has no by_players tables -------------------------------

def without_setup_by_players(folder) -> str:
    """A copy of the reference whose ruleset.toml has no [setup.by_players.N] table at all."""
    shutil.copytree(DATA / "reference", folder)
    toml = folder / "ruleset.toml"
    body = toml.read_text()
    cut, n = re.subn(r"(?ms)^\[setup\.by_players\.\d+\][^\n]*\n(?:(?!\[).*?\n)*", "", body)
    assert n == 2 and "by_players" not in cut.split("[supply]")[0], "update this test's fixture"
    toml.write_text(cut)
    return str(folder)


def test_PRJ_75_a_ruleset_with_no_by_players_table_loads_with_every_crown_colony_at_every_count(tmp_path):
    """PRJ-75: "a count not named keeps them all": without [setup.by_players.N] tables the
    Spanish own all 8 Crown colonies with every player count, and [setup]'s numbers hold
    for every count (a fresh folder name: the loaders cache by path)."""
    folder = without_setup_by_players(tmp_path / uuid.uuid4().hex)
    rs = load_ruleset(folder)
    reference = load_ruleset("reference")
    assert reference.crown_kept[2:] == (6, 6, 8, 8)          # what the removed tables said (PRJ-85)
    assert rs.crown_kept[2:] == (8, 8, 8, 8)
    assert rs.params["by_players"] == {}
    for n in (2, 3, 4, 5):
        for key in ("start_money", "start_ships", "start_zone", "setup_rebels"):
            assert rs.setup_value(key, n) == rs.params[key], (key, n)
    assert rs.params["start_money"] == 6 and rs.params["start_ships"] == 1
    table = api.parameters(folder, extended=True)
    assert [table[f"crown_colonies.{n}"]["value"] for n in (2, 3, 4, 5)] == [8, 8, 8, 8]
    g = api.Game.new(api.Config(players=2, ruleset=folder, nations=["spanish", "dutch"]), seed=2)
    crown = [c for c, is_crown in enumerate(g.state.rs.col_crown) if is_crown]
    assert len(crown) == 8 and all(g.state.col_owner[c] == 0 for c in crown)
    assert not any(e["type"] == "CrownColoniesByCount" for e in g.events)


# ---- PRJ-45: a rejection inside a long pick -----------------------------------------------------

def _plain_words(seed: int, count: int) -> list[int]:
    raw = hashlib.shake_256(b"paxh-sample\x00" + seed.to_bytes(32, "big")).digest(4 * count)
    return [int.from_bytes(raw[4 * i:4 * i + 4], "little") for i in range(count)]


def _plain_pick(seed: int, n: int, k: int) -> tuple[list[int], int, list[int]]:
    """The documented partial Fisher-Yates pick of k of range(n) from W(seed), written out:
    the pool, the words read, and the steps whose first word was rejected."""
    ws, at, pool, rejected = _plain_words(seed, 4 * n + 64), 0, list(range(n)), []
    for i in range(min(k, n - 1)):
        m = n - i
        while True:
            w = ws[at]
            at += 1
            if w < 2 ** 32 - 2 ** 32 % m:
                break
            rejected.append(i)
        pool[i], pool[i + w % m] = pool[i + w % m], pool[i]
    return pool, at, rejected


# W(21125) rejects the 131st word for range 894 (a 1024-item pick's step 130), and no other
# word of a full 1024-item shuffle: found by searching the seeds 0..21125 with _plain_pick.
REJECTING_SEED, REJECTED_STEP = 21125, 130


@pytest.mark.parametrize("k", [1024, 131, 200])
def test_PRJ_45_a_pick_with_a_rejection_is_fisher_yates_and_still_one_shake_256_call(monkeypatch, k):
    """A sample's stream is one SHAKE-256 call (module docstring): a sample asks for the words
    it knows it needs plus SLACK, and "a rejection reads one more" word, which the slack
    holds; so a long pick (its careful way, engine/sampling.py's _pick_on) with one rejection
    after its first step reads the documented draws and asks SHAKE-256 for nothing more."""
    n = 1024
    ref, at, rejected = _plain_pick(REJECTING_SEED, n, k)
    assert rejected == [REJECTED_STEP]
    calls: list[int] = []
    real = sampling._shake

    def counted(data: bytes):
        calls.append(1)
        return real(data)

    monkeypatch.setattr(sampling, "_shake", counted)
    last = min(k, n - 1)
    s = Stream(REJECTING_SEED, last)
    pool = list(range(n))
    s.pick(pool, k)
    assert pool == ref
    assert s.pos == at == last + 1                  # the rejected word and one more
    assert len(calls) == 1 and len(s.w) == last + SLACK
    assert s.below(2 ** 32) == _plain_words(REJECTING_SEED, at + 1)[at]    # the stream goes on in order


# ---- PRJ-7, CYC-4: a boolean key given something else ----------------------------------------------

@pytest.mark.parametrize("fort", [1, 0, "yes", [True]])
def test_PRJ_7_a_scenario_colony_fort_that_is_not_a_boolean_is_refused_in_words(fort):
    with pytest.raises(api.IllegalAction) as e:
        api.from_scenario({"config": {"players": 3}, "seed": 1,
                           "position": {"colonies": {"cuba.habana": {"fort": fort}}}})
    assert e.value.code == "bad_scenario"
    assert e.value.message == "scenario: colony cuba.habana: fort must be true or false"


def test_CYC_4_a_map_fort_that_is_not_a_boolean_is_refused_naming_file_site_and_key(tmp_path):
    folder = tmp_path / uuid.uuid4().hex
    shutil.copytree(DATA / "reference", folder)
    p = folder / "map.toml"
    text = p.read_text()
    old = 'name = "Zacatecas", goods = "silver", crown = true, fort = true }'
    assert old in text, "update this test's fixture"
    p.write_text(text.replace(old, old.replace("fort = true", "fort = 1"), 1))
    with pytest.raises(RulesetError) as e:
        load_ruleset(str(folder))
    assert str(e.value) == "map.toml: site nueva_espana.zacatecas: fort must be true or false"


# ---- CYC-2: an action applied to a finished game --------------------------------------------------

def test_CYC_2_an_action_applied_to_a_finished_game_is_refused_in_words():
    g = random_game(3, 1)
    assert api.is_over(g.state)
    last = g.record["actions"][-1]              # a well-formed action (check_shape passes it)
    with pytest.raises(api.IllegalAction) as e:
        api.apply(g.state, last)
    assert (e.value.code, e.value.rule, e.value.message) == ("game_over", "CYC-2", "The game is over.")


# ---- PRJ-7: an action index past the count ----------------------------------------------------------

def test_PRJ_7_nth_action_past_the_count_is_an_index_error_in_words():
    g = api.Game.new(api.Config(players=3), 5)
    descs = api.legal_actions(g.state, api.acting(g.state)[0])
    n = api.count_actions(descs)
    assert n >= 1 and api.nth_action(descs, n - 1) == list(api.iter_actions(descs))[-1]
    with pytest.raises(IndexError) as e:
        api.nth_action(descs, n)
    assert e.value.args == ("action index out of range",)
    assert str(e.value) == "action index out of range"


# ---- CYC-4: a Citizen supply too small for the map ------------------------------------------------

def test_CYC_4_a_citizen_supply_too_small_for_the_map_is_refused_with_code_rule_and_words(tmp_path):
    folder = modified_ruleset(tmp_path / uuid.uuid4().hex, citizens=1)
    toml = Path(folder) / "ruleset.toml"
    text = toml.read_text()
    assert "supply_citizens = [23, 500]" in text, "update this test's fixture"
    toml.write_text(text.replace("supply_citizens = [23, 500]", "supply_citizens = [1, 500]", 1))
    with pytest.raises(api.IllegalAction) as e:
        api.Game.new(api.Config(players=3, ruleset=folder), 1)
    assert e.value.code == "bad_config"
    assert e.value.rule == "CYC-4"
    assert e.value.message == "The ruleset's Citizen supply is too small for its map."


# ---- CARD-2: unloading at one's Haven with no Chests aboard -----------------------------------------

def test_CARD_2_unloading_at_ones_haven_without_chests_is_refused_in_words():
    g = at_sail([{"fleet": {"zone": ZONE, "ships": 1, "cargo": [], "legality": "SMUGGLER"}, "havens": [ZONE]},
                 {}, {}])
    with pytest.raises(api.IllegalAction) as e:
        api.apply(g.state, {"seat": 0, "type": "unload_haven"})
    assert (e.value.code, e.value.rule, e.value.message) == ("no_chests", "CARD-2", "No Chests aboard to unload.")


# ---- PRJ-1: a shuffle's rejected draw is drawn again from the next counter ---------------------------

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


# ---- HID-2, PRJ-45: a determinized sample of a Market deck with no hidden places ---------------------

def test_HID_2_a_sample_of_a_view_whose_market_deck_hides_nothing_keeps_it_and_deals_every_card_once():
    """The Market deck holds one card, its face-up top (HID-2: public), so the view hides none
    of its places; the others' hands and the Haven deck below its top are hidden. A sample
    (PRJ-45) keeps the Market deck as shown, the Haven top as shown, each hand's size, and
    deals every card of the ruleset exactly once across hands and decks."""
    rs = api.load_ruleset("reference")
    market = list(rs.market)
    x, rest = market[0], market[1:]
    g = scenario({"year": "auction", "order": [0, 1, 2],
                  "players": [{"hand": []}, {"hand": rest[: len(rest) // 2]}, {"hand": rest[len(rest) // 2:]}],
                  "decks": {"market": [x]}})
    v = api.view(g.state, 0, include_state=True)
    d = v["state"]
    assert d["market"] == [x] and d["market_discard"] == []
    assert d["haven"][0] == g.state.haven[0] and d["haven"][1:] == ["?"] * (len(rs.haven) - 1)
    for seed in range(4):
        s = api.determinize(v, seed)
        assert s.market == [x]
        assert s.haven[0] == g.state.haven[0] and len(s.haven) == len(rs.haven)
        assert [len(h) for h in s.hands] == [0, len(rest) // 2, len(rest) - len(rest) // 2]
        dealt = s.market + s.haven + [c for h in s.hands for c in h]
        assert sorted(dealt) == sorted(market + list(rs.haven))
