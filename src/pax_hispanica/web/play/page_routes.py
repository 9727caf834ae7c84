"""The HTML pages: lobby and its form, host, play/watch, replay, rules; favicon and health."""
from __future__ import annotations

import asyncio
import re
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from pax_hispanica.web.accounts import game_rows
from pax_hispanica.web.engine_port import DEFAULT_BOT
from pax_hispanica.web.http import security
from pax_hispanica.web.http.ratelimit import RateLimited
from pax_hispanica.web.http.site import (
    FormVisit,
    PageVisit,
    Site,
    Visit,
    client_address,
)
from pax_hispanica.web.play.model import LiveGame, ServerError
from pax_hispanica.web.play.turn_based import form_table
from pax_hispanica.web.play.lobby_page import lobby_refusal
from pax_hispanica.web.play.variants import variant_of_form, variant_refusal
from pax_hispanica.web.present import page_context, replay, updates
from pax_hispanica.web.learn.guide import guide as rules_guide
from pax_hispanica.web.present.i18n import Tr, rule_pages
from pax_hispanica.web.present.pace import is_turn_based, pace_words
from pax_hispanica.web.present.info import playable_version, rule_titles, win_condition
from pax_hispanica.web.social.lobby import lobby_tables

router = APIRouter()


def form_seats(form: dict[str, Any], players: int) -> tuple[list[dict[str, Any]], list[str | None] | None]:
    """The lobby form's seats and nations: a seat left on "random" is None (the server draws it
    from the nations nobody chose); None for all of them when no seat chose one."""
    seats, nations = [], []
    for i in range(players):
        kind = str(form.get(f"kind{i}", "human"))
        seats.append({"kind": kind if kind in ("human", "bot") else "human",
                      "bot_kind": str(form.get(f"bot{i}", DEFAULT_BOT)) if kind == "bot" else None,
                      "bot_strength": int(str(form.get(f"strength{i}", "2"))) if kind == "bot" else None,
                      "name": re.sub(r"[\x00-\x1f\x7f]", "", str(form.get(f"name{i}", "")))[:40]})
        nations.append(str(form.get(f"nation{i}", "")) or None)
    named = [n for n in nations if n]
    if len(set(named)) != len(named):
        raise ServerError("nation_twice", "each nation plays one seat only: choose different nations, or leave "
                                          "seats on random")
    return seats, nations if any(nations) else None


@router.get("/", response_class=HTMLResponse)
async def lobby(request: Request, v: PageVisit) -> Response:
    s, user = v.site, v.user
    games = await s.svc.games_of(user["id"])
    await game_rows.describe(s.svc.storage, user["id"], games)
    return s.page(request, user, "lobby.html", games=games, csrf=s.csrf_token(user), **await lobby_tables(s, user))


# the form's own refusals, worded in the catalogue (`err_<code>`); the others' messages say more
# than their code's generic words (a variant's names the number and its range)
FORM_REFUSALS = frozenset({"nation_twice"})


def _refusal_text(e: Exception, tr: Tr) -> str:
    """Why the new-game form was refused, in the user's language where the catalogue has it."""
    if isinstance(e, ServerError):
        text = (tr.text("ui", "err_" + e.code) if e.code in FORM_REFUSALS else None) or e.message
    else:
        text = str(e)
    if "`paxh " in text:          # the engine's pointer to a command: the page points to its own list
        text = text.split("; `paxh ")[0].rstrip(".") + ". " + tr("variant_see_list")
    return text


@router.post("/games")
async def create_from_form(request: Request, v: FormVisit) -> Response:
    s, user = v.site, v.user
    # another site's page cannot post this form for the user: its Origin is foreign, and it
    # cannot know the token (an HMAC of the user id, which sits in an HttpOnly cookie)
    if security.foreign_origin(request.scope, security.allowed_origins()) is not None:
        return await lobby_refusal(s, request, user, 403, "cross_origin")
    try:
        form = await request.form()
    except Exception:
        return await lobby_refusal(s, request, user, 400, "bad_request")
    if not s.csrf_ok(user, form.get("csrf")):
        return await lobby_refusal(s, request, user, 403, "csrf_refused")
    try:
        s.limits.check("create", client_address(request))
    except RateLimited as e:
        return await lobby_refusal(s, request, user, 429, "rate_limited", {"Retry-After": str(e.retry_after)}, form=form)
    try:
        players = int(str(form.get("players", "0")))
        if not 2 <= players <= 5:
            raise ServerError("malformed", "a game has 2 to 5 players")
        seats, chosen = form_seats(form, players)  # type: ignore[arg-type]
        mode = str(form.get("mode", "online"))
        params = variant_of_form(form)
        if (why := variant_refusal(params, Tr(user["lang"]))) is not None:
            return await lobby_refusal(s, request, user, 400, "bad_request", text=why, form=form)
        live = await s.svc.create_game(players, seats, chosen, mode=mode, host_user=user["id"], params=params,
                                       table=form_table(form))
    except (ValueError, ServerError) as e:
        return await lobby_refusal(s, request, user, 400, "bad_request", text=_refusal_text(e, Tr(user["lang"])),
                                  form=form)
    # the creator lands in their seat (online, first seat a person's) or, hot-seat, at the table
    # everyone plays at; the links one click away
    first = live.seats[0] if live.seats else None
    if live.mode == "hotseat":
        target = f"/play/{live.host_token}"
    elif live.mode == "online" and first is not None and first.kind == "human" and first.user_id == user["id"]:
        target = f"/play/{first.token}"
    else:
        target = f"/host/{live.host_token}"
    return s.remember_user(request, RedirectResponse(target, status_code=303), user)


@router.get("/host/{token}", response_class=HTMLResponse)
async def host_page(request: Request, v: PageVisit, token: str) -> Response:
    s, user = v.site, v.user
    rights = await v.rights(token, roles=("host", "table"))
    live = await s.svc.get(rights.game_id)
    tr = page_context.translator(live, user["lang"])
    return s.page(request, user, "host.html", tr=tr, live=live, base=str(request.base_url).rstrip("/"),
                  names=page_context.seat_names(live, user["lang"]))


@router.get("/play/{token}", response_class=HTMLResponse)
async def play_page(request: Request, v: PageVisit, token: str) -> Response:
    return await game_page(request, v, token)


@router.get("/watch/{token}", response_class=HTMLResponse)
async def watch_page(request: Request, v: PageVisit, token: str) -> Response:
    return await game_page(request, v, token)


async def game_page(request: Request, v: Visit, token: str) -> Response:
    s, user = v.site, v.user
    rights = await v.rights(token)
    svc = s.svc
    await svc.claim_seat(rights, user["id"])
    live = await svc.get(rights.game_id)
    if live.hint is None and not live.over:   # a new game: whether its action bar offers the Hint
        await request.app.state.hints.check(live)
    await svc.refresh_presence(live)
    seat = next(iter(rights.seats)) if rights.role == "seat" else None
    waiting = page_context.next_human(live, rights.seats) if rights.role == "table" else None
    rules = await s.play.clocks.rules(live.id) if s.play is not None else None
    # a turn-based game's seat opens on everything since it last acted (issue 38)
    update = updates.html_update(live, seat, waiting, rights.role, user["lang"], digest=is_turn_based(rules))
    tr = page_context.translator(live, user["lang"])
    svc.kick_bots(live)
    host_token = live.host_token if live.host_user is not None and live.host_user == user["id"] else None
    return s.page(request, user, "game.html", tr=tr, live=live, token=token, role=rights.role, seat=seat,
                  update=update, host_token=host_token, pace=pace_words(rules, tr),
                  **await _after_the_game(s, live, user, rights.role))


async def _after_the_game(s: Site, live: LiveGame, user: dict[str, Any], role: str) -> dict[str, Any]:
    """A finished game's way on (issue 38): its rematch table, or the Rematch button for a
    player of it with an account (the same seats: social.tables.Tables.rematch), and the table
    it was played from."""
    if not live.over or s.tables is None:
        return {}
    mine = role == "seat" and bool(user.get("account")) and any(x.user_id == user["id"] for x in live.seats)
    return {"rematch_id": await s.tables.rematch_of(live.id), "table_id": await s.tables.table_of(live.id),
            "can_rematch": mine, "csrf": s.csrf_token(user)}


@router.get("/replay/{token}", response_class=HTMLResponse)
async def replay_page(request: Request, v: PageVisit, token: str, step: str | None = None,
                      seat: str | None = None) -> Response:
    s, user = v.site, v.user
    if step is not None and not (step.isdigit() and len(step) <= 9):  # no int() of a 10,000-digit string
        return s.message(request, user, 400, "bad_step")
    rights = await v.rights(token)
    live = await s.svc.get(rights.game_id)
    if not live.over:
        return s.message(request, user, 403, "replay_locked")
    total = live.version
    at = total if step is None else max(0, min(int(step), total))
    # ?seat=: the game as one seat (or "spectator") saw it; otherwise every hand revealed
    ctx = await asyncio.to_thread(replay.replay_context, live, at, user["lang"], replay.point_of_view(seat, live))
    # ?fragment=1: only the step's part of the page, which static/replay.js morphs in
    name = "_replay_step.html" if request.query_params.get("fragment") == "1" else "replay.html"
    return s.page(request, user, name, tr=ctx["tr"], live=live, token=token, step=at, total=total,
                  **{k: v for k, v in ctx.items() if k != "tr"})


@router.get("/rules", response_class=HTMLResponse)
async def rules_page(request: Request, v: PageVisit) -> Response:
    s, user = v.site, v.user
    # PRJ-50: ?version= shows the numbers of that ruleset version (a game's page links here with
    # its own); a version this engine does not play shows the current numbers
    asked = playable_version(request.query_params.get("version"))
    win = win_condition(*asked) if asked else win_condition()
    current = win["version"] == win_condition()["version"]
    titles = rule_titles()
    # ?rule= marks a rule of the engine's list; anything else is not echoed into the page
    asked_rule = request.query_params.get("rule", "")
    # issue 38: the page opens on the game in plain words (learn/guide.py), pictures of the board
    # and the legalities compared, in the numbers of the version shown; the rule IDs below it
    guide = await asyncio.to_thread(rules_guide, Tr(user["lang"]), asked[1] if asked else None)
    return s.page(request, user, "rules.html", paragraphs=rule_pages(user["lang"]), titles=titles,
                  rule=asked_rule if asked_rule in titles else "", win=win, current_version=current,
                  card_version=asked[1] if asked else None, guide=guide)


@router.get("/favicon.ico")
async def favicon() -> Response:
    return Response(status_code=204)


@router.get("/healthz")
async def healthz() -> dict[str, Any]:
    return {"ok": True}
