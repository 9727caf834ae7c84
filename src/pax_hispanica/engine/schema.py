"""Declared schemas of the data files: the shared base, error translation, and the JSON Schemas.

The ruleset files (`ruleset_schema`) and scenario files (`scenario_schema`) are pydantic v2
models. A model checks a file's *shape* (known keys, required keys, types, fixed vocabularies);
what needs two files or the game (a zone a sea names, a card a hand holds) stays in the loader.

A pydantic error location is a path such as ``("card", 3, "effects", 0, "gain_galleon", "m")``;
`first_problem` turns the first one into the project's style, naming the file, the entry and
the key: ``market.toml: card galeon effect gain_galleon: unknown key(s) ['m']``. Each file
brings its own `Namer`, which knows how that file names its entries.

`rendered` gives the published JSON Schemas' text; ``python -m pax_hispanica.schemas --write``
writes them to ``data/schema/`` (the engine writes no files; a test checks that they are up
to date); ``--check`` only compares.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any

from pydantic import BaseModel, ConfigDict, ValidationError

Loc = tuple[int | str, ...]
# (raw data, location) -> (entry name, the rest of the location: the key path inside it)
Namer = Callable[[Any, Loc], tuple[str, Loc]]

class Shape(BaseModel):
    """A table with a fixed set of keys: an unknown key is an error, never ignored."""
    model_config = ConfigDict(extra="forbid", frozen=True)


def _expected(err: dict[str, Any]) -> str:
    ctx = err.get("ctx") or {}
    kind = err["type"]
    if kind == "int_type":
        return "must be int"
    if kind == "string_type":
        return "must be str"
    if kind == "bool_type":
        return "must be true or false"
    if kind in ("list_type", "tuple_type"):
        return "must be a list"
    if kind in ("dict_type", "model_type", "model_attributes_type"):
        return "must be a table"
    if kind == "greater_than_equal":
        return f"must be a whole number of at least {ctx['ge']}"
    if kind == "less_than_equal":
        return f"must be a whole number of at most {ctx['le']}"
    if kind == "literal_error":
        return f"must be {ctx['expected']}, not {_short(err.get('input'))}"
    return str(err["msg"]).lower()


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _of_keys(err: dict[str, Any]) -> bool:
    """An unknown or missing key of a table (a list's missing place is no key: `[1]` where
    `[least, most]` is asked for is worded as what the list must be)."""
    return err["type"] == "extra_forbidden" or (err["type"] == "missing" and isinstance(err["loc"][-1], str))


def _group(errors: Sequence[Any]) -> tuple[Loc, list[Any]]:
    """The first error's entry (its parent location) and every error of that entry."""
    first = errors[0]
    if not _of_keys(first):
        return tuple(first["loc"]), [first]
    parent = tuple(first["loc"][:-1])
    return parent, [e for e in errors if tuple(e["loc"][:-1]) == parent and _of_keys(e)]


def first_problem(fname: str, raw: Any, error: ValidationError, namer: Namer,
                  special: Callable[[dict[str, Any], str], str | None] | None = None) -> str:
    """The first problem of a validation error, as "<file>: <entry>: <what is wrong>".

    Unknown keys of an entry are reported before its missing keys, all at once, as the
    hand-written checks did. `special` may word a problem better: it returns the message after the file name."""
    errors = error.errors(include_url=False)
    loc, group = _group(errors)
    entry, rest = namer(raw, tuple(_cut(x) for x in loc))
    where = " ".join(str(x) for x in (entry, *rest) if x != "")
    kinds = {e["type"] for e in group if _of_keys(e)}
    if "extra_forbidden" in kinds:
        keys = sorted(_cut(str(e["loc"][-1])) for e in group if e["type"] == "extra_forbidden")
        return _join(fname, where, f"unknown key(s) {keys}")
    if "missing" in kinds:
        keys = sorted(str(e["loc"][-1]) for e in group if e["type"] == "missing")
        return _join(fname, where, f"missing key(s) {keys}")
    err = group[0]
    worded = special(err, entry) if special else None
    if worded:
        return f"{fname}: {worded}"
    key = ".".join(str(x) for x in rest)
    return _join(fname, entry, f"{key} {_expected(err)}" if key else _expected(err))


def _cut(part: Any, limit: int = 40) -> Any:
    """A key of the data as a refusal names it: a long one cut (PRJ-7: a refusal never copies
    what it was sent in full); numbers as they are."""
    return part[:limit - 3] + "..." if isinstance(part, str) and len(part) > limit else part


def _join(fname: str, where: str, what: str) -> str:
    return f"{fname}: {where}: {what}" if where else f"{fname}: {what}"


def item(raw: Any, path: Loc) -> Any:
    """The raw value at a location, or None where the data has no such place."""
    for step in path:
        try:
            raw = raw[step]
        except (KeyError, IndexError, TypeError):
            return None
    return raw


# ---- the published JSON Schemas -------------------------------------------------------------

def schemas() -> dict[str, dict[str, Any]]:
    """File name in data/schema -> its JSON Schema, generated from the models."""
    from .ruleset_schema import FILES
    from .scenario_schema import SCENARIO
    out = {f"{name.removesuffix('.toml')}.schema.json": _titled(model.model_json_schema(), name)
           for name, model in FILES.items()}
    out["scenario.schema.json"] = _titled(SCENARIO.json_schema(), "a scenario file (docs/scenarios.md)")
    return out


def _titled(schema: dict[str, Any], what: str) -> dict[str, Any]:
    return {"$schema": "https://json-schema.org/draft/2020-12/schema",
            "$comment": f"Generated by `python -m pax_hispanica.schemas --write`: {what}. Do not edit.",
            **schema}


def rendered() -> dict[str, str]:
    return {name: json.dumps(s, indent=2, ensure_ascii=False, sort_keys=True) + "\n" for name, s in schemas().items()}
