"""The SVG map, drawn from the map part of a view (placeholder until the
engine's map data is known)."""
from __future__ import annotations

from typing import Any

from .i18n import Tr

MAP_KEYS = frozenset({"map", "board", "zones"})


def render(view: Any, clickable: dict[str, str], tr: Tr) -> str:
    return ""
