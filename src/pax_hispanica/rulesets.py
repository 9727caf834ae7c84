"""Rulesets from disk: the one place that reads a ruleset folder's TOML files.

The engine reads no files (DESIGN.md: no I/O, clock or global random in `engine/`). This
module reads the files of a ruleset folder (a folder of `pax_hispanica/data`, named, or any
folder, by path), parses them and hands the tables to the engine's pure builder
(`engine.ruleset.build_ruleset`), which checks every one against its declared schema
(`engine.ruleset_schema`, published in data/schema/) and across files; a variant's
parameters (PRJ-31) go through `engine.ruleset.check_params` and `variant`. The result is
cached: a ruleset is read once per folder, a variant built once per (folder, parameters),
and a name is not looked up on disk again once loaded (states are rebuilt often: ISMCTS).

`load_ruleset` is what the api (`api.load_ruleset`) and the engine functions given a
resolver call; outer layers reach it through `pax_hispanica.api`.
"""

from __future__ import annotations

import tomllib
from functools import lru_cache
from pathlib import Path
from typing import Any

from .engine.ruleset import (
    FILE_NAMES,
    PARAMS,
    Ruleset,
    RulesetError,
    build_ruleset,
    check_params,
    parameter_names,
    parameter_types,
    variant,
)

__all__ = ["DATA", "FILE_NAMES", "PARAMS", "Ruleset", "RulesetError", "check_params", "folder_of", "load_ruleset",
           "parameter_names", "parameter_types", "read_files"]

DATA = Path(__file__).resolve().parent / "data"
Raw = dict[str, Any]


def load_ruleset(name: str = "reference", params: Raw | None = None) -> Ruleset:
    """Load a ruleset by name (a folder of pax_hispanica/data) or by path; loaded once per folder.

    ``params`` overrides some of its numbers by name (PRJ-31: a variant, as
    ``{"crown_colony_prestige": 1}``); they are checked against the schema."""
    if not params:
        return _by_name(name)      # no path lookup once loaded: states are rebuilt often (ISMCTS)
    if not isinstance(params, dict) or len(params) > len(parameter_types()):
        check_params(params)       # refused before anything is sorted or hashed
    try:
        key = tuple(sorted(params.items()))
        hash(key)
    except (AttributeError, TypeError):
        check_params(params)       # refuses what is not a table of names and plain values
        raise RulesetError("parameter overrides must be a table of name = value") from None
    return _variant_named(name, key)


def folder_of(name: str) -> Path:
    """The folder of a ruleset: a name is a folder of pax_hispanica/data, a path (with "/") itself."""
    return (Path(name) if "/" in name else DATA / name).resolve()


def read_files(folder: Path) -> dict[str, Raw]:
    """A ruleset folder's files, parsed: file name -> its table. A file that is missing is left
    out (the builder names it); one that is not TOML is refused here, naming it."""
    files: dict[str, Raw] = {}
    for fname in FILE_NAMES:
        try:
            with (folder / fname).open("rb") as f:
                files[fname] = tomllib.load(f)
        except FileNotFoundError:
            continue
        except tomllib.TOMLDecodeError as e:
            raise RulesetError(f"{fname}: not valid TOML: {e}") from None
    return files


@lru_cache(maxsize=64)
def _by_name(name: str) -> Ruleset:
    return _load_folder(folder_of(name))


@lru_cache(maxsize=64)
def _variant_named(name: str, items: tuple[tuple[str, Any], ...]) -> Ruleset:
    return _variant(folder_of(name), tuple(sorted(check_params(dict(items)).items())))


@lru_cache(maxsize=64)
def _variant(folder: Path, overrides: tuple[tuple[str, Any], ...]) -> Ruleset:
    return variant(_load_folder(folder), dict(overrides))


@lru_cache(maxsize=16)
def _load_folder(folder: Path) -> Ruleset:
    return build_ruleset(folder.name, read_files(folder))
