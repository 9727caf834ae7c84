"""The uniformly random bot: every concrete legal action (undo excluded) is
equally likely. It draws an index and builds only that action, so a decision
costs the same whatever a bid range's width (the same draws as listing them all)."""
from __future__ import annotations

from .base import Action, BaseAgent, Descriptor, count_actions, nth_action, playable


class RandomAgent(BaseAgent):
    kind = "random"
    reads_view = False          # chooses from `legal` alone: paxh simulate passes view=None

    def decide(self, view: dict | None, legal: list[Descriptor]) -> Action:
        legal = playable(legal)
        n = count_actions(legal)
        if not n:
            raise ValueError("decide() called with no legal action")
        action = nth_action(legal, self.rng.randrange(n))
        self._explanation = {
            "bot": self.kind,
            "rule_of_thumb": "uniformly random",
            "choices": n,
        }
        return action
