"""web/ by feature (issue 38): route modules run no SQL, importing a module changes no
template global, turn-based play is wired in rather than set on the game service, and the
engine is reached through engine_port alone."""
from __future__ import annotations

import ast
import json
import re
import subprocess
import sys
from pathlib import Path

from pax_hispanica import web

WEB = Path(web.__file__).parent
SOURCES = sorted(p for p in WEB.rglob("*.py") if "migrations" not in p.parts)


def _rel(p: Path) -> str:
    return str(p.relative_to(WEB))


def test_the_features_are_packages_and_no_module_is_left_at_the_top():
    top = {p.name for p in WEB.glob("*.py")}
    assert top == {"__init__.py", "server.py", "settings.py", "engine_port.py", "templating.py"}, top
    for package in ("play", "accounts", "social", "notify", "present", "http", "db"):
        assert (WEB / package / "__init__.py").is_file(), package


# a template's name where another template extends, includes or imports it
TEMPLATE_REF = re.compile(r"""\{%-?\s*(?:extends|include|import|from)\s+["']([^"']+)["']""")


def _template_users() -> dict[str, set[str]]:
    """Template name -> the packages that use it: those with a module naming it (a string
    constant: a route's TemplateResponse, updates.py's get_template) or a template that extends,
    includes or imports it."""
    users: dict[str, set[str]] = {}
    for path in SOURCES:
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value.endswith(".html"):
                users.setdefault(node.value, set()).add(path.relative_to(WEB).parts[0])
    for path in WEB.glob("*/templates/*.html"):
        for name in TEMPLATE_REF.findall(path.read_text()):
            users.setdefault(name, set()).add(path.relative_to(WEB).parts[0])
    return users


def test_each_template_lives_in_the_package_that_renders_it():
    """Each package owns its pages' templates (issue 38): a template lives in the templates/
    folder of the one package that renders, extends or includes it; one that several packages
    use (base.html, the board's parts) lives in present/templates. No templates/ folder is left
    at the top of web/, every name is in one folder only, and the Jinja environment finds each."""
    from pax_hispanica.web.present import jinja_env

    assert not (WEB / "templates").exists()
    assert set(WEB.glob("*/templates")) == set(jinja_env.TEMPLATE_DIRS)
    where: dict[str, list[str]] = {}
    for path in WEB.glob("*/templates/*"):
        where.setdefault(path.name, []).append(path.relative_to(WEB).parts[0])
    assert len(where) >= 38
    assert {n: p for n, p in where.items() if len(p) != 1} == {}
    assert sorted(jinja_env.env.list_templates()) == sorted(where)
    users = _template_users()
    misplaced = {}
    for name, (package,) in where.items():
        used_by = users.get(name, set())
        owner = next(iter(used_by)) if len(used_by) == 1 else "present"
        if not used_by or package != owner:
            misplaced[name] = (package, sorted(used_by))
        jinja_env.env.get_template(name)          # parses, and what it extends or includes is found
    assert misplaced == {}, "name: (its package, the packages using it)"


def test_no_route_module_runs_sql():
    """SQL lives in each package's store or tables modules; a route calls a service."""
    routes = [p for p in SOURCES if p.name.endswith("routes.py")]
    assert len(routes) >= 6
    offences = []
    for path in routes:
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                names = [a.name for a in node.names] + ([node.module] if isinstance(node, ast.ImportFrom) else [])
                offences += [f"{_rel(path)}:{node.lineno} imports {n}" for n in names
                             if n and (n.split(".")[0] == "sqlalchemy" or n.endswith(".schema") or n == "schema")]
            elif isinstance(node, ast.Attribute) and node.attr == "execute":
                offences.append(f"{_rel(path)}:{node.lineno} executes a statement")
            elif (isinstance(node, ast.Attribute) and node.attr in ("read", "write")
                  and isinstance(node.value, ast.Attribute) and node.value.attr == "storage"):
                offences.append(f"{_rel(path)}:{node.lineno} opens the storage")
    assert offences == []


def test_importing_every_module_puts_nothing_on_the_templates():
    """Only templating.install (called by create_app) adds globals and filters: a fresh process
    that imports every module of web/ finds the Jinja environment as Jinja made it."""
    code = """
import json, pkgutil, importlib
import jinja2
import pax_hispanica.web as web
for m in pkgutil.walk_packages(web.__path__, "pax_hispanica.web."):
    if ".migrations" not in m.name:
        importlib.import_module(m.name)
from pax_hispanica.web.present.jinja_env import env
bare = jinja2.Environment(extensions=["jinja2.ext.i18n"])
print(json.dumps({"globals": sorted(set(env.globals) - set(bare.globals)),
                  "filters": sorted(set(env.filters) - set(bare.filters))}))
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120)
    assert json.loads(out.stdout.strip().splitlines()[-1]) == {"globals": [], "filters": []}


def test_create_app_installs_the_template_globals_and_hands_turn_based_play_to_the_site(tmp_path):
    from pax_hispanica.web.present.jinja_env import env
    from pax_hispanica.web.server import create_app

    app = create_app(f"sqlite:///{tmp_path / 'x.sqlite3'}", bot_delay=0)
    assert {"play_text", "mail_on", "BOT_KINDS", "card", "rule_link"} <= set(env.globals)
    assert {"compact_json", "utc"} <= set(env.filters)
    assert app.state.site.play is not None and app.state.site.play.svc is app.state.svc
    assert "play" not in vars(app.state.svc)      # nothing is set on the game service from outside


def test_only_engine_port_imports_the_engine_api():
    offences = []
    for path in SOURCES:
        if path.name == "engine_port.py":
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if (isinstance(node, ast.ImportFrom) and node.module in ("pax_hispanica", "pax_hispanica.api")) or (isinstance(node, ast.Import) and any(a.name == "pax_hispanica.api" for a in node.names)):
                offences.append(f"{_rel(path)}:{node.lineno}")
    assert offences == []
