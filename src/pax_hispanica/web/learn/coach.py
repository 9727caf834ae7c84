"""The coach of a lesson: what the learner is told beside the board (learn/templates/_learn_coach.html).

At each of the learner's decisions: what it is, what matters, and hints for what this very
decision offers (an attack, Chests to load, Europe in reach); the legalities compared where a
legality matters (a play turn, a voyage). Every number comes from the game's ruleset through
`api.parameters` (a lesson is the reference game; a variant's numbers would show as theirs)."""
from __future__ import annotations

from functools import lru_cache
from typing import Any

from pax_hispanica.engine.vocab import decision_names
from pax_hispanica.web.engine_port import api
from pax_hispanica.web.learn.lessons import LEARNER, LESSONS, Lesson, Played, next_lesson, scenario
from pax_hispanica.web.present import legality
from pax_hispanica.web.present.i18n import Tr

# the decisions a lesson explains (api.decision_types()' names); any other is "your decision"
STEPS = decision_names()
# the action types that answer each (api.decision_types()' "actions"): a note for the same kind
# of decision as the learner's last move is folded, its hints for this very decision still shown
ANSWERS = {d["name"]: frozenset(d["actions"]) for d in api.decision_types()}


@lru_cache(maxsize=8)
def _numbers(ruleset: str = "reference") -> dict[str, Any]:
    p = api.parameters(ruleset, None, extended=True)
    return {k: v["value"] for k, v in p.items()}


def numbers(tr: Tr, ruleset: str = "reference") -> dict[str, Any]:
    """The numbers the notes quote, money written as the page's language writes it."""
    n = _numbers(ruleset)

    def money(x: int) -> str:
        return tr("money_amount", n=x)
    return {"employ": money(n["employ_cost"]), "income": money(n["colony_income"]), "death": n["slave_death"],
            "revolt": n["slave_revolt"], "zero": money(0), "per_prestige": money(n["money_per_prestige"]),
            "sell": money(n["sell_price"]), "limit": n["hand_limit"], "moves": n["fleet_moves"],
            "capacity": n["ship_capacity"], "cycles": n["cycles"]}


def lesson_title(lesson: Lesson, tr: Tr) -> str:
    return f"{LESSONS.index(lesson) + 1}. {tr(f'learn_lesson_{lesson.id}')}"


def lesson_info(lesson: Lesson, tr: Tr) -> dict[str, Any]:
    """What the lessons' list and a lesson's page say of it."""
    return {"id": lesson.id, "url": lesson.url, "act_url": f"{lesson.url}/act", "title": lesson_title(lesson, tr),
            "about": tr(f"learn_about_{lesson.id}"),
            "progress": tr("learn_lesson_n", n=LESSONS.index(lesson) + 1, total=len(LESSONS))}


def intro(lesson: Lesson, tr: Tr) -> str:
    """The lesson's setting, with the learner's money and hand limit as its scenario has them."""
    me = (scenario(lesson.id)["position"].get("players") or [{}] * (LEARNER + 1))[LEARNER]
    n = numbers(tr)
    return tr(f"learn_intro_{lesson.id}", money=tr("money_amount", n=me.get("money", 0)), limit=n["limit"])


# a voyage's hints: what this very step offers (an option's type, or a move into Europe)
VOYAGE_HINTS = (("attack", "learn_hint_attack"), ("load_chests", "learn_hint_load"), ("unload", "learn_hint_unload"))


def voyage_hints(options: list[dict[str, Any]], tr: Tr) -> list[str]:
    """The hints for a voyage step: an attack, Chests to load, a meeple to unload, Europe in reach."""
    types = {o.get("type") for o in options}
    hints = [tr(key, capacity=numbers(tr)["capacity"]) for t, key in VOYAGE_HINTS if t in types]
    if any(o.get("type") == "move" and o.get("to") == "europe" for o in options):
        hints.append(tr("learn_hint_europe"))
    return hints


def repeated(played: Played, kind: str) -> bool:
    """Whether the learner's last move answered the same kind of decision (its note is folded)."""
    mine = [a for a in played.actions if isinstance(a, dict) and a.get("seat") == LEARNER]
    return bool(mine) and mine[-1].get("type") in ANSWERS.get(kind, ())


def step(played: Played, tr: Tr) -> dict[str, Any] | None:
    """The note for the learner's decision now, or None when the learner has none."""
    if not played.learner_decides:
        return None
    state = played.game.state
    view = api.view(state, LEARNER, include_state=False)
    kind = str((view.get("decision") or {}).get("d") or "")
    mine = legality.of_seat(view, LEARNER)
    if kind not in STEPS:
        return {"kind": kind or "other", "repeat": False, "title": tr("learn_step_other"), "what": tr("learn_what_other"),
                "matters": "", "hints": [], "legalities": None, "mine": mine}
    legal = api.legal_actions(state, LEARNER)
    options = [o for d in legal if isinstance(d, dict) for o in d.get("options", []) if isinstance(o, dict)]
    # the legalities compared where one matters: a voyage, and a play turn whose action bar does
    # not already compare them beside a card that changes one (present/legality.offered)
    compare = kind == "voyage" or (kind == "play_turn" and not legality.offered(legal))
    fmt = {**numbers(tr), "legality": tr.word(mine) if mine else ""}
    return {"kind": kind, "repeat": repeated(played, kind), "title": tr(f"learn_step_{kind}"),
            "what": tr(f"learn_what_{kind}", **fmt), "matters": tr(f"learn_matters_{kind}", **fmt),
            "hints": voyage_hints(options, tr) if kind == "voyage" else [],
            "legalities": legality.of_view(view, tr) if compare else None, "mine": mine}


def coach(played: Played, tr: Tr) -> dict[str, Any]:
    """The coach's context for learn/templates/_learn_coach.html."""
    lesson = played.lesson
    done = played.done
    s = None if done else step(played, tr)
    nxt = next_lesson(lesson)
    n = numbers(tr)
    done_text = ""
    if done:
        # the game's end (the Sail lesson's, or any lesson played on): the final count
        done_text = (tr("learn_done_sail", per_prestige=n["per_prestige"], cycles=n["cycles"]) if played.over
                     else tr(f"learn_done_{lesson.id}"))
    return {"intro": intro(lesson, tr), "started": any(a.get("seat") == LEARNER for a in played.actions
                                                        if isinstance(a, dict)),
            "done": done, "over": played.over, "free": played.free, "done_text": done_text,
            "next": lesson_info(nxt, tr) if nxt else None,
            "step": s, "legalities": s["legalities"] if s else None, "mine": s["mine"] if s else None}
