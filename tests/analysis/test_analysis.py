"""`paxh analyse` (pax_hispanica.analysis.game): deterministic, pinned on one corpus game, a
planted blunder marked, words in English and Catalan, the command line, and typed."""
from __future__ import annotations

import json
import os
import re
import string
import tempfile
import typing
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pax_hispanica import api
from pax_hispanica.analysis import analyse, messages, render
from pax_hispanica.analysis.game import THRESHOLDS, mark

from .planting import plant_overbid

ROOT = Path(__file__).resolve().parents[2]
PINNED = Path(__file__).with_name("pinned_analysis.json")
GAME = "bots-2p-2-0"          # heuristic (seat 0) against random (seat 1), 80 actions
SEAT, BUDGET, SEED = 1, 12, 7


def corpus_record(game_id: str) -> dict:
    for path in sorted((ROOT / "tests" / "corpus").glob("*.jsonl")):
        for line in path.read_text().splitlines():
            entry = json.loads(line)
            if entry["id"] == game_id:
                return entry["record"]
    raise LookupError(game_id)


def pinned_view(a) -> dict:
    """What the pin holds: the chart rounded to 3 decimals, the Year marks, each reviewed
    decision's best move and mark, and the key moments' kinds."""
    return {"chart": [[round(x, 3) for x in p.probabilities] for p in a.chart],
            "years": [[y.index, y.cycle, y.year] for y in a.years],
            "decisions": [[d.index, d.best, round(d.cost, 3), d.mark] for d in a.decisions],
            "moments": [[k.index, k.seat, k.kind] for k in a.key_moments]}


@pytest.fixture(scope="module")
def pinned_game():
    return analyse(corpus_record(GAME), seat=SEAT, budget=BUDGET, seed=SEED)


def test_analysis_is_deterministic_and_pinned(pinned_game):
    """Twice the same analysis, and the one pinned in pinned_analysis.json (after a change of the
    value model or the bots, write it again: PAXH_REPIN=1 pytest tests/analysis)."""
    again = analyse(corpus_record(GAME), seat=SEAT, budget=BUDGET, seed=SEED)
    assert again.to_json() == pinned_game.to_json()
    got = pinned_view(pinned_game)
    if os.environ.get("PAXH_REPIN"):
        PINNED.write_text("{\n" + ",\n".join(f"{json.dumps(k)}: [\n" + ",\n".join(json.dumps(x) for x in v) + "\n]"
                                              for k, v in got.items()) + "\n}\n")
    assert got == json.loads(PINNED.read_text())


def test_chart_covers_every_position_and_ends_with_the_winner(pinned_game):
    a = pinned_game
    record = corpus_record(GAME)
    assert [p.index for p in a.chart] == list(range(len(record["actions"]) + 1))
    for p in a.chart:
        assert sum(p.probabilities) == pytest.approx(1.0)
    assert a.finished and a.winner == api.replay(record).state.result["winner"]
    assert a.chart[-1].probabilities[a.winner] == 1.0
    assert [(y.cycle, y.year) for y in a.years][:3] == [(1, "auction"), (1, "play"), (1, "sail")]
    assert {y.year for y in a.years} == {"goods", "auction", "play", "sail"}
    # every reviewed decision is the seat's, with a choice, and its cost and mark agree
    for d in a.decisions:
        assert record["actions"][d.index]["seat"] == SEAT and d.options > 1
        assert d.cost == pytest.approx(max(0.0, d.value_best - d.value_played))
        assert d.mark == mark(d.cost)


def test_a_planted_blunder_is_marked():
    """Seat 0 of a heuristic game bids all its money ($6) where it bid $2: the analysis marks that
    decision a mistake or a blunder (the record stops where the game would no longer replay)."""
    record, index = plant_overbid(corpus_record("bots-2p-1-2"), seat=0)
    a = analyse(record, seat=0, budget=0, seed=1)
    d = next(d for d in a.decisions if d.index == index)
    assert d.played["amount"] >= 6 and d.best["amount"] <= 2
    assert d.mark in ("mistake", "blunder"), (d.cost, d.value_best, d.value_played)
    # the bid the bot made there (the initiator's $2: a tie it wins, AUC-4) costs far less
    honest = analyse(corpus_record("bots-2p-1-2"), seat=0, budget=0, seed=1)
    assert next(h for h in honest.decisions if h.index == index).cost < d.cost - 0.1


def test_thresholds_order():
    costs = [t for _n, t in THRESHOLDS]
    assert costs == sorted(costs, reverse=True)
    assert [mark(c) for c in (0.0, 0.039, 0.04, 0.08, 0.15, 0.5)] == [None, None, "inaccuracy", "mistake", "blunder", "blunder"]


def test_english_and_catalan_have_the_same_messages_and_placeholders():
    fields = {lang: {k: sorted(f for _t, f, _s, _c in string.Formatter().parse(v) if f)
                     for k, v in messages.MESSAGES[lang].items()} for lang in messages.LANGS}
    assert set(fields["en"]) == set(fields["ca"])
    for key in fields["en"]:
        # Catalan may say "de X" where English says X's: of_who stands for who
        assert {f.replace("of_who", "who") for f in fields["en"][key]} == \
               {f.replace("of_who", "who") for f in fields["ca"][key]}, key
    for table in (messages.MARKS, messages.NATIONS, messages.YEARS, messages.LEGALITIES):
        assert set(table["en"]) == set(table["ca"])


def test_key_moments_in_words(pinned_game):
    assert pinned_game.key_moments
    for k in pinned_game.key_moments:
        assert set(k.text) == {"en", "ca"} and all(k.text.values())
        assert ("rose" in k.text["en"]) == (k.after > k.before)
        assert re.search(r"\d+%", k.text["en"]) and re.search(r"\d+ %", k.text["ca"])
    for lang in messages.LANGS:
        text = render.text(pinned_game, lang)
        assert messages.say("key_moments", lang) in text
        svg = render.chart_svg(pinned_game, lang)
        assert svg.startswith("<svg") and svg.count("<polyline") == pinned_game.players
        # every Year is ruled where it begins (issue 40), not only the Goods Years, named in its title
        rules = re.findall(r'<line class="year-mark" data-year="(\w+)"[^>]*><title>([^<]+)</title>', svg)
        assert [y for y, _t in rules] == [m.year for m in pinned_game.years]
        assert {y for y, _t in rules} == {"goods", "auction", "play", "sail"}
        assert [t for _y, t in rules] == [messages.say("year_mark", lang, cycle=m.cycle,
                                                       year=messages.YEARS[lang][m.year]) for m in pinned_game.years]


def test_a_move_no_event_tells_is_said_in_words_not_ids():
    """The key moment of a move whose events tell nothing (a ship sailing on) is the game's own
    sentence for it, in English and Catalan: never its type and ids ("move atlantico")."""
    a = analyse(corpus_record("bots-2p-0-1"), seat=0, budget=0, seed=1)
    swing = next(k for k in a.key_moments if k.kind == "swing")
    assert swing.params["action"] == {"seat": 1, "type": "move", "to": "atlantico"}
    assert swing.text["en"].startswith("English sailed to Atlantic Ocean: English's chance of winning rose from ")
    assert swing.text["ca"].startswith("Anglaterra va navegar fins a l'Oceà Atlàntic: la probabilitat de guanyar ")
    for text in swing.text.values():
        assert "atlantico" not in text and "move" not in text
    assert swing.text["en"] in render.text(a, "en")
    # the decisions the CLI lists are said in words too, places and cards named ("Sail to Atlantic
    # Ocean", "Bid $2"), in either language: never "move to=atlantico" or "play galeon-1 -> cuba"
    for lang in messages.LANGS:
        listed = render.text(a, lang).split(messages.say("decisions", lang))[1]
        assert not re.search(r"\w=\w| -> |atlantico|galeon-", listed), listed
    english = render.text(a, "en")
    assert "played: Sail to Atlantic Ocean" in english and re.search(r"played: Bid \$\d", english)
    assert "jugat: Navega a l'Oceà Atlàntic" in render.text(a, "ca")


def test_catalan_elision():
    assert messages.of("Anglaterra", "ca") == "d'Anglaterra" and messages.of("França", "ca") == "de França"
    assert messages.span(0.01, 0.3, "ca") == "de l'1 % al 30 %"
    assert messages.span(0.5, 0.11, "ca") == "del 50 % a l'11 %"
    assert messages.money(3, "ca") == "3 $" and messages.money(3, "en") == "$3"


def test_cli_analyse(tmp_path):
    from pax_hispanica.cli import app
    path = tmp_path / "game.json"
    path.write_text(json.dumps(corpus_record("bots-2p-1-1")))
    runner = CliRunner()
    out = runner.invoke(app, ["analyse", str(path), "--seat", "1", "--budget", "0", "--json", "--lang", "ca"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    assert data["seat"] == 1 and data["bot"] == "heuristic" and len(data["chart"]) == 56
    assert all(set(k["text"]) == {"ca"} for k in data["key_moments"])
    words = runner.invoke(app, ["analyse", str(path), "--budget", "0", "--svg", str(tmp_path / "c.svg")])
    assert words.exit_code == 0 and "Key moments" in words.output and (tmp_path / "c.svg").exists()
    help_text = runner.invoke(app, ["analyse", "--help"]).output
    assert "en|ca" in help_text.replace(" ", "")
    bad = runner.invoke(app, ["analyse", str(path), "--seat", "3"])
    assert bad.exit_code == 2
    assert runner.invoke(app, ["analyse", str(path), "--lang", "fr"]).exit_code == 2
    from pax_hispanica.analysis.command import Lang
    assert typing.get_args(Lang) == messages.LANGS


def test_analysis_package_passes_mypy_strict():
    from mypy import api as mypy_api
    cache = Path(tempfile.gettempdir()) / "paxh-mypy-analysis"
    out, err, status = mypy_api.run(["--config-file", str(ROOT / "pyproject.toml"), "--strict",
                                     "--cache-dir", str(cache), "--no-error-summary",
                                     str(ROOT / "src" / "pax_hispanica" / "analysis")])
    assert status == 0, out + err


def test_the_analysis_reaches_the_engine_only_through_the_api():
    for path in sorted((ROOT / "src" / "pax_hispanica" / "analysis").glob("*.py")):
        text = path.read_text(encoding="utf-8")
        assert not re.search(r"^\s*(from|import)\s+(\.\.engine|pax_hispanica\.engine)", text, re.M), path


def test_the_rollout_search_analyses_with_the_preset_and_names_it(tmp_path):
    """--search rollout: the best move from ISMCTS's strongest preset (playouts to the end of the
    game), named as such in the analysis and its words; the same analysis twice."""
    from pax_hispanica.analysis.command import Search
    from pax_hispanica.analysis.game import SEARCHES
    from pax_hispanica.cli import app
    assert typing.get_args(Search) == SEARCHES
    rec = corpus_record(GAME)
    a = analyse(rec, seat=SEAT, budget=4, seed=SEED, search="rollout")
    assert a.bot == "ismcts:preset=rollout" and a.decisions
    assert a.to_json() == analyse(rec, seat=SEAT, budget=4, seed=SEED, search="rollout").to_json()
    assert "preset rollout" in render.text(a, "en") and "preset rollout" in render.text(a, "ca")
    with pytest.raises(ValueError, match="search is tree or rollout"):
        analyse(rec, seat=SEAT, budget=4, search="deep")
    path = tmp_path / "game.json"
    path.write_text(json.dumps(rec))
    out = CliRunner().invoke(app, ["analyse", str(path), "--seat", str(SEAT), "--budget", "4", "--search", "rollout",
                                   "--json"])
    assert out.exit_code == 0, out.output
    assert json.loads(out.output)["bot"] == "ismcts:preset=rollout"
    assert CliRunner().invoke(app, ["analyse", str(path), "--search", "deep"]).exit_code == 2
