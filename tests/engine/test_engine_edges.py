"""Small engine seams at their edges, each named by the rule it serves (issue 36: the mutation
score): PRJ-7's shortened values, PRJ-1's log check without a seed match, PRJ-70's chance
refusals, HND-2's reduce-hand decision and refusal, PRJ-6's meeple count, the view index's
rebels and sites, and the public summary's pending decision."""

from __future__ import annotations

import pytest

from pax_hispanica import api
from pax_hispanica.engine import audit
from pax_hispanica.engine.errors import short
from pax_hispanica.engine.rng import Chance, ChanceNeeded
from pax_hispanica.engine.view_index import index
from support import scenario

from .test_why import CATHEDRAL, GALEON, RS, TOLU, ZENU, ZONE


# ---- PRJ-7: a value as shown in a refusal ----------------------------------------------------------
class _BadRepr(int):
    def __repr__(self) -> str:
        raise RuntimeError("no repr")


def test_PRJ_7_short_keeps_40_characters_and_cuts_longer_ones_with_dots():
    assert short("a" * 38) == "'" + "a" * 38 + "'"                      # 40 characters: kept
    assert short("a" * 39) == "'" + "a" * 36 + "..."                    # 41: cut to 37 and "..."
    assert short("b" * 500) == "'" + "b" * 36 + "..."
    assert short("a" * 39, limit=50) == "'" + "a" * 39 + "'"


def test_PRJ_7_short_names_a_huge_number_by_its_bits_and_an_unprintable_value_as_such():
    assert short(401) == "401" and short(10 ** 40 - 1) == "9" * 40
    assert short(10 ** 40) == f"<a {(10 ** 40).bit_length()}-bit number>"
    assert short(-(10 ** 5000)) == f"<a {(10 ** 5000).bit_length()}-bit number>"
    assert short(True) == "True"
    assert short(_BadRepr(3)) == "<value>"


# ---- PRJ-1: the log check -----------------------------------------------------------------------
def test_PRJ_1_a_log_without_its_start_or_with_another_seed_is_named_in_words():
    g = api.Game.new(api.Config(players=3), 7)
    assert api.verify_log(g.events, 7) == []
    assert api.verify_log(g.events, 8) == ["the seed does not match GameStarted.seed_hash"]
    assert api.verify_log([], 7) == ["the seed does not match GameStarted.seed_hash"]
    s = scenario({"year": "play", "step": "play_turns", "order": [0, 1, 2], "players": [{}, {}, {}]})
    assert api.verify_log(s.events, 2) == ["the seed does not match ScenarioLoaded.seed_hash"]


# ---- PRJ-70: supplied chance outcomes ------------------------------------------------------------
def test_PRJ_70_chance_refusals_in_words():
    with pytest.raises(ValueError) as e:
        Chance("12")
    assert str(e.value) == "the outcomes are a sequence of whole numbers"
    c = Chance([5])
    with pytest.raises(ValueError) as e:
        c.take(3, 0)
    assert str(e.value) == "outcome 5 of a draw of 3 (outcome 0)"
    c = Chance([1])
    assert c.take(2, 0) == 1
    with pytest.raises(ChanceNeeded) as need:
        c.take(6, 9)
    assert str(need.value) == "chance needed: a draw of 6 outcomes after 1"


# ---- HND-2: reducing the hand at the end of the Play Year -----------------------------------------
def _over_the_limit() -> api.Game:
    g = scenario({"year": "play", "step": "hand_limit_at_year_end", "order": [0, 1, 2],
                  "players": [{"hand": GALEON[:RS.hand_limit + 1]}, {}, {}]})
    assert api.acting(g.state) == (0,)
    return g


def test_HND_2_the_reduce_hand_decision_is_named_with_its_rule():
    [d] = api.legal_actions(_over_the_limit().state, 0)
    assert (d["kind"], d["decision"], d["rule"]) == ("choice", "reduce_hand", "HND-2")


def test_HND_2_anything_but_a_sale_or_discard_is_refused_in_words():
    with pytest.raises(api.IllegalAction) as e:
        api.apply(_over_the_limit().state, {"seat": 0, "type": "end_turn"})
    assert (e.value.code, e.value.rule) == ("wrong_action", "HND-2")
    assert e.value.message == "You are over your hand limit: sell or discard a card."


# ---- PRJ-6: every meeple somewhere --------------------------------------------------------------------
def test_PRJ_6_meeples_count_the_cathedrals_citizens_apart_from_the_sites_indigenous():
    g = scenario({"year": "play", "step": "play_turns", "order": [0, 1, 2], "players": [{}, {}, {}],
                  "sites": {CATHEDRAL: 2, ZENU: 3, TOLU: 1}, "rebels": {ZONE: 2}})
    view = api.view(g.state, None)
    m = audit.meeples(g.state)
    cathedrals = sum(s["count"] for s in view["sites"] if s["kind"] == "cathedral")
    others = sum(s["count"] for s in view["sites"] if s["kind"] != "cathedral")
    working = sum(1 for c in view["colonies"] if c["labour"] == "citizen")
    assert cathedrals and others
    assert m["citizen"] == cathedrals + working
    assert m["indigenous"] == others
    assert m["rebel"] == sum(view["rebels"].values()) == 2


# ---- the view index -------------------------------------------------------------------------------------
def test_PRJ_11_the_view_index_lists_each_zones_sites_and_rebels():
    g = scenario({"year": "play", "step": "play_turns", "order": [0, 1, 2], "players": [{}, {}, {}],
                  "rebels": {ZONE: 2}})
    view = api.view(g.state, 0)
    ix = index(view)
    assert ix.view is view
    assert ix.zones[ZONE]["rebels"] == 2
    assert {z for z, v in ix.zones.items() if v["rebels"]} == {ZONE}
    assert all(set(v) == {"colonies", "sites", "fleets", "rebels"} for v in ix.zones.values())
    assert sorted(ix.zones[ZONE]["sites"]) == sorted(s["id"] for s in view["sites"] if s["zone"] == ZONE)
    assert None not in ix.zones


# ---- the public summary ----------------------------------------------------------------------------------
def test_PLY_1_the_summary_names_the_pending_decision():
    g = scenario({"year": "play", "step": "play_turns", "order": [0, 1, 2], "players": [{}, {}, {}]})
    assert api.summary(g.state)["decision"] == "play_turn"


# ---- PRJ-7: the i-th action of descriptors --------------------------------------------------------
def test_PRJ_7_nth_action_counts_a_range_then_an_empty_one_then_a_choice():
    from pax_hispanica.engine import core
    after = [{"seat": 0, "type": "pass"}, {"seat": 0, "type": "end_turn"}]
    descs = [{"kind": "range", "action": {"seat": 0, "type": "bid"}, "field": "amount", "min": 2, "max": 4},
             {"kind": "range", "action": {"seat": 0, "type": "bid"}, "field": "amount", "min": 3, "max": 1},
             {"kind": "choice", "options": after}]
    assert [core.nth_action(descs, i) for i in range(5)] == \
        [{"seat": 0, "type": "bid", "amount": a} for a in (2, 3, 4)] + after
    with pytest.raises(IndexError) as e:
        core.nth_action(descs, -1)
    assert e.value.args == (-1,)


# ---- HID-1: a saved state whose seed is hidden -----------------------------------------------------
def test_HID_1_a_saved_state_without_its_seed_restores_with_seed_0():
    from pax_hispanica.engine.state import State
    g = api.Game.new(api.Config(players=3), 7)
    d = g.state.to_dict()
    d["seed"] = None
    st = State.from_dict(d, g.state.rs)
    assert st.seed == 0 and st.seed_hash == g.state.seed_hash


# ---- HID-2: what a seat knows names the seat ---------------------------------------------------------
def test_HID_2_known_cards_name_their_viewer():
    g = api.Game.new(api.Config(players=3), 7)
    assert api.known_cards(api.view(g.state, 2), api.redact(g.events, 2))["viewer"] == 2


# ---- BAT-3: only a sealed decision (the support cards, a sealed bid) has a secret's domain --------------
def test_BAT_3_the_secret_domain_of_an_open_decision_is_a_type_error_in_words():
    from pax_hispanica.engine.decisions import DECISIONS
    with pytest.raises(TypeError) as e:
        DECISIONS["voyage"].secret_domain({}, {}, 0)
    assert str(e.value) == "voyage is not a sealed decision"


def test_PRJ_1_a_revealed_choice_with_another_salt_is_named_by_its_decision_and_seat():
    from support import random_game
    g = random_game(3, 4, stop=lambda g: any(e["type"] == "ChoicesRevealed" for e in g.events))
    events = [dict(e) for e in g.events]
    assert api.verify_log(events, 4) == []
    i, reveal = next((i, e) for i, e in enumerate(events) if e["type"] == "ChoicesRevealed")
    choice = dict(reveal["choices"][0])
    choice["salt"] = "00" * (len(choice["salt"]) // 2)
    events[i] = {**reveal, "choices": [choice, *reveal["choices"][1:]]}
    where = f"decision {reveal['id']} seat {choice['seat']}"
    assert f"{where}: the salt is not the one derived from the seed" in api.verify_log(events, 4)
