"""The uniformly random bot: every concrete legal action (undo excluded) is
equally likely."""
from __future__ import annotations

from .base import Action, BaseAgent, Descriptor


class RandomAgent(BaseAgent):
    kind = "random"

    def decide(self, view: dict, legal: list[Descriptor]) -> Action:
        actions = self.expand(legal)
        if not actions:
            raise ValueError("decide() called with no legal action")
        action = actions[self.rng.randrange(len(actions))]
        self._explanation = {
            "bot": self.kind,
            "rule_of_thumb": "uniformly random",
            "choices": len(actions),
        }
        return action
