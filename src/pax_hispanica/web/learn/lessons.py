"""The lessons of Learn to play (issue 38, "Teach the game"), and playing one.

A lesson is a scenario file (`pax_hispanica/data/lessons/*.json`, docs/scenarios.md): a
position in the last cycle of a three-player game at the start of one Year, the learner in
seat `LEARNER` (the English), the others played by the heuristic bot. It ends when its Year is
over (or with the game, for the Sail Year's lesson); the learner may then play the game on to
its end with the real rules, or go to the next lesson.

The game is not stored on the server. The page holds the actions taken so far and sends them
with each move (static/learn.js): `play` rebuilds the game from the scenario and those actions
(the engine checks every one), applies the learner's move, and lets the bots play until the
learner must decide or the lesson is over. The bots are seeded from the scenario's seed and
the game's action count (engine_port.make_bot), so the same moves give the same game: a
lesson replays, and its tests are deterministic."""
from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from pax_hispanica.web.engine_port import api, fallback_bot, make_bot

LEARNER = 1                 # the English, in every lesson's scenario
BOT_KIND = "heuristic"      # the others: the default bot, which plays quickly
MAX_ACTIONS = 400           # a lesson played to the end takes about 40; more is no lesson's
MAX_BOT_MOVES = 300         # per request: a game always reaches the learner or its end long before


@dataclass(frozen=True)
class Lesson:
    id: str           # "goods": the Year it teaches, and the keys of its texts (learn_lesson_goods ...)
    file: str         # its scenario, in pax_hispanica/data/lessons/
    year: str         # the engine's name of that Year

    @property
    def url(self) -> str:
        return f"/learn/{self.id}"


LESSONS: tuple[Lesson, ...] = (
    Lesson("goods", "1_goods.json", "goods"),
    Lesson("auction", "2_auction.json", "auction"),
    Lesson("play", "3_play.json", "play"),
    Lesson("sail", "4_sail.json", "sail"),
)
BY_ID = {lesson.id: lesson for lesson in LESSONS}


class LessonRefused(Exception):
    """A move the lesson does not take: `code` "lesson_lost" when the actions sent are not this
    lesson's game (the page starts it again), else the engine's refusal of the learner's move."""

    def __init__(self, code: str, message: str, rule: str | None = None) -> None:
        super().__init__(message)
        self.code, self.message, self.rule = code, message, rule


@cache
def scenario_text(lesson_id: str) -> str:
    """The lesson's scenario file, as shipped with the package."""
    lesson = BY_ID[lesson_id]
    return resources.files("pax_hispanica.data").joinpath("lessons").joinpath(lesson.file).read_text(encoding="utf-8")


def scenario(lesson_id: str) -> dict[str, Any]:
    ret: dict[str, Any] = json.loads(scenario_text(lesson_id))
    return ret


def next_lesson(lesson: Lesson) -> Lesson | None:
    i = LESSONS.index(lesson)
    return LESSONS[i + 1] if i + 1 < len(LESSONS) else None


@dataclass
class Played:
    lesson: Lesson
    game: Any                 # api.Game
    free: bool                # the lesson is over and the learner plays on with the real rules

    @property
    def actions(self) -> list[Any]:
        return list(self.game.record["actions"])

    @property
    def over(self) -> bool:
        return bool(api.is_over(self.game.state))

    @property
    def done(self) -> bool:
        """The lesson is over: its Year has ended (unless the learner plays on), or the game has."""
        return self.over or (not self.free and year_over(self.lesson, self.game.state))

    @property
    def learner_decides(self) -> bool:
        return not self.over and LEARNER in api.acting(self.game.state)


@cache
def _start(lesson_id: str) -> tuple[int | None, int]:
    """The lesson's cycle (None: the scenario's default) and seed."""
    sc = scenario(lesson_id)
    return sc.get("position", {}).get("cycle"), int(sc.get("seed", 0))


def year_over(lesson: Lesson, state: Any) -> bool:
    """Whether the lesson's Year is behind the game: another Year (or cycle) has begun."""
    cycle = _start(lesson.id)[0]
    v = api.view(state, None, include_state=False)
    return v.get("year") != lesson.year or (cycle is not None and v.get("cycle") != cycle)


def rebuild(lesson: Lesson, actions: Any) -> Any:
    """The lesson's game after `actions` (the page's list), or LessonRefused("lesson_lost")."""
    if not isinstance(actions, list) or len(actions) > MAX_ACTIONS:
        raise LessonRefused("lesson_lost", "not a lesson's list of actions")
    try:
        return api.from_scenario({**scenario(lesson.id), "actions": actions})
    except api.IllegalAction as e:
        raise LessonRefused("lesson_lost", f"the actions are not this lesson's game: {e.message}") from None


def bots_play(played: Played) -> None:
    """The bots' moves until the learner must decide, the lesson is over or the game ends. A
    sealed choice the learner shares with bots (a bid, a Battle Card) is theirs to make too."""
    game, seed = played.game, _start(played.lesson.id)[1]
    for _ in range(MAX_BOT_MOVES):
        if played.over or (not played.free and year_over(played.lesson, game.state)):
            return
        bots = [s for s in api.acting(game.state) if s != LEARNER]
        if not bots:
            return
        seat = bots[0]
        legal = api.legal_actions(game.state, seat)
        view = api.view(game.state, seat, include_state=False)
        try:
            action = make_bot(BOT_KIND, api.derived_seed(seed, f"bot|{seat}")).decide(view, legal)
            game.act(action)
        except Exception:   # a bot that fails: one seeded random legal move, as on a game's table
            action = fallback_bot(api.derived_seed(seed, f"fallback|{len(game.record['actions'])}")).decide(view, legal)
            game.act(action)


def play(lesson: Lesson, actions: Any, action: Any = None, free: bool = False) -> Played:
    """The lesson's game after the page's `actions`, the learner's `action` (None: none) and the
    bots' moves. An `action` the rules refuse, or one for another seat, is LessonRefused with
    the engine's code and rule; nothing else changes."""
    game = rebuild(lesson, actions)
    played = Played(lesson, game, bool(free))
    if action is not None:
        if not isinstance(action, dict) or action.get("seat") != LEARNER:
            raise LessonRefused("wrong_seat", "in a lesson you play the English seat only")
        if played.done:            # a move after the lesson's Year: the learner plays on, with the real rules
            played.free = True
        try:
            game.act(action)
        except api.IllegalAction as e:
            raise LessonRefused(e.code, e.message, e.rule) from None
    bots_play(played)
    return played
