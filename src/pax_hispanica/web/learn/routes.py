"""Learn to play's pages (issue 38, "Teach the game"): the lessons' list (`/learn`), a lesson
(`/learn/<lesson>`: the game page's board, with the coach beside it) and its moves (`POST
/learn/<lesson>/act`, from static/learn.js: the actions so far, the learner's move; answered
with the board as the game's socket sends it, the coach and the actions now taken). Nothing is
stored: a lesson's game is its scenario and the actions the page holds (learn/lessons.py)."""
from __future__ import annotations

import asyncio
import hashlib
import json
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, JSONResponse, Response
from markupsafe import Markup

from pax_hispanica.web.http.security import parse_json
from pax_hispanica.web.http.site import FormVisit, PageVisit, client_address, error_response
from pax_hispanica.web.learn import coach as coaching
from pax_hispanica.web.learn.lessons import BOT_KIND, BY_ID, LEARNER, LESSONS, LessonRefused, Played, play, scenario
from pax_hispanica.web.play.model import LiveGame, Seat, ServerError
from pax_hispanica.web.present import jinja_env
from pax_hispanica.web.present.i18n import LANGS, Tr
from pax_hispanica.web.present.page_context import translator
from pax_hispanica.web.present.updates import html_update

router = APIRouter()


def live_game(played: Played) -> LiveGame:
    """The lesson's game as the board's renderer takes a game: the learner's seat a person's,
    the others bots'. Its id names this very position (the renderer caches by id and version)."""
    game = played.game
    actions = json.dumps(played.actions, sort_keys=True, separators=(",", ":"))
    digest = hashlib.sha256(f"{played.lesson.id}|{actions}".encode()).hexdigest()[:16]
    n = int(game.record["config"].get("players", 3))
    seats = [Seat(i, "human" if i == LEARNER else "bot", None if i == LEARNER else BOT_KIND, None, "", "", None)
             for i in range(n)]
    return LiveGame(f"learn-{played.lesson.id}-{digest}", game.record, int(scenario(played.lesson.id).get("seed", 0)),
                    "online", "", "", None, seats, game.state, list(game.events))


def render(played: Played, lang: str) -> dict[str, Any]:
    """The board (an update as the game's socket sends it), the coach's HTML and the page's
    translator, for one position of a lesson."""
    live = live_game(played)
    update = {k: v for k, v in html_update(live, LEARNER, None, "seat", lang).items() if not k.startswith("_")}
    tr = translator(live, lang)
    info = coaching.lesson_info(played.lesson, tr)
    html = jinja_env.env.get_template("_learn_coach.html").render(t=tr, lang=lang, lesson=info,
                                                                  coach=coaching.coach(played, tr))
    return {"update": update, "coach": html, "tr": tr, "lesson": info}


@router.get("/learn", response_class=HTMLResponse)
async def learn_index(request: Request, v: PageVisit) -> Response:
    s, user = v.site, v.user
    tr = Tr(user["lang"])
    return s.page(request, user, "learn.html", lessons=[coaching.lesson_info(lesson, tr) for lesson in LESSONS])


@router.get("/learn/{lesson_id}", response_class=HTMLResponse)
async def learn_lesson(request: Request, lesson_id: str, v: PageVisit) -> Response:
    s, user = v.site, v.user
    lesson = BY_ID.get(lesson_id)
    if lesson is None:
        return s.message(request, user, 404, "not_found")
    played = await asyncio.to_thread(play, lesson, [], None)
    out = await asyncio.to_thread(render, played, user["lang"])
    return s.page(request, user, "learn_lesson.html", tr=out["tr"], lesson=out["lesson"], update=out["update"],
                  coach=Markup(out["coach"]), actions=played.actions, free=played.free, done=played.done)


@router.post("/learn/{lesson_id}/act")
async def learn_act(request: Request, lesson_id: str, v: FormVisit) -> Response:
    """{actions, action, free, lang} -> {update, coach, actions, free, done, over}; a refusal is the
    API's error envelope (the engine's code and rule for a move the rules refuse)."""
    try:
        lesson = BY_ID.get(lesson_id)
        if lesson is None:
            raise ServerError("not_found", "no such lesson", status=404)
        v.site.limits.check("act", client_address(request))       # a move costs a replay: as a game's
        body = parse_json(await request.body())
        if not isinstance(body, dict):
            raise ServerError("malformed", "a lesson's move is a JSON object")
    except ServerError as e:
        return error_response(e)
    lang = str(body.get("lang")) if body.get("lang") in LANGS else v.user["lang"]
    try:
        played = await asyncio.to_thread(play, lesson, body.get("actions"), body.get("action"), bool(body.get("free")))
    except LessonRefused as e:
        return JSONResponse({"error": {"code": e.code, "rule": e.rule, "message": e.message}},
                            status_code=409 if e.code == "lesson_lost" else 422)
    out = await asyncio.to_thread(render, played, lang)
    return JSONResponse({"type": "lesson", "update": out["update"], "coach": out["coach"], "actions": played.actions,
                         "free": played.free, "done": played.done, "over": played.over})
