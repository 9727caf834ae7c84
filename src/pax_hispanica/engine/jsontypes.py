"""Names for the JSON shapes the engine hands around (for type checkers and readers).

Each is a plain dict at run time, exactly what is saved and sent: the names say which
shape a function takes or gives (docs/api.md describes each shape's keys).
"""

from __future__ import annotations

from typing import Any, TypeAlias

Action: TypeAlias = dict[str, Any]
"""An action as a player sends it: {"seat": int, "type": str, ...its type's fields} (PRJ-7)."""

Event: TypeAlias = dict[str, Any]
"""A logged event: {"seq", "type", "rule", "page", ...its fields, "to" when addressed} (events.py)."""

Descriptor: TypeAlias = dict[str, Any]
"""What legal_actions gives: {"kind": "choice", "options": [...]} or {"kind": "range", "action",
"field", "min", "max"}, each with "decision" and "rule" (docs/api.md)."""

JsonDict: TypeAlias = dict[str, Any]
"""Any other JSON object: a view, a record, a saved state, a config."""
