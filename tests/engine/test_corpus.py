"""The corpus of recorded games (tests/corpus/, issue 13): every record replays to its
stored result and final-state hash (SHA-256 of api.snapshot of the final state).

A failure means the rules, the randomness or the state's serialisation changed. When the
change is intended, regenerate on purpose and review the diff:

    .venv/bin/python scripts/make_corpus.py
    git diff --stat tests/corpus/
"""
from __future__ import annotations

import json
from collections import Counter

import pytest

from pax_hispanica import api
from pax_hispanica.sim import corpus

ENTRIES = corpus.load()
REGENERATE = "regenerate on purpose with scripts/make_corpus.py if the change is intended (docs/api.md, 'Tests')"


def test_corpus_is_there_and_ids_are_unique():
    assert len(ENTRIES) >= 100, f"{len(ENTRIES)} records in tests/corpus/"
    ids = Counter(e["id"] for _f, e in ENTRIES)
    assert [i for i, n in ids.items() if n > 1] == []


def test_corpus_covers_player_counts_bots_scenarios_and_web_games():
    players = Counter(e["record"]["config"]["players"] for _f, e in ENTRIES)
    assert set(players) == {2, 3, 4, 5}, players
    kinds = Counter(k for _f, e in ENTRIES for k in e.get("bots", []))
    assert {"random", "heuristic", "ismcts"} <= set(kinds), kinds
    sources = Counter(e["source"] for _f, e in ENTRIES)
    assert sources["bots"] and sources["scenario"] and sources["web"], sources
    scenarios = {e["scenario"] for _f, e in ENTRIES if e["source"] == "scenario"}
    assert scenarios == {p.name for p in corpus.scenario_files()}, "every docs/scenarios file is in the corpus"
    assert all(e["record"]["format"] == api.RECORD_FORMAT for _f, e in ENTRIES)


@pytest.mark.parametrize("entry", [e for _f, e in ENTRIES], ids=[e["id"] for _f, e in ENTRIES])
def test_record_replays_to_its_result_and_state_hash(entry):
    game = api.replay(entry["record"])
    assert api.is_over(game.state), f"{entry['id']}: the replayed game is not over; {REGENERATE}"
    assert len(entry["record"]["actions"]) == entry["actions"]
    assert api.result(game.state) == entry["result"], f"{entry['id']}: another result; {REGENERATE}"
    assert corpus.state_hash(game.state) == entry["state_sha256"], \
        f"{entry['id']}: another final state; {REGENERATE}"


def test_regenerating_gives_the_same_lines():
    """The generator is deterministic: the first game of each player count, a heuristic and an
    ISMCTS game, and the scenario games come out byte for byte as stored (the whole run:
    scripts/make_corpus.py, about 25 s)."""
    stored = {e["id"]: corpus.dumps(e) for _f, e in ENTRIES}
    ismcts = next(m for m, (kinds, _g, _x) in enumerate(corpus.MIXES[2]) if "ismcts" in kinds)
    for players, m, i in [(2, 0, 0), (3, 0, 0), (4, 0, 0), (5, 0, 0), (4, 1, 0), (2, ismcts, 0)]:
        e = corpus.bot_entry(players, m, i)
        assert corpus.dumps(e) == stored[e["id"]], f"{e['id']} regenerates differently; {REGENERATE}"
    for e in corpus.scenario_entries():
        assert corpus.dumps(e) == stored[e["id"]], f"{e['id']} regenerates differently; {REGENERATE}"


def test_web_games_are_stored_as_the_server_recorded_them():
    web = [e for _f, e in ENTRIES if e["source"] == "web"]
    for e in web:
        rec = e["record"]
        assert rec["seed"] >= 2 ** 64, "the server's seeds are 128-bit secrets (PRJ-1)"
        assert api.verify_record(rec) == [], e["id"]
    assert len({json.dumps(e["record"]["seed"]) for e in web}) == len(web)
