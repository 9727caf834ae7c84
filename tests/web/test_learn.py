"""Teach the game (issue 38): Learn to play's lessons (scenario files, one per Year, played against
bots with a coach at each decision), the legalities explained in the game's own numbers, and the
rules page in plain words. The browser's side: tests/web/test_learn_browser.py."""
from __future__ import annotations

import json
import re
from itertools import pairwise

import pytest

from pax_hispanica import api
from pax_hispanica.web.learn import coach as coaching
from pax_hispanica.web.learn import lessons
from pax_hispanica.web.learn.guide import SECTIONS, guide
from pax_hispanica.web.learn.lessons import LEARNER, LESSONS, LessonRefused, play
from pax_hispanica.web.present import legality
from pax_hispanica.web.present.i18n import Tr

YEARS = ("goods", "auction", "play", "sail")


def learner_plays(lesson, free=False, seed=3):
    """A learner (the heuristic bot standing in for a person) plays `lesson` to its end; returns
    the final Played and the coach's note at each of the learner's decisions."""
    from pax_hispanica.bots import make_agent
    me = make_agent("heuristic", seed, api=api)
    played = play(lesson, [], None, free=free)
    notes = []
    while not played.done and len(notes) < 60:
        assert played.learner_decides, "a lesson waits only for the learner"
        state = played.game.state
        offered = legality.offered(api.legal_actions(state, LEARNER))
        notes.append(({**coaching.step(played, Tr("en")), "offered": offered}, coaching.step(played, Tr("ca"))))
        action = me.decide(api.view(state, LEARNER, include_state=False), api.legal_actions(state, LEARNER))
        played = play(lesson, played.actions, action, free=free)
    return played, notes


def test_there_is_a_lesson_per_year_each_a_scenario_at_the_start_of_it_in_the_last_cycle():
    assert tuple(lesson.year for lesson in LESSONS) == YEARS
    cycles = api.parameters("reference")["cycles"]["value"]
    for lesson in LESSONS:
        sc = lessons.scenario(lesson.id)
        assert sc["position"]["year"] == lesson.year and sc["position"]["cycle"] == cycles
        game = api.from_scenario(sc)            # a scenario file the engine takes as it is
        view = api.view(game.state, LEARNER, include_state=False)
        assert view["year"] == lesson.year and view["players"][LEARNER]["nation"] == "english"
        assert sc["description"].startswith(f"Learn to play, lesson {LESSONS.index(lesson) + 1}")


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda lesson: lesson.id)
def test_a_lesson_is_short_explains_every_decision_and_ends_with_its_year(lesson):
    played, notes = learner_plays(lesson)
    assert 1 <= len(notes) <= 8, len(notes)                      # minutes, not an hour
    assert played.done
    if lesson.id == "sail":
        assert played.over                                        # the last lesson ends the game
    else:
        assert not played.over and lessons.year_over(lesson, played.game.state)
        assert api.view(played.game.state, None)["year"] == YEARS[YEARS.index(lesson.year) + 1]
    for en, ca in notes:
        kind = en["kind"]
        assert kind in coaching.STEPS, kind                       # every decision of a lesson has its own note
        for note, lang in ((en, "en"), (ca, "ca")):
            for text in (note["title"], note["what"], note["matters"], *note["hints"]):
                assert text and "learn_" not in text and "{" not in text, (lang, text)
        assert en["what"] != ca["what"]
        if kind == "voyage" or (kind == "play_turn" and not en["offered"]):   # where legality matters, it is compared
            assert [g["code"] for g in en["legalities"]] == list(legality.LEGALITIES)
        elif kind == "play_turn":                                 # ... by the action bar, beside the card
            assert en["legalities"] is None
    assert not notes[0][0]["repeat"]                              # the first note of a lesson in full
    for (prev, _), (now, _) in pairwise(notes):                   # the same kind again: folded
        assert now["repeat"] == (now["kind"] == prev["kind"]), (prev["kind"], now["kind"])
    kinds = {en["kind"] for en, _ in notes}
    assert kinds & {"labour", "initiate", "bid", "play_turn", "voyage"}, kinds


def test_the_whole_tutorial_takes_a_newcomer_about_a_dozen_decisions():
    total = sum(len(learner_plays(lesson)[1]) for lesson in LESSONS)
    assert 8 <= total <= 25, total


def test_the_coach_quotes_the_rulesets_numbers():
    params = api.parameters("reference")
    n = {k: v["value"] for k, v in params.items()}
    played = play(LESSONS[0], [])
    note = coaching.step(played, Tr("en"))
    assert note["kind"] == "labour"
    assert f"for ${n['employ_cost']}" in note["what"]
    assert f"on a {n['slave_death']} it dies, on a {n['slave_revolt']} it escapes" in note["matters"]
    sail = coaching.step(play(LESSONS[3], []), Tr("ca"))
    assert sail["kind"] == "voyage" and f"fins a {n['fleet_moves']} moviments" in sail["what"]
    assert "CORSARI" in sail["matters"] and sail["mine"] == "PRIVATEER"


def test_after_its_year_a_lesson_plays_on_to_the_end_of_the_game_with_the_real_rules():
    lesson = LESSONS[0]
    done, _ = learner_plays(lesson)
    assert done.done and not done.over
    on = play(lesson, done.actions, None, free=True)
    assert on.free and not on.done
    # a move after the lesson's Year is playing on as well
    assert coaching.coach(done, Tr("en"))["done"] and coaching.coach(done, Tr("en"))["next"]["id"] == "auction"
    finished, notes = learner_plays(lesson, free=True)
    assert finished.over and len(notes) > 2
    c = coaching.coach(finished, Tr("en"))
    assert c["done"] and "The game is over" in c["done_text"]


def test_the_same_moves_make_the_same_game_so_the_page_may_hold_it():
    lesson = LESSONS[1]
    a, _ = learner_plays(lesson)
    again = play(lesson, a.actions[:3])
    assert again.actions[:3] == a.actions[:3]
    # the bots' moves after the learner's are the same again: seeded by the game, not by chance
    b = play(lesson, a.actions[:1])
    assert b.actions == a.actions[:len(b.actions)]
    rebuilt = play(lesson, a.actions).game
    assert rebuilt.events == a.game.events
    assert api.view(rebuilt.state, None) == api.view(a.game.state, None)


def test_a_move_the_rules_refuse_is_refused_with_the_rule_and_changes_nothing():
    lesson = LESSONS[0]
    start = play(lesson, [])
    with pytest.raises(LessonRefused) as e:
        play(lesson, start.actions, {"seat": LEARNER, "type": "labour", "colony": "tierra_firme.santa_marta",
                                     "source": "kidnap", "site": "tierra_firme.cartagena_cathedral"})
    assert e.value.code not in ("lesson_lost", "wrong_seat") and e.value.rule
    with pytest.raises(LessonRefused) as e:     # the bots' seats are theirs
        play(lesson, start.actions, {"seat": 0, "type": "end_turn"})
    assert e.value.code == "wrong_seat"
    for junk in ("x", [{"seat": 2, "type": "fly"}], [{}] * (lessons.MAX_ACTIONS + 1)):
        with pytest.raises(LessonRefused) as e:
            play(lesson, junk)
        assert e.value.code == "lesson_lost"


@pytest.mark.parametrize("legal", legality.LEGALITIES)
def test_each_legality_says_what_the_engine_scores_for_it(legal):
    """The numbers shown are the ones the engine scores with: a fleet of each legality unloads
    1 to 4 Chests in Europe (TRS-5), and the explanation says that much, for the reference and for
    a variant (PRJ-31) that changes each number."""
    variant = {"conquistador_prestige": 2, "privateer_prestige": 2, "privateer_money": 3, "smuggler_money": 5,
               "plunder_money": 4, "plunder_chests_per_prestige": 3}
    for params in ({}, variant):
        row = next(r for r in legality.explain(Tr("en"), params=tuple(sorted(params.items()))) if r["code"] == legal)
        scored = []
        for k in (1, 2, 3, 4):
            sc = {"config": {"players": 3, "nations": ["spanish", "english", "french"], "params": params}, "seed": 5,
                  "position": {"cycle": 2, "year": "sail", "order": [1, 2, 0], "players": [
                      {}, {"fleet": {"zone": "atlantico", "ships": 2, "legality": legal, "cargo": ["chest"] * k}}, {}]}}
            events = api.from_scenario(sc).act({"seat": LEARNER, "type": "move", "to": "europe"})
            e = next(e for e in events if e["type"] == "TreasureScored")
            scored.append((e["prestige"], e["money"]))
        per_chest = scored[0]
        text = row["scores"]
        if legal == "PLUNDER":
            per = next(k for k in (1, 2, 3, 4) if scored[k - 1][0] == 1)     # the haul that earns 1 Prestige
            assert f"${per_chest[1]} a Chest" in text and f"every {per} Chests" in text, (text, scored)
        else:
            assert scored == [(per_chest[0] * k, per_chest[1] * k) for k in (1, 2, 3, 4)]
            if per_chest[0]:
                assert f"{per_chest[0]} Prestige" in text, (text, scored)
            if per_chest[1]:
                assert f"${per_chest[1]}" in text, (text, scored)
            else:
                assert "no money" in text
        assert row["loads"] and row["risk"] and row["name"] == legal


def test_the_smugglers_bribe_is_the_games_player_count_s():
    p = api.parameters("reference", None, extended=True)
    two, three = p["smuggler_bribe.2"]["value"], p["smuggler_bribe.3"]["value"]
    assert two != three                      # PRJ-78: so the count matters
    for n, bribe in ((2, two), (3, three)):
        row = next(r for r in legality.explain(Tr("en"), players=n) if r["code"] == "SMUGGLER")
        assert f"for ${bribe} a Chest" in row["loads"]
    own = next(r for r in legality.explain(Tr("ca"), params=(("house_rules", "reference-7"),)) if r["code"] == "PLUNDER")
    assert "regles de la casa" in own["loads"]          # PRJ-38's sack_or_own, named as a house rule


def test_the_rules_guide_is_in_plain_words_with_pictures_and_rule_links():
    rule_ids = set(api.RULES)
    for lang in ("en", "ca"):
        g = guide(Tr(lang))
        assert [s["id"] for s in g["sections"]] == [sid for sid, _ in SECTIONS]
        for s in g["sections"]:
            assert s["rules"] and set(s["rules"]) <= rule_ids
            assert s["heading"] and len(s["text"]) > 100 and "rules_plain" not in s["text"]
            assert not re.search(r"\b[A-Z]{2,4}-\d+\b", s["text"]), s["text"]   # IDs are links, not the prose
        pictures = [p for s in g["sections"] for p in s["pictures"]]
        assert len(pictures) == 2
        for p in pictures:
            svg = str(p["svg"])
            assert svg.startswith("<svg") and f'aria-labelledby="picture-{p["id"]}-caption"' in svg
            assert ' id="' not in svg and "tabindex" not in svg       # two pictures on one page: no ids, no stops
        assert len(g["legalities"]) == 4
    en, ca = guide(Tr("en")), guide(Tr("ca"))
    n = {k: v["value"] for k, v in api.parameters("reference").items()}
    goal = en["sections"][0]["text"]
    assert f"Over {n['cycles']} cycles" in goal and f"{n['prestige_to_win']} Prestige" in goal
    assert f"for every ${n['money_per_prestige']}" in goal
    assert f"{n['money_per_prestige']} $" in ca["sections"][0]["text"]
    assert en["sections"][0]["text"] != ca["sections"][0]["text"]


def test_the_lesson_files_are_scenario_files_the_engines_schema_accepts():
    from importlib import resources
    folder = resources.files("pax_hispanica.data").joinpath("lessons")
    names = sorted(p.name for p in folder.iterdir() if p.name.endswith(".json"))
    assert names == sorted(lesson.file for lesson in LESSONS)
    for lesson in LESSONS:
        sc = json.loads(folder.joinpath(lesson.file).read_text(encoding="utf-8"))
        assert sc["$schema"] == "../schema/scenario.schema.json"
        assert not sc.get("actions")                       # the learner plays every move

