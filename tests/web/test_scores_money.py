"""CYC-3: the score table writes money in the page's language ("$3" in English, "3 $" in Catalan)."""

from __future__ import annotations

import json
from pathlib import Path

from pax_hispanica import api
from pax_hispanica.web.present.i18n import Tr
from pax_hispanica.web.present.scores import score_table

CORPUS = Path(__file__).resolve().parents[1] / "corpus" / "bots_4p.jsonl"


def _finished_game():
    entry = json.loads(CORPUS.read_text(encoding="utf-8").splitlines()[0])
    g = api.replay(entry["record"])
    assert api.is_over(g.state)
    return g


def test_CYC_3_money_in_the_score_table_is_written_as_the_language_writes_it():
    g = _finished_game()
    money = [b["money"] for e in g.events if e["type"] == "FinalScoring" for b in e["breakdown"]]
    for lang, fmt in (("en", "${}"), ("ca", "{} $")):
        table = score_table(g.events, api.result(g.state), Tr(lang))
        assert table["money_left_text"] == [fmt.format(m) for m in money], lang
        (row,) = [r for r in table["rows"] if r["key"] == "money"]
        assert row["notes"] == [fmt.format(m) for m in money], lang
