"""The one error the engine raises for a refused action."""

from __future__ import annotations

from .rules import RULES


class IllegalAction(Exception):
    """An action the rules refuse. The state it was applied to is unchanged.

    `code` is stable (for programs), `rule` is the rule ID that refuses it, and
    `message` is for people.
    """

    def __init__(self, code: str, rule: str, message: str):
        assert rule in RULES, rule
        self.code = code
        self.rule = rule
        self.page = RULES[rule][0]
        self.message = message
        super().__init__(f"[{code}] {message} ({rule}, {self.page})")

    def to_dict(self) -> dict[str, str]:
        return {"code": self.code, "rule": self.rule, "page": self.page, "message": self.message}


def short(value: object, limit: int = 40) -> str:
    """A value as shown in a refusal: never longer than `limit`, whatever it is (PRJ-7, PRJ-31)."""
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10 ** limit:
        return f"<a {value.bit_length()}-bit number>"          # str() of a huge int is refused by Python
    if isinstance(value, str):
        value = value[:limit]                                   # never copy a huge string to show it
    try:
        text = repr(value) if isinstance(value, (str, int, float, bool, type(None))) else f"<{type(value).__name__}>"
    except Exception:                                           # any repr failure
        text = "<value>"
    return text if len(text) <= limit else text[:limit - 3] + "..."
