"""How a ruleset's board is drawn is ruleset data (map.toml's [board] and zone `pos`,
nations.toml's `color`), read by no rule: `api.board_layout` exposes it, a ruleset without it
still loads and plays, a bad value is refused naming the file and entry, and no view or
record carries it (the golden and corpus tests prove records and views unchanged)."""

from __future__ import annotations

import json
import re
import shutil

import pytest

from pax_hispanica import api
from pax_hispanica.engine.ruleset import RulesetError
from pax_hispanica.rulesets import DATA, load_ruleset

RS = load_ruleset()


def copy(tmp_path, edit=None):
    folder = tmp_path / "rs"
    shutil.copytree(DATA / "reference", folder)
    for fname, fn in (edit or {}).items():
        p = folder / fname
        p.write_text(fn(p.read_text()))
    return folder


def test_the_reference_board_places_every_zone_and_colours_every_nation():
    layout = api.board_layout()
    assert layout["size"] == [1000, 660]
    assert set(layout["zones"]) == set(RS.zone_ids)
    w, h = layout["size"]
    assert all(0 <= x <= w and 0 <= y <= h for x, y in layout["zones"].values())
    assert list(layout["nations"]) == RS.nation_order
    colours = [n["color"] for n in layout["nations"].values()]
    assert all(re.fullmatch(r"#[0-9a-f]{6}", c) for c in colours) and len(set(colours)) == len(colours)


def test_a_ruleset_without_drawing_data_loads_and_plays_the_same(tmp_path):
    strip = {"map.toml": lambda t: re.sub(r"\[board\]\nwidth = \d+\nheight = \d+\n", "",
                                          re.sub(r"pos = \[\d+, \d+\]\n", "", t)),
             "nations.toml": lambda t: re.sub(r'color = "#[0-9a-f]+"\n', "", t)}
    folder = copy(tmp_path, strip)
    layout = api.board_layout(str(folder))
    assert layout["size"] is None and layout["zones"] == {}
    assert all(n["color"] is None for n in layout["nations"].values())
    plain, drawn = api.Game.new(api.Config(players=3, ruleset=str(folder)), 7), api.Game.new(api.Config(players=3), 7)
    seen = json.dumps(api.view(plain.state, 0), sort_keys=True).replace(str(folder), "reference")
    assert seen.replace('"ruleset": "rs"', '"ruleset": "reference"') == json.dumps(api.view(drawn.state, 0),
                                                                               sort_keys=True)


def test_a_moved_zone_is_where_the_data_says(tmp_path):
    folder = copy(tmp_path, {"map.toml": lambda t: t.replace("pos = [330, 55]", "pos = [12, 34]")})
    assert api.board_layout(str(folder))["zones"]["florida"] == [12, 34]


@pytest.mark.parametrize("fname,old,new,words", [
    ("nations.toml", 'color = "#c0392b"', 'color = "red"', ["nations.toml", "[spanish]", "color"]),
    ("map.toml", "pos = [330, 55]", 'pos = [330]', ["map.toml", "land florida", "pos"]),
    ("map.toml", "pos = [330, 55]", 'pos = [-1, 55]', ["map.toml", "land florida", "pos"]),
    ("map.toml", "width = 1000", "width = 0", ["map.toml", "width"]),
])
def test_bad_drawing_data_is_refused_naming_file_and_entry(tmp_path, fname, old, new, words):
    folder = copy(tmp_path, {fname: lambda t: t.replace(old, new)})
    with pytest.raises(RulesetError) as e:
        load_ruleset(str(folder))
    for w in words:
        assert w in str(e.value), (w, str(e.value))


def test_no_view_or_record_carries_the_drawing():
    g = api.Game.new(api.Config(players=4), 3)
    text = json.dumps([api.view(g.state, s) for s in range(4)] + [api.view(g.state, None), g.record], default=str)
    assert "#c0392b" not in text and '"pos"' not in text and '"board"' not in text
