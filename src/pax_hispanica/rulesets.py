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

PRJ-50: the version table. `data/versions.toml` names each earlier version of a ruleset that
is exactly a later one with some numbers changed (reference-2 = reference-3 with
prestige_to_win 25), and the versions that are refused, with the reason. A version name loads
like a folder name (`load_ruleset("reference-2")`), and `load_ruleset(name, params,
version=V)` loads the folder's version V (a record's `ruleset_version`): the base version
with the table's numbers, under the old name, with no variant parameters of its own, so a
game of V views, records and hashes exactly as the engine of V made them. Adding a version
is one entry of that file (docs/rules.md PRJ-50).
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from .engine.errors import short
from .engine.ruleset import (
    CARD_COST,
    FILE_NAMES,
    HOUSE_RULES,
    PARAMS,
    HouseRulesError,
    Ruleset,
    RulesetError,
    build_ruleset,
    card_cost_params,
    check_params,
    parameter_names,
    parameter_types,
    variant,
)

__all__ = [
    "CARD_COST",
    "DATA",
    "FILE_NAMES",
    "HOUSE_RULES_FILE",
    "PARAMS",
    "VERSIONS_FILE",
    "HouseRuleSet",
    "Ruleset",
    "RulesetError",
    "UnknownVersion",
    "Version",
    "card_cost_params",
    "check_params",
    "expand_house_rules",
    "folder_of",
    "house_rule_sets",
    "load_ruleset",
    "parameter_names",
    "parameter_types",
    "read_files",
    "version_list",
    "versions",
]

DATA = Path(__file__).resolve().parent / "data"
VERSIONS_FILE = DATA / "versions.toml"
HOUSE_RULES_FILE = "house_rules.toml"     # PRJ-83: a ruleset folder's named sets of house rules (optional)
Raw = dict[str, Any]


class UnknownVersion(RulesetError):
    """A ruleset version this loader does not build (refused, or unknown); the message says
    which versions there are (PRJ-50)."""


@dataclass(frozen=True)
class Version:
    """One ruleset version the loader knows (PRJ-50): a folder's current version (no params),
    an earlier one built from it (`params`: every number that differs from the folder's data,
    through the chain of bases), or a refused one (`refused`: why; `folder` None)."""

    name: str
    folder: str | None
    params: tuple[tuple[str, Any], ...] = ()
    base: str | None = None
    since: str | None = None
    refused: str | None = None

    @property
    def current(self) -> bool:
        return self.folder is not None and self.base is None


def load_ruleset(name: str = "reference", params: Raw | None = None, version: str | None = None) -> Ruleset:
    """Load a ruleset by name (a folder of pax_hispanica/data, or a version of one: PRJ-50) or
    by path; loaded once per folder.

    ``params`` overrides some of its numbers by name (PRJ-31: a variant, as
    ``{"crown_colony_prestige": 1}``); they are checked against the schema. ``version``: the
    version of that ruleset to load (a record's ``ruleset_version``, PRJ-50); a version the
    folder does not have raises UnknownVersion, naming those it has."""
    if version is not None:
        name = _pinned_name(name, str(version))
    if not params:
        return _by_name(name)      # no path lookup once loaded: states are rebuilt often (ISMCTS)
    if isinstance(params, dict) and HOUSE_RULES in params:
        params = _with_house_rules(name, params)
    if not isinstance(params, dict) or len(params) > len(parameter_types()):
        check_params(params)       # refused before anything is sorted or hashed
    try:
        # each value's type is part of the key: True == 1 and 3.0 == 3 hash alike, and must not
        # find the cached ruleset of a 1 or a 3 without check_params refusing them
        key = tuple(sorted((k, type(v), v) for k, v in params.items()))
        hash(key)
    except (AttributeError, TypeError):
        check_params(params)       # refuses what is not a table of names and plain values
        raise RulesetError("parameter overrides must be a table of name = value") from None
    return _variant_named(name, key)


# Folders outside pax_hispanica/data loaded by path in this process: their ruleset's name (the
# folder's name) -> the folders. A game's views and records carry only that name, so a bot that
# reloads the ruleset of the view it reads (`paxh simulate --ruleset /a/folder`) finds the folder
# by it; two loaded folders of one name are ambiguous and refused by name (folder_of).
_LOADED_BY_PATH: dict[str, set[Path]] = {}


def folder_of(name: str) -> Path:
    """The folder of a ruleset: a path (with "/") itself; a name, a folder of pax_hispanica/data,
    else the folder of that name this process loaded by path."""
    if "/" in name:
        return Path(name).resolve()
    here = (DATA / name).resolve()
    loaded = _LOADED_BY_PATH.get(name)
    if here.is_dir() or not loaded:
        return here
    if len(loaded) > 1:
        raise RulesetError(f"ruleset {name!r}: more than one folder of that name was loaded "
                           f"({', '.join(sorted(map(str, loaded)))}); load it by its path")
    return next(iter(loaded))


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


def _is_version_name(name: str) -> bool:
    """A name that is not a folder of pax_hispanica/data but a version of one (PRJ-50)."""
    return "/" not in name and not (DATA / name).is_dir() and name in versions()


@lru_cache(maxsize=64)
def _by_name(name: str) -> Ruleset:
    if _is_version_name(name):
        return _version(name)
    return _load_folder(folder_of(name))


@lru_cache(maxsize=64)
def _variant_named(name: str, items: tuple[tuple[str, type, Any], ...]) -> Ruleset:
    base: Path | str = name if _is_version_name(name) else folder_of(name)
    return _variant(base, tuple(sorted(check_params({k: v for k, _, v in items}).items())))


@lru_cache(maxsize=64)
def _variant(base: Path | str, overrides: tuple[tuple[str, Any], ...]) -> Ruleset:
    return variant(_load_folder(base) if isinstance(base, Path) else _version(base), dict(overrides))


# ---- PRJ-83: named sets of house rules -------------------------------------------------------

@dataclass(frozen=True)
class HouseRuleSet:
    """One named set of house rules of a ruleset folder (its house_rules.toml): the parameters
    it sets (PRJ-31's, checked), what it is, and the decision that made it."""

    name: str
    params: tuple[tuple[str, Any], ...]
    about: str
    since: str | None


def house_rule_sets(name: str = "reference") -> dict[str, HouseRuleSet]:
    """PRJ-83: the named sets of house rules of ruleset `name` (a folder, a path, or a version of
    one: its folder's), in the file's order; {} for a folder without house_rules.toml."""
    return _sets_of(_folder_for(name))


def _folder_for(name: str) -> Path:
    if _is_version_name(name):
        v = versions()[name]
        if v.folder is None:
            raise UnknownVersion(_unknown(name))
        return (DATA / v.folder).resolve()
    return folder_of(name)


@lru_cache(maxsize=16)
def _sets_of(folder: Path) -> dict[str, HouseRuleSet]:
    try:
        with (folder / HOUSE_RULES_FILE).open("rb") as f:
            table = tomllib.load(f)
    except FileNotFoundError:
        return {}
    except tomllib.TOMLDecodeError as e:
        raise RulesetError(f"{HOUSE_RULES_FILE}: not valid TOML: {e}") from None
    out = {}
    for set_name, entry in table.items():
        where = f"{HOUSE_RULES_FILE}: [{set_name}]"
        if (not isinstance(entry, dict) or not set(entry) <= {"about", "since", "params"}
                or not isinstance(entry.get("params"), dict) or not isinstance(entry.get("about", ""), str)):
            raise RulesetError(f"{where} takes params = a table of parameters, about and since (PRJ-83)")
        if HOUSE_RULES in entry["params"]:
            raise RulesetError(f"{where}: a set names parameters, not another set (PRJ-83)")
        try:
            params = check_params(dict(entry["params"]))
        except RulesetError as e:
            raise RulesetError(f"{where} params: {e}") from None
        since = entry.get("since")
        out[set_name] = HouseRuleSet(set_name, tuple(params.items()), " ".join(str(entry.get("about", "")).split()),
                                     since if isinstance(since, str) else None)
    return out


def expand_house_rules(name: str, params: Raw) -> Raw:
    """PRJ-83: a variant's parameters with its named set of house rules (if it names one)
    expanded: the set's parameters, the variant's own on top, `house_rules` kept."""
    return _with_house_rules(name, params) if HOUSE_RULES in params else dict(params)


def _with_house_rules(name: str, params: Raw) -> Raw:
    """PRJ-83: a variant that names a set of house rules, as the set's parameters with the
    variant's own on top (the set's name kept, so views and records name it); HouseRulesError
    for a name that is no set of the ruleset's, listing its sets."""
    chosen = params[HOUSE_RULES]
    sets = house_rule_sets(name)
    if not isinstance(chosen, str) or chosen not in sets:
        listed = "; ".join(f"{s.name} ({', '.join(f'{k}={v}' for k, v in s.params)})" for s in sets.values())
        raise HouseRulesError(f"{HOUSE_RULES} = {short(chosen)} is no set of house rules of ruleset {name[:60]} "
                              f"(PRJ-83); its sets: {listed or 'none'}")
    return {**dict(sets[chosen].params), **params}


# ---- PRJ-50: the version table --------------------------------------------------------------

@lru_cache(maxsize=16)
def _version(name: str) -> Ruleset:
    """An earlier version built from its folder's data with the table's numbers, under its own
    name; its variant parameters are none (a game's own `params` go on top, as before)."""
    v = versions().get(name)
    if v is None or v.folder is None:
        raise UnknownVersion(_unknown(name))
    base = _load_folder((DATA / v.folder).resolve())
    if not v.params:
        return base
    # An entry's number is the old version's at every player count, as a variant's is (PRJ-31):
    # it replaces the folder's [setup.by_players.N] value too (PRJ-85: reference-7's start_ships
    # was 1 at every count, reference-8's is 2 with 2 players)
    rs = variant(base, dict(v.params))
    rs.version = name
    rs.overrides = {}
    return rs


@lru_cache(maxsize=64)
def _pinned_name(name: str, version: str) -> str:
    """The name that loads ruleset `name` at `version`: `name` itself when that is its version,
    else the version's own name when the table builds it from the same folder."""
    if _by_name(name).version == version:
        return name
    v = versions().get(version)
    if v is not None and v.folder is not None and "/" not in name:
        folder = versions()[name].folder if _is_version_name(name) else name
        if folder_of(folder or "") == (DATA / v.folder).resolve():
            return version
    raise UnknownVersion(_unknown(version, name))


def _unknown(version: str, name: str | None = None) -> str:
    v = versions().get(version)
    shown = version[:40]
    if v is not None and v.refused:
        head = f"ruleset version {shown} is refused: it is {v.refused}"
    elif name is not None and v is not None:
        head = f"ruleset {name[:60]} has no version {shown} (that is a version of {v.folder})"
    elif name is not None:
        head = f"ruleset {name[:60]} has no version {shown}"
    else:
        head = f"no ruleset version {shown}"
    return f"{head}; the versions this engine plays: {version_list()} (PRJ-50)"


def version_list() -> str:
    """The versions the loader builds and those it refuses, in words (for error messages)."""
    table = versions()
    vs = table.values()

    def own(v: Version) -> str:   # the numbers that differ from its base's, not the whole chain's
        base = dict(table[v.base].params) if v.base in table else {}
        return ", ".join(f"{k}={val}" for k, val in v.params if k not in base or base[k] != val)

    playable = [f"{v.name} (current, ruleset {v.folder})" if v.current else f"{v.name} ({v.base} with {own(v)})"
                for v in vs if v.folder is not None]
    refused = [v.name for v in vs if v.refused]
    return ", ".join(playable) + (f"; refused: {', '.join(refused)}" if refused else "")


@lru_cache(maxsize=1)
def versions() -> dict[str, Version]:
    """Every ruleset version the loader knows: each folder's current one (its ruleset.toml's
    `version`), then data/versions.toml's entries, each resolved to its folder and every
    number that differs from it (through its chain of bases). Checked: a base that exists,
    no loop, parameters the schema knows (check_params), a refusal's reason."""
    out: dict[str, Version] = {}
    for folder in sorted(DATA.iterdir()):
        try:
            with (folder / "ruleset.toml").open("rb") as f:
                name = tomllib.load(f).get("version")
        except (FileNotFoundError, NotADirectoryError, tomllib.TOMLDecodeError):
            continue
        if isinstance(name, str):
            out[name] = Version(name, folder.name)
    with VERSIONS_FILE.open("rb") as f:
        table = tomllib.load(f)
    return _resolve_table(table, out)


def _resolve_table(table: Raw, current: dict[str, Version]) -> dict[str, Version]:
    fname = VERSIONS_FILE.name
    out = dict(current)
    for name, entry in table.items():
        if name in out:
            raise RulesetError(f"{fname}: [{name}] is a folder's current version; an entry names an earlier one")
        if not isinstance(entry, dict) or not set(entry) <= {"base", "params", "since", "refused"}:
            raise RulesetError(f"{fname}: [{name}] takes base, params and since, or refused")
        if "refused" in entry and (set(entry) != {"refused"} or not isinstance(entry["refused"], str)
                                   or not entry["refused"]):
            raise RulesetError(f"{fname}: [{name}] refused is the reason alone, a string")

    def resolve(name: str, seen: tuple[str, ...]) -> Version:
        if name in out:
            return out[name]
        entry = table.get(name)
        if entry is None:
            raise RulesetError(f"{fname}: [{seen[-1]}] base {name!r} is no version: neither a folder's "
                               f"current one nor an entry")
        if name in seen:
            raise RulesetError(f"{fname}: [{name}] is its own base (through {' -> '.join(seen)})")
        if "refused" in entry:
            if seen:
                raise RulesetError(f"{fname}: [{seen[-1]}] base {name!r} is refused")
            out[name] = Version(name, None, refused=" ".join(entry["refused"].split()))
            return out[name]
        if not isinstance(entry.get("base"), str) or not isinstance(entry.get("params", {}), dict):
            raise RulesetError(f"{fname}: [{name}] needs base = a version, and params = a table")
        try:
            own = check_params(dict(entry.get("params", {})))
        except RulesetError as e:
            raise RulesetError(f"{fname}: [{name}] params: {e}") from None
        base = resolve(entry["base"], (*seen, name))
        params = dict(base.params)
        params.update(own)
        since = entry.get("since")
        out[name] = Version(name, base.folder, tuple(sorted(params.items())), entry["base"],
                            since if isinstance(since, str) else None)
        return out[name]

    for name in table:
        resolve(name, ())
    return out


@lru_cache(maxsize=16)
def _load_folder(folder: Path) -> Ruleset:
    try:
        ruleset = build_ruleset(folder.name, read_files(folder))
    except RulesetError as e:
        if "missing key(s)" not in str(e) or folder.parent == DATA.resolve():
            raise
        # a designer's copy of an earlier version lacks the numbers added since (PRJ-31)
        raise RulesetError(f"{e}; a ruleset folder copied from an earlier version lacks the numbers "
                           f"added since: copy them from {DATA / 'reference' / 'ruleset.toml'} "
                           f"(`paxh rules --params` lists every number with its default and range)") from None
    if folder != (DATA / folder.name).resolve():
        same_name = _LOADED_BY_PATH.setdefault(folder.name, set())
        if same_name and folder not in same_name:      # the name no longer names one folder
            _by_name.cache_clear()
            _variant_named.cache_clear()
        same_name.add(folder)
    return ruleset
