"""The engine, its API and the loaders outside the engine (rulesets.py, schemas.py) type-check
under `mypy --strict` (issue 13, "Typed state"), with the configuration of pyproject.toml's
[tool.mypy]: no blanket ignores, no module exempt."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SRC = ROOT / "src" / "pax_hispanica"
FILES = ("engine", "api.py", "rulesets.py", "schemas.py",     # the engine, its API, the loaders outside it
         "compiled_engine.py")                                 # and what chooses the compiled engine


def test_PRJ_7_engine_and_api_pass_mypy_strict(tmp_path):
    from mypy import api as mypy_api
    out, err, status = mypy_api.run(["--config-file", str(ROOT / "pyproject.toml"), "--strict",
                                     "--cache-dir", str(tmp_path), "--no-error-summary", "--hide-error-context",
                                     *(str(SRC / f) for f in FILES)])
    errors = [line for line in out.splitlines() if ": error:" in line]
    assert status == 0 and not errors, f"{len(errors)} mypy errors:\n" + ("\n".join(errors[:50]) or out + err)


def test_PRJ_7_the_mypy_configuration_is_strict_and_exempts_nothing():
    import tomllib
    cfg = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["mypy"]
    assert cfg["strict"] is True
    assert "overrides" not in cfg and "ignore_errors" not in cfg and "disable_error_code" not in cfg
    assert set(cfg["files"]) == {f"src/pax_hispanica/{f}" for f in FILES}


def test_PRJ_7_no_blanket_or_bare_type_ignores():
    """A `# type: ignore` names its error code and stands on one line; none covers a module."""
    for path in [*sorted((SRC / "engine").rglob("*.py")), *(SRC / f for f in FILES[1:])]:
        text = path.read_text()
        assert "ignore_errors" not in text and "mypy: ignore" not in text, path
        for n, line in enumerate(text.splitlines(), 1):
            if "type: ignore" in line:
                assert re.search(r"#\s*type:\s*ignore\[[a-z-]+(, *[a-z-]+)*\]", line), f"{path.name}:{n}: {line}"
                assert line.split("#")[0].strip(), f"{path.name}:{n}: a type: ignore on a line of its own"


def test_PRJ_31_the_declared_parameter_types_of_Ruleset_are_the_schema():
    """Ruleset declares each parameter's type for type checkers (plain attributes at run
    time, set by build_ruleset): the same names and types as the schema (ruleset_schema.PARAMS)."""
    from pax_hispanica.engine import ruleset
    text = Path(ruleset.__file__).read_text()
    block = text.split("    if TYPE_CHECKING:", 1)[1].split("\n\n", 1)[0]
    declared = dict(re.findall(r"^\s+(\w+): ClassVar\[(\w+)\]$", block, re.M))
    assert declared == {k: t.__name__ for k, t in ruleset.parameter_types().items()}


def test_PRJ_31_every_parameter_is_a_plain_attribute_of_a_ruleset_and_of_a_variant():
    """issue 13: a ruleset's parameters are instance attributes (no __getattr__ hook, which
    would slow every attribute read of a ruleset), equal to its params, in the loaded ruleset
    and in a variant (PRJ-31), whose overrides they show."""
    from pax_hispanica import api
    from pax_hispanica.engine import ruleset
    assert "__getattr__" not in vars(ruleset.Ruleset)
    base = api.load_ruleset("reference")
    var = api.load_ruleset("reference", {"prestige_to_win": 30, "hand_limit": 4})
    for rs in (base, var):
        for key in ruleset.parameter_types():
            assert key in vars(rs) and getattr(rs, key) == rs.params[key], key
    assert (var.prestige_to_win, var.hand_limit) == (30, 4) and base.prestige_to_win != 30
    with pytest.raises(AttributeError):
        _ = base.no_such_parameter
