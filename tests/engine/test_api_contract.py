"""The engine's core contract (issue 39, "A small core API"): pax_hispanica.contract.Engine's nine
operations, the helper groups that sort the rest of api.__all__, and docs/api.md's account of both.

The static half: mypy --strict checks at the end of contract.py that `api` is a SearchEngine and the
toy game a Sampling engine (tests/test_types_strict.py runs it); test_mypy_refuses_a_module_* shows
that check refuses an engine that lacks an operation.

The layers typed against it: rl/, analysis/ and sim/ reach the engine only through contract names
(test_rl_analysis_and_sim_reach_the_engine_only_through_contract_names scans their modules), and mypy
refuses a helper their `ENGINE` does not offer (test_mypy_refuses_a_module_...).
"""

from __future__ import annotations

import ast
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


def test_load_api_remembers_only_the_engines_it_accepted():
    """load_api keeps the engines it has checked (the Protocol check is slow and the heuristic asks
    on every decision); one it refused is checked again, and accepted once it is whole."""
    fake = types.SimpleNamespace(**{n: getattr(toygame, n) for n in contract.CORE if n != "copy"})
    for _ in range(2):
        with pytest.raises(TypeError, match="lacks copy"):
            load_api(fake)
    fake.copy = toygame.copy
    assert load_api(fake) is fake and load_api(fake) is fake
    assert load_api(api) is api and load_api("pax_hispanica.api") is api


def test_mypy_refuses_a_module_that_is_not_the_engine_it_is_given_as(tmp_path):
    """The static check of contract.py can fail: a module without copy is no Engine, the toy (no
    apply_trusted, model_view...) is no SearchEngine, and api's states are not the toy's. And the
    engines rl/, analysis/ and sim/ are typed against (their `ENGINE`) refuse a helper that no protocol
    has: mypy checks each call of theirs against the contract (one run: mypy takes a minute)."""
    from mypy import api as mypy_api
    pkg = tmp_path / "fake_engines"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    names = ", ".join(n for n in contract.CORE if n != "copy")
    (pkg / "nocopy.py").write_text(f"from pax_hispanica.bots.toygame import {names}\n")
    typed = [f"pax_hispanica.{name[:-3].replace('/', '.')}" for name, source, package in _typed_layer_modules()
             if contract_misuse(source, name, package)[1] == {"ENGINE"}]
    assert len(typed) >= 7, typed
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
        """) + "".join(f"import {m}\n{m}.ENGINE.acting\n{m}.ENGINE.replay\n" for m in typed))
    out, err, _ = mypy_api.run(["--config-file", str(ROOT / "pyproject.toml"), "--strict", "--cache-dir",
                                str(tmp_path / "cache"), "--no-error-summary", "--hide-error-context",
                                str(pkg / "check.py")])
    errors = sorted(int(m) for m in re.findall(r"check\.py:(\d+): error: Incompatible types in assignment", out))
    assert errors == [6, 7, 8], out + err
    refused = re.findall(r'check\.py:(\d+): error: "(?:Engine|Sampling|SearchEngine)\[State\]" has no attribute "replay"',
                         out)
    assert [int(n) for n in refused] == [12 + 3 * k for k in range(len(typed))], out + err
    assert len(re.findall(r"check\.py:\d+: error", out)) == 3 + len(typed), out + err


def test_lacks_names_the_members_a_protocol_asks_for():
    assert contract.lacks(api, contract.SearchEngine) == []
    assert contract.lacks(object(), contract.Engine) == sorted(contract.CORE)
    assert contract.lacks(toygame, contract.Sampling) == []
    assert "SEALED_ACTION_TYPES" in contract.lacks(object(), contract.Sampling)     # a declared attribute too
    assert contract.lacks(toygame, contract.SearchEngine) == sorted(
        {"apply_trusted", "model_view", "bid_facts", "score_facts", "hand_facts", "count_actions", "nth_action", "iter_actions",
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


# ---------------------------------------------------------------- the layers typed against the contract

SRC = ROOT / "src" / "pax_hispanica"
TYPED_LAYERS = ("rl", "analysis", "sim")
"""The packages that reach the engine only through contract names: the nine operations and the
helper protocols through a module-level engine typed as one of contract's protocols (`ENGINE:
SearchEngine[api.State] = api`: mypy --strict checks every call), and of `api` itself only the
names of a helper group that no protocol has (Config, Game, load_ruleset, ...)."""
PROTOCOLS = {"Engine", "Actions", "Search", "Sampling", "Logs", "SearchEngine"}
ENGINE_IMPORTS: dict[str, set[str]] = {}
"""What the layers may import from the engine's own modules, past the api: nothing (the action
table and the words the encodings are laid out by are api.VOCABULARY's). A new import fails
test_rl_analysis_and_sim_reach_the_engine_only_through_contract_names."""


def _absolute(module: str | None, level: int, package: str) -> str:
    if not level:
        return module or ""
    parts = package.split(".")[:len(package.split(".")) - level + 1]
    return ".".join([*parts, *([module] if module else [])])


def _imports(tree: ast.Module, name: str, package: str) -> tuple[set[str], set[str], set[str], list[str]]:
    """The names the module binds to api and to contract's protocols, what it imports from the
    engine's own modules, and the imports refused."""
    apis: set[str] = set()
    protocols: set[str] = set()
    past: set[str] = set()
    out: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [f"{name}:{node.lineno}: imports {a.name}" for a in node.names
                    if a.name.startswith("pax_hispanica.engine") or a.name == "pax_hispanica.api"]
            continue
        if not isinstance(node, ast.ImportFrom):
            continue
        mod = _absolute(node.module, node.level, package)
        for a in node.names:
            full = f"{mod}.{a.name}"
            if full == "pax_hispanica.api":
                apis.add(a.asname or a.name)
            elif mod == "pax_hispanica.contract" and a.name in PROTOCOLS:
                protocols.add(a.asname or a.name)
            elif mod == "pax_hispanica.api":
                out.append(f"{name}:{node.lineno}: imports {a.name} from pax_hispanica.api: read it as api.{a.name}")
            elif mod.startswith("pax_hispanica.engine") and mod != "pax_hispanica.engine.jsontypes":
                past.add(full)
                if full not in ENGINE_IMPORTS.get(name, set()):
                    out.append(f"{name}:{node.lineno}: imports {full}, past the api")
    return apis, protocols, past, out


def _engines(tree: ast.Module, name: str, apis: set[str], protocols: set[str]) -> tuple[dict[str, ast.AnnAssign], list[str]]:
    """The module-level `NAME: <annotation> = api` of the module, and those not typed as a protocol."""
    engines: dict[str, ast.AnnAssign] = {}
    out: list[str] = []
    for node in tree.body:
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) \
                and isinstance(node.value, ast.Name) and node.value.id in apis:
            base = node.annotation.value if isinstance(node.annotation, ast.Subscript) else node.annotation
            if not (isinstance(base, ast.Name) and base.id in protocols):
                out.append(f"{name}:{node.lineno}: {node.target.id} is api typed as {ast.unparse(node.annotation)}, "
                           f"not as a protocol of pax_hispanica.contract")
            engines[node.target.id] = node
    return engines, out


def _read(node: ast.Attribute, name: str, apis: set[str]) -> str | None:
    """Why the read `node` (of api or an engine) is refused, or None."""
    assert isinstance(node.value, ast.Name)
    what = f"{node.value.id}.{node.attr}"
    if node.attr not in {*contract.CORE, *(n for names in contract.HELPER_GROUPS.values() for n in names)}:
        return (f"{name}:{node.lineno}: {what} is neither in the contract (contract.CORE) "
                f"nor in a helper group (contract.HELPER_GROUPS)")
    if node.value.id in apis and node.attr in contract.lacks(object(), contract.SearchEngine):
        return (f"{name}:{node.lineno}: {what} is the contract's or a helper protocol's, read from api "
                f"untyped: call it through an engine typed against the contract (ENGINE)")
    return None


def contract_misuse(source: str, name: str, package: str = "pax_hispanica.rl") -> tuple[list[str], set[str], set[str]]:
    """What the module `name` (its source; in `package`) reads of the engine beyond contract names,
    as messages naming the file, the line and the name; its engines typed against the contract; and
    the names it imports from the engine's own modules (ENGINE_IMPORTS's, when allowed)."""
    tree = ast.parse(source)
    apis, protocols, past, out = _imports(tree, name, package)
    engines, untyped = _engines(tree, name, apis, protocols)
    out += untyped
    bound = {id(n.value) for n in engines.values()}
    attributes = [n for n in ast.walk(tree) if isinstance(n, ast.Attribute)]
    read = {id(n.value) for n in attributes}
    out += [why for n in attributes if isinstance(n.value, ast.Name) and n.value.id in apis | set(engines)
            for why in [_read(n, name, apis)] if why]
    out += [f"{name}:{n.lineno}: api itself used untyped (only as `ENGINE: <protocol> = api`)"
            for n in ast.walk(tree) if isinstance(n, ast.Name) and n.id in apis and isinstance(n.ctx, ast.Load)
            and id(n) not in read | bound]
    return sorted(out, key=lambda m: int(m.split(":")[1])), set(engines), past


def _typed_layer_modules() -> list[tuple[str, str, str]]:
    """(name relative to the package root, source, its package) of every module of TYPED_LAYERS."""
    return [(str(p.relative_to(SRC)), p.read_text(encoding="utf-8"), "pax_hispanica." + layer)
            for layer in TYPED_LAYERS for p in sorted((SRC / layer).rglob("*.py"))]


def test_rl_analysis_and_sim_reach_the_engine_only_through_contract_names():
    problems: list[str] = []
    typed: list[str] = []
    stale = {f"{name}: {full}" for name, imports in ENGINE_IMPORTS.items() for full in imports}
    for name, source, package in _typed_layer_modules():
        bad, engines, past = contract_misuse(source, name, package)
        problems += bad
        typed += [name] * bool(engines)
        stale -= {f"{name}: {full}" for full in past}
    assert not problems, "\n".join(problems)
    assert not stale, f"no longer imported: strike them from ENGINE_IMPORTS: {sorted(stale)}"
    assert {"rl/openspiel.py", "rl/pettingzoo_env.py", "rl/gym_env.py", "rl/observation.py", "rl/encoding.py",
            "analysis/game.py", "analysis/train.py", "sim/corpus.py"} <= set(typed), typed


def test_the_contract_scan_names_the_file_and_the_name_it_refuses():
    source = textwrap.dedent("""\
        from typing import Any
        from pax_hispanica import api
        from pax_hispanica.contract import Engine
        from pax_hispanica.engine.core import apply_trusted
        ENGINE: Engine[api.State] = api
        LOOSE: Any = api
        s = api.new_game(api.Config(players=3), 1)
        ENGINE.secret_door(s)
        api.load_ruleset("reference")
        """)
    bad, engines, past = contract_misuse(source, "rl/sample.py")
    assert past == {"pax_hispanica.engine.core.apply_trusted"}
    assert engines == {"ENGINE", "LOOSE"}
    assert bad == [
        "rl/sample.py:4: imports pax_hispanica.engine.core.apply_trusted, past the api",
        "rl/sample.py:6: LOOSE is api typed as Any, not as a protocol of pax_hispanica.contract",
        "rl/sample.py:7: api.new_game is the contract's or a helper protocol's, read from api untyped: "
        "call it through an engine typed against the contract (ENGINE)",
        "rl/sample.py:8: ENGINE.secret_door is neither in the contract (contract.CORE) nor in a helper group "
        "(contract.HELPER_GROUPS)",
    ], bad
