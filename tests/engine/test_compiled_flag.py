"""api.COMPILED and `paxh --version` say which engine is loaded (issue 13, README "Installing"):
the pure-Python one (the default install) or the mypyc-compiled one (PAXH_COMPILE=1). Checked
against how Python actually loaded the engine's modules, so it holds in both runs (the default
suite is pure; scripts/test_compiled.sh runs tests/engine compiled)."""

from __future__ import annotations

import importlib
import importlib.machinery

from typer.testing import CliRunner

from pax_hispanica import __version__, api, cli
from pax_hispanica.engine import contexts, core, ruleset

# setup.py's compiled modules, as module names (api.py and the engine less its left-outs)
COMPILED_MODULES = ["pax_hispanica.api", "pax_hispanica.engine.core", "pax_hispanica.engine.state",
                    "pax_hispanica.engine.flow", "pax_hispanica.engine.decisions", "pax_hispanica.engine.view",
                    "pax_hispanica.engine.years.auction"]


def _is_extension(module) -> bool:
    return isinstance(module.__spec__.loader, importlib.machinery.ExtensionFileLoader)


def test_api_COMPILED_says_whether_the_engine_was_loaded_from_extensions():
    loaded = [_is_extension(importlib.import_module(m)) for m in COMPILED_MODULES]
    assert type(api.COMPILED) is bool
    assert loaded == [api.COMPILED] * len(loaded)          # all compiled, or none
    assert not _is_extension(contexts) and not _is_extension(ruleset)   # left out of the build, always Python
    assert _is_extension(core) == api.COMPILED


def test_paxh_version_names_the_version_and_the_engine_loaded():
    r = CliRunner().invoke(cli.app, ["--version"])
    assert r.exit_code == 0, r.output
    engine = "compiled engine (mypyc)" if api.COMPILED else "pure-Python engine"
    assert r.output == f"paxh {__version__}, {engine}\n"
