"""The engine's core contract (issue 39, "A small core API"): pax_hispanica.contract.Engine's nine
operations, the helper groups that sort the rest of api.__all__, and docs/api.md's account of both.

The static half: mypy --strict checks at the end of contract.py that `api` is a SearchEngine and the
toy game a Sampling engine (tests/test_types_strict.py runs it); test_mypy_refuses_a_module_* shows
that check refuses an engine that lacks an operation.
"""

from __future__ import annotations

import re
import textwrap
import types
from pathlib import Path

import pytest

from pax_hispanica import api, contract
from pax_hispanica.bots import toygame
from pax_hispanica.bots.base import load_api

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "api.md"


def test_the_contract_is_nine_operations_api_offers():
    assert len(contract.CORE) == 9 == len(set(contract.CORE))
    assert set(contract.CORE) <= set(api.__all__)
    assert isinstance(api, contract.Engine) and isinstance(api, contract.SearchEngine)
    assert isinstance(toygame, contract.Sampling) and not isinstance(toygame, contract.SearchEngine)


def test_every_name_of_the_api_is_in_the_contract_or_in_one_helper_group():
    placed = [*contract.CORE, *(n for names in contract.HELPER_GROUPS.values() for n in names)]
    twice = sorted({n for n in placed if placed.count(n) > 1})
    assert not twice, f"in more than one group: {twice}"
    assert sorted(placed) == sorted(api.__all__), (
        f"not in a group (contract.HELPER_GROUPS): {sorted(set(api.__all__) - set(placed))}; "
        f"in a group but not in api.__all__: {sorted(set(placed) - set(api.__all__))}")
    for names in contract.HELPER_GROUPS.values():
        assert all(hasattr(api, n) for n in names)


def _section(text: str, heading: str) -> str:
    m = re.search(rf"^## {re.escape(heading)}\n(.*?)(?=^## )", text, re.S | re.M)
    assert m, f"docs/api.md has no section '## {heading}'"
    return m.group(1)


def test_docs_api_md_opens_with_the_contract_then_the_helper_groups():
    text = DOC.read_text(encoding="utf-8")
    headings = re.findall(r"^## (.+)$", text, re.M)
    assert headings[:2] == ["The core contract", "Helper groups"], headings[:3]
    core = _section(text, "The core contract")
    missing = [n for n in contract.CORE if f"api.{n}(" not in core]
    assert not missing, f"the contract's section does not show {missing}"
    assert "pax_hispanica.contract.Engine" in core
    groups = _section(text, "Helper groups")
    for group, names in contract.HELPER_GROUPS.items():
        row = next((line for line in groups.splitlines() if line.startswith(f"| {group} |")), None)
        assert row is not None, f"no row for the helper group {group!r}"
        absent = [n for n in names if f"`{n}`" not in row]
        assert not absent, f"the row of {group!r} does not name {absent}"


def test_copy_is_an_equal_state_that_shares_no_list():
    st = api.new_game(api.Config(players=3), 11)
    seat = api.acting(st)[0]
    st, _ = api.apply(st, api.nth_action(api.legal_actions(st, seat), 0))
    twin = api.copy(st)
    assert twin is not st and twin.to_dict() == st.to_dict()
    assert api.can_undo(twin, seat) == api.can_undo(st, seat)
    twin.money[0] += 100             # a caller that changes its copy leaves the original alone
    twin.hands[0].append("x")
    assert twin.to_dict() != st.to_dict() and st.to_dict() == api.copy(st).to_dict()
    seat = api.acting(st)[0]
    a = api.nth_action(api.legal_actions(st, seat), 0)
    assert api.apply(api.copy(st), a)[0].to_dict() == api.apply(st, a)[0].to_dict()


def test_the_toy_engine_copies_and_masks_as_the_contract_says():
    s = toygame.new_game(toygame.Config(players=3), 5)
    twin = toygame.copy(s)
    twin["hands"][0].append(9)
    assert twin != s
    info = toygame.information_state(s, 1)
    assert info["hand"] == s["hands"][1] and "hands" not in info


def test_load_api_refuses_what_is_not_an_engine_naming_what_it_lacks():
    assert load_api() is api and load_api("pax_hispanica.bots.toygame") is toygame
    fake = types.SimpleNamespace(**{n: getattr(toygame, n) for n in contract.CORE if n != "copy"})
    with pytest.raises(TypeError, match=r"lacks copy \(pax_hispanica.contract.Engine\)"):
        load_api(fake)
    from pax_hispanica.bots import make_agent
    agent = make_agent("ismcts", 1, api=types.SimpleNamespace(**{n: getattr(toygame, n) for n in contract.CORE}))
    with pytest.raises(TypeError, match="determinize, summary and SEALED_ACTION_TYPES"):
        _ = agent.api


def test_mypy_refuses_a_module_that_is_not_the_engine_it_is_given_as(tmp_path):
    """The static check of contract.py can fail: a module without copy is no Engine, the toy (no
    apply_trusted, model_view...) is no SearchEngine, and api's states are not the toy's."""
    from mypy import api as mypy_api
    pkg = tmp_path / "fake_engines"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    names = ", ".join(n for n in contract.CORE if n != "copy")
    (pkg / "nocopy.py").write_text(f"from pax_hispanica.bots.toygame import {names}\n")
    (pkg / "check.py").write_text(textwrap.dedent("""\
        from typing import Any
        from pax_hispanica import api
        from pax_hispanica.bots import toygame
        from pax_hispanica.contract import Engine, SearchEngine
        from . import nocopy
        a: Engine[dict[str, Any]] = nocopy
        b: SearchEngine[dict[str, Any]] = toygame
        c: Engine[dict[str, Any]] = api
        d: Engine[dict[str, Any]] = toygame
        """))
    out, err, _ = mypy_api.run(["--config-file", str(ROOT / "pyproject.toml"), "--strict", "--cache-dir",
                                str(tmp_path / "cache"), "--no-error-summary", "--hide-error-context",
                                str(pkg / "check.py")])
    errors = sorted(int(m) for m in re.findall(r"check\.py:(\d+): error: Incompatible types in assignment", out))
    assert errors == [6, 7, 8], out + err


def test_lacks_names_the_members_a_protocol_asks_for():
    assert contract.lacks(api, contract.SearchEngine) == []
    assert contract.lacks(object(), contract.Engine) == sorted(contract.CORE)
    assert contract.lacks(toygame, contract.Sampling) == []
    assert "SEALED_ACTION_TYPES" in contract.lacks(object(), contract.Sampling)     # a declared attribute too
    assert contract.lacks(toygame, contract.SearchEngine) == sorted(
        {"apply_trusted", "model_view", "bid_facts", "score_facts", "count_actions", "nth_action", "iter_actions",
         "redact", "known_cards"})


def test_the_web_refuses_a_stand_in_engine_that_is_not_a_search_engine():
    """In a process of its own: reloading engine_port here would leave the modules that imported
    its functions holding the old ones (the Hint's worker pickles `advise` by name)."""
    import os
    import subprocess
    import sys

    env = dict(os.environ, PAXH_API_MODULE="pax_hispanica.bots.toygame")
    r = subprocess.run([sys.executable, "-c", "import pax_hispanica.web.engine_port"], env=env,
                       capture_output=True, text=True, timeout=120)
    assert r.returncode != 0
    assert re.search(r"ImportError: .*PAXH_API_MODULE=pax_hispanica.bots.toygame .* lacks apply_trusted, ", r.stderr), \
        r.stderr[-2000:]
    env.pop("PAXH_API_MODULE")
    ok = subprocess.run([sys.executable, "-c", "from pax_hispanica.web import engine_port; from pax_hispanica import api; "
                         "assert engine_port.api is api"], env=env, capture_output=True, text=True, timeout=120)
    assert ok.returncode == 0, ok.stderr[-2000:]
