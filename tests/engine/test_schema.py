"""The declared schemas of the data files (engine/ruleset_schema.py, engine/scenario_schema.py):
the published JSON Schemas in data/schema/ are the models' own, and they accept the reference
ruleset and every documented scenario, so an editor that checks a file against them agrees
with the loader."""

from __future__ import annotations

import json
import tomllib
import typing
from pathlib import Path

import jsonschema
import pytest

from pax_hispanica import api
from pax_hispanica import schemas as schema
from pax_hispanica.engine import flow
from pax_hispanica.engine.schema import rendered
from pax_hispanica.rulesets import DATA
from pax_hispanica.engine.ruleset_schema import FILES
from pax_hispanica.engine.scenario_schema import Year

DOCS = Path(__file__).resolve().parents[2] / "docs" / "scenarios"


def published(name: str) -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator(json.loads((schema.SCHEMA_DIR / name).read_text()))


def test_the_published_json_schemas_are_up_to_date():
    """Regenerate with `python -m pax_hispanica.schemas --write` after changing a model."""
    assert schema.stale() == []
    assert sorted(p.name for p in schema.SCHEMA_DIR.glob("*.json")) == sorted(rendered())


@pytest.mark.parametrize("fname", sorted(FILES))
def test_the_reference_ruleset_files_pass_their_published_schema(fname):
    raw = tomllib.loads((DATA / "reference" / fname).read_text())
    v = published(f"{fname.removesuffix('.toml')}.schema.json")
    assert list(v.iter_errors(raw)) == []
    assert list(v.iter_errors({**raw, "colour": "red"}))        # unknown keys are refused


@pytest.mark.parametrize("fname", sorted(p.name for p in DOCS.glob("*.json")))
def test_every_documented_scenario_passes_the_published_schema(fname):
    scn = json.loads((DOCS / fname).read_text())
    v = published("scenario.schema.json")
    assert list(v.iter_errors(scn)) == []
    assert list(v.iter_errors({**scn, "$schema": "../../src/pax_hispanica/data/schema/scenario.schema.json"})) == []
    assert list(v.iter_errors({**scn, "positoin": {}}))


def test_the_scenario_schema_years_are_the_engines():
    assert typing.get_args(Year) == flow.YEARS


def test_PRJ_7_a_scenario_may_name_its_schema_for_an_editor():
    scn = json.loads((DOCS / "market_refill.json").read_text())
    g = api.from_scenario({"$schema": "../../src/pax_hispanica/data/schema/scenario.schema.json", **scn})
    assert g.state.to_dict() == api.from_scenario(scn).state.to_dict()


@pytest.mark.parametrize("position,message", [
    ({"players": [{"fleet": {"wings": 1}}]}, "scenario: player 0 fleet: unknown key(s) ['wings']"),
    ({"players": [{"money": "5"}]}, "scenario: player 0: money must be int"),
    ({"players": [{"money": None}]}, "scenario: player 0: money must be int"),
    ({"players": [{}, {"fleet": {"cargo": ["gold"]}}]}, "scenario: player 1 fleet: cargo.0 must be 'chest'"),
    ({"players": [{"tableau": [3]}]}, "scenario: player 0: tableau entries are card ids or [card id, target]"),
    ({"colonies": {"cuba.habana": {"chests": -1}}}, "scenario: colony cuba.habana: chests must be a whole number"),
    ({"colonies": {"cuba.habana": {"owner": 7}}}, "scenario: colony cuba.habana: owner is a seat"),
    ({"decks": {"discard": []}}, "scenario: decks: unknown key(s) ['discard']"),
    ({"sites": {"cuba.taino": "2"}}, "scenario: sites: cuba.taino must be int"),
    ({"cycle": 0}, "scenario: position: cycle must be a whole number of at least 1"),
    ({"colour": "red"}, "scenario: position: unknown key(s) ['colour']"),
])
def test_PRJ_7_a_scenario_of_the_wrong_shape_is_refused_naming_the_entry_and_key(position, message):
    with pytest.raises(api.IllegalAction) as e:
        api.from_scenario({"config": {"players": 3}, "seed": 1, "position": position})
    assert e.value.code == "bad_scenario" and message in e.value.message, e.value.message


def test_a_player_count_override_must_name_a_whole_number(tmp_path):
    from .test_ruleset import broken, refused
    f = broken(tmp_path, "ruleset.toml", "[setup.by_players.2]", "[setup.by_players.two]")
    msg = refused(f, "ruleset.toml", "[setup.by_players.two]", "whole number")
    assert msg == "ruleset.toml: [setup.by_players.two]: the player count must be a whole number"


def test_PRJ_7_scenario_build_works_without_importing_the_rest_of_the_engine():
    """engine.scenario registers the years' steps itself (it used to need engine.core imported first)."""
    import subprocess
    import sys
    code = ("import json, sys; from pax_hispanica.engine import scenario; "
            "from pax_hispanica.rulesets import load_ruleset; "
            "st, ev = scenario.build(json.load(open(sys.argv[1])), load_ruleset); print(ev[-1]['type'])")
    out = subprocess.run([sys.executable, "-c", code, str(DOCS / "market_refill.json")], capture_output=True,
                         text=True, check=True, env={"PYTHONPATH": str(Path(schema.__file__).parents[1])})
    assert out.stdout.strip()
