"""Small helpers shared by the web tests."""
from __future__ import annotations


def first_legal(legal: list) -> dict:
    """A legal action from descriptors (range -> its minimum; choice -> first option that is not undo)."""
    for d in legal:
        if d["kind"] == "range":
            return {**d["action"], d["field"]: d["min"]}
        for o in d["options"]:
            if o.get("type") != "undo":
                return o
    raise AssertionError(f"no action in {legal}")
