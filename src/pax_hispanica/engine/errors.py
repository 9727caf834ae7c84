"""The one error the engine raises for a refused action."""

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

    def to_dict(self) -> dict:
        return {"code": self.code, "rule": self.rule, "page": self.page, "message": self.message}
