"""The uniformly random bot: every concrete legal action (undo excluded) is
equally likely. It draws an index and builds only that action, so a decision
costs the same whatever a bid range's width (the same draws as listing them all).
With `private` (the web server's and `paxh play`'s bots) each draw comes from the decision's
own keyed PRNG (BaseAgent.decision_rng), not from one stream that restarts on a reload."""
from __future__ import annotations

from .base import Action, BaseAgent, Descriptor, count_actions, nth_action, playable
from typing import Any


class RandomAgent(BaseAgent):
    kind = "random"
    reads_view = False          # chooses from `legal` alone: paxh simulate passes view=None

    def decide(self, view: dict[str, Any] | None, legal: list[Descriptor]) -> Action:
        legal = playable(legal)
        n = count_actions(legal)
        if not n:
            raise ValueError("decide() called with no legal action")
        # private: keyed by the seed and the game's action count (decision_rng), so a reloaded
        # game does not repeat the stream it started with (issue 37, N11)
        action = nth_action(legal, self.decision_rng(view).randrange(n))
        self._explanation = {
            "bot": self.kind,
            "rule_of_thumb": "uniformly random",
            "choices": n,
        }
        return action
