"""The analysis page (GET /analysis/{token}) and the Hint (POST /api/hint/{token}).

The page is for finished games only (a game that is on, rated or not, shows no analysis); any of
the game's links opens it, and ?seat=N picks whose decisions are reviewed (default: the link's
own seat, else the first analysed). The Hint answers a seat's player of an unrated game that is
on; every refusal is the JSON envelope and changes nothing.
"""
from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, JSONResponse, Response

from pax_hispanica.web.analysis_jobs import present
from pax_hispanica.web.analysis_jobs.hint import Hints
from pax_hispanica.web.analysis_jobs.worker import Analyses
from pax_hispanica.web.http.site import PageVisit, client_address, error_response, site
from pax_hispanica.web.play.model import LiveGame, ServerError
from pax_hispanica.web.present import page_context

router = APIRouter()


def _analyses(request: Request) -> Analyses:
    ret: Analyses = request.app.state.analyses
    return ret


def _hints(request: Request) -> Hints:
    ret: Hints = request.app.state.hints
    return ret


async def _jobs(analyses: Analyses, live: LiveGame, wanted: list[int]) -> dict[int, dict[str, Any]]:
    """The game's analysis jobs by seat, queued now where missing: the game's own seats when it
    finished before the queue knew of it, and a seat asked for (a game of bots only queues its
    first seat alone when it ends)."""
    jobs = await analyses.store.jobs_of(live.id)
    missing = [x for x in wanted if 0 <= x < len(live.seats) and x not in jobs]
    if not jobs or missing:
        await analyses.store.enqueue(live.id, [*([] if jobs else analyses.seats_to_analyse(live)), *missing])
        analyses.wake.set()
        jobs = await analyses.store.jobs_of(live.id)
    return jobs


@router.get("/analysis/{token}", response_class=HTMLResponse)
async def analysis_page(request: Request, v: PageVisit, token: str, seat: str | None = None) -> Response:
    s, user = v.site, v.user
    rights = await v.rights(token)
    live = await s.svc.get(rights.game_id)
    if not live.over:     # never while a game is on (rated or not): only its finished record is analysed
        return s.message(request, user, 403, "analysis_locked")
    analyses = _analyses(request)
    own = sorted(rights.seats) if rights.role == "seat" else []
    asked = int(seat) if seat is not None and seat.isdigit() and len(seat) < 3 else None
    jobs = await _jobs(analyses, live, [x for x in (asked, *own[:1]) if x is not None])
    chosen = next((x for x in (asked, *own) if x is not None and x in jobs), min(jobs))
    job = jobs[chosen]
    lang = user["lang"]
    tr = page_context.translator(live, lang)
    names = page_context.seat_names(live, lang)
    ctx = {"live": live, "token": token, "chosen": chosen, "names": names, "job_status": job["status"],
           "seats": [{"seat": x, "name": names[x] if x < len(names) else str(x), "status": jobs[x]["status"]}
                     for x in sorted(jobs)]}
    a = job["result"]
    if job["status"] == "done" and a:
        ctx.update(chart=present.chart_svg(a, names, tr), legend=present.legend(a, names),
                   year_table=present.year_table(a, lang), decisions=present.decisions(a, tr),
                   moments=present.moments(a, names, lang, tr), summary=present.summary(a, lang),
                   budget=a.get("budget"), bot=a.get("bot"), thresholds=a.get("thresholds") or {},
                   threshold_text={k: present.percent(t, lang) for k, t in (a.get("thresholds") or {}).items()})
    return s.page(request, user, "analysis.html", tr=tr, **ctx)


@router.post("/api/hint/{token}")
async def api_hint(request: Request, token: str) -> JSONResponse:
    s = site(request)
    try:
        s.limits.check("act", client_address(request))
        rights = await s.resolve(token)
        got = await _hints(request).hint(rights)
    except ServerError as e:
        return error_response(e)
    user = await s.current_user(request)
    live = await s.svc.get(rights.game_id)
    tr = page_context.translator(live, user["lang"])
    words = present.hint_words(got["action"], got["explanation"], got["view"], tr)
    return JSONResponse({"ok": True, "seat": got["seat"], "version": got["version"], "action": got["action"],
                         **words})


def install(app: object, svc: object) -> None:
    """Wire the analysis queue (a Service hook) and the Hint into the app (server.create_app)."""
    from pax_hispanica.web.analysis_jobs.worker import install as install_worker
    analyses = install_worker(svc)           # type: ignore[arg-type]
    app.state.analyses = analyses            # type: ignore[attr-defined]
    app.state.hints = hints = Hints(svc, analyses.store)   # type: ignore[arg-type, attr-defined]
    svc.hooks.append(hints)                  # type: ignore[attr-defined]
    app.include_router(router)               # type: ignore[attr-defined]
