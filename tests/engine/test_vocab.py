"""The engine's words are StrEnums (issue 13, "Typed state"): years (CYC-1), legalities
(TRS-1), meeples (PRJ-6) and decks (AUC-1). A member is its string for JSON, hashes and
comparisons, so records, views and snapshots are what they were (test_golden, test_corpus);
the state holds members however it was made, and actions hold plain strings (PRJ-7)."""
from __future__ import annotations

import json
import random
import typing

from pax_hispanica import api
from pax_hispanica.engine import ruleset_schema, scenario_schema, vocab
from pax_hispanica.engine.flow import YEARS
from pax_hispanica.engine.state import State
from pax_hispanica.engine.vocab import CHEST, Deck, Legality, Meeple, Year


def test_CYC_1_the_years_are_the_four_in_order():
    assert YEARS == vocab.YEARS == (Year.GOODS, Year.AUCTION, Year.PLAY, Year.SAIL)
    assert [str(y) for y in YEARS] == ["goods", "auction", "play", "sail"]
    assert typing.get_args(scenario_schema.Year) == tuple(map(str, YEARS))


def test_TRS_1_the_legalities_are_the_schemas():
    assert tuple(map(str, Legality)) == ruleset_schema.LEGALITIES == typing.get_args(ruleset_schema.Legality)


def test_PRJ_6_labour_and_cargo_words_are_the_scenario_schemas():
    assert set(typing.get_args(scenario_schema.Cargo)) == set(vocab.CARGO) == {"chest", "citizen", "indigenous"}
    assert set(vocab.LABOUR) == {"citizen", "slave"} and all(isinstance(m, Meeple) for m in vocab.LABOUR.values())
    assert {str(d) for d in Deck} == {"market", "haven"}


def test_PRJ_7_a_member_is_its_string_in_json_hashes_and_lookups():
    for member in [*Year, *Legality, *Meeple, *Deck]:
        plain = member.value
        assert type(plain) is str and member == plain and hash(member) == hash(plain)
        assert json.dumps({member: [member]}) == json.dumps({plain: [plain]})
        assert f"{member}" == str(member) == plain and type(str(member)) is str


def _words_are_members(st: State) -> None:
    assert all(type(x) is Legality for x in st.legality), st.legality
    assert all(x is None or type(x) is Meeple for x in st.col_labour)
    assert all((x == CHEST and type(x) is str) or type(x) is Meeple for c in st.cargo for x in c)
    assert all(type(d["deck"]) is Deck for d in st.stack if "deck" in d)


def _exact_json(x: object) -> None:
    """Only exact JSON types: what a player could have sent (PRJ-7)."""
    if isinstance(x, dict):
        for k, v in x.items():
            assert type(k) is str
            _exact_json(v)
    elif isinstance(x, list):
        for v in x:
            _exact_json(v)
    else:
        assert x is None or type(x) in (str, int, bool), (type(x), x)


def test_PRJ_7_state_holds_members_after_play_restore_and_determinize_and_actions_stay_plain():
    rng = random.Random(13)
    for seed in range(3):
        g = api.Game.new({"players": 3 + seed % 3}, seed)
        steps = 0
        while not g.state.over and steps < 400:
            seat = api.acting(g.state)[0]
            actions = api.expand(api.legal_actions(g.state, seat))
            for a in actions:
                _exact_json(a)
            g.act(rng.choice(actions))
            steps += 1
            if steps % 37 == 0:
                _words_are_members(g.state)
                snap = api.snapshot(g.state)
                back = api.restore(snap)
                _words_are_members(back)
                assert api.snapshot(back) == snap
                _words_are_members(api.determinize(api.view(g.state, seat, include_state=True), seed))
