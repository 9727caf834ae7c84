"""ISMCTS's opt-in root policies (issue 17, third round; docs/bots.md "What decides the root"):
`select=confident` plays the prior's action unless another root action's mean value beats it
by more than `z` standard errors, and `qnorm` rescales the root children's means to 0..1
inside UCB. Both change choices on real positions; neither is the default."""
from __future__ import annotations

import math
import sys
from pathlib import Path

import pytest

from pax_hispanica.bots import make_agent
from pax_hispanica.bots.ismcts import ISMCTSAgent, _Node, action_key

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_ismcts_pinned import ITERATIONS, positions


def _root(me: int, children: dict[str, list[float]]) -> tuple[_Node, dict[int, float], dict[str, _Node]]:
    """A root whose child k was visited once per value in children[k] (values for seat `me`)."""
    root = _Node(2)
    sq: dict[int, float] = {}
    nodes = {}
    for k, vals in children.items():
        c = _Node(2, {"type": k, "seat": me}, me)
        c.visits = c.avail = len(vals)
        c.reward[me] = math.fsum(vals)
        sq[id(c)] = math.fsum(v * v for v in vals)
        root.children[k] = nodes[k] = c
    return root, sq, nodes


def test_confident_overrides_the_prior_only_beyond_z_standard_errors():
    bot = ISMCTSAgent(1, select="confident", z=2.0, min_visits=3)
    bot._prior_key = "p"
    # the prior: mean 0.30, values 0.28/0.32 (sd 0.02); "x": mean 0.40 (sd 0.02), 4 visits each:
    # se of the difference sqrt(2 * 0.02**2 / 4) = 0.0141, so 0.10 is about 7 se: overridden
    root, bot._root_sq, _ = _root(0, {"p": [0.28, 0.32] * 2, "x": [0.38, 0.42] * 2, "y": [0.1, 0.1, 0.1]})
    assert bot._confident(root, ["p", "x", "y"], "p", 0) == "x"
    # the same means with a large spread (sd 0.2: se of the difference 0.141): 0.10 < 2 se, keep the prior
    root, bot._root_sq, _ = _root(0, {"p": [0.1, 0.5] * 2, "x": [0.2, 0.6] * 2})
    assert bot._confident(root, ["p", "x"], "x", 0) == "p"
    # an alternative below min_visits never overrides, however good its values
    root, bot._root_sq, _ = _root(0, {"p": [0.3, 0.3, 0.3], "x": [0.9, 0.9]})
    assert bot._confident(root, ["p", "x"], "p", 0) == "p"


def test_select_and_qnorm_are_checked_and_off_by_default():
    bot = make_agent("ismcts", 1)
    assert bot.select == "visits" and bot.qnorm is False
    assert make_agent("ismcts", 1, qnorm="1").qnorm is True
    with pytest.raises(ValueError):
        make_agent("ismcts", 1, select="best")


def test_the_root_policies_change_choices_on_real_positions():
    """On the pinned positions (tests/bots/test_ismcts_pinned.py) each policy chooses differently
    from the default at least once, and with an unreachable z `confident` plays the prior."""
    pos = positions()
    differ = {"confident": 0, "qnorm": 0}
    for i, (view, legal) in enumerate(pos):
        base = make_agent("ismcts", 1000 + i, iterations=ITERATIONS)
        default = base.decide(view, legal)
        conf = make_agent("ismcts", 1000 + i, iterations=ITERATIONS, select="confident", z=1.0)
        got = conf.decide(view, legal)
        differ["confident"] += got != default
        if got != conf.explain()["heuristic_choice"]:
            # an override: the played action's mean value is above the prior's
            values = {action_key(a["action"]): a["value"] for a in conf.explain()["alternatives"]}
            prior = values.get(conf._prior_key)
            if prior is not None:               # the prior was among the searched alternatives
                assert values.get(action_key(got), 1.0) > prior
        never = make_agent("ismcts", 1000 + i, iterations=ITERATIONS, select="confident", z=1e9)
        chosen = never.decide(view, legal)
        prior_key = never._prior_key
        root_has_prior = any(a["action"] is not None and action_key(a["action"]) == prior_key
                             for a in never.explain()["alternatives"])
        if root_has_prior:
            assert action_key(chosen) == prior_key
        q = make_agent("ismcts", 1000 + i, iterations=ITERATIONS, qnorm=1).decide(view, legal)
        differ["qnorm"] += q != default
    assert differ["confident"] >= 1 and differ["qnorm"] >= 1, differ
