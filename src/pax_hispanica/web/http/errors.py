"""How refusals are answered. FastAPI's own refusals (unknown path, wrong method, bad path or
query parameter) in our envelope for the API, as a page in the user's language otherwise; a
ServerError no endpoint caught the same way; anything unexpected is logged and answered
"internal", never with a stack trace."""
from __future__ import annotations

import logging

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import Response
from starlette.exceptions import HTTPException as StarletteHTTPException

from pax_hispanica.web.http import security
from pax_hispanica.web.http.site import (
    Answer,
    error_response,
    is_api,
    site,
    validation_message,
)
from pax_hispanica.web.play.model import ServerError

log = logging.getLogger("pax_hispanica.web")
HTTP_CODES = {404: "not_found", 405: "method_not_allowed", 413: "too_large", 400: "malformed",
              415: "malformed", 422: "malformed"}


async def http_refusal(request: Request, exc: StarletteHTTPException) -> Response:
    code = HTTP_CODES.get(exc.status_code, "refused")
    if is_api(request.url.path) or exc.status_code == 413:
        detail = exc.detail if isinstance(exc.detail, str) else code
        return error_response(ServerError(code, detail, status=exc.status_code), getattr(exc, "headers", None))
    return site(request).error_page(request, exc.status_code,
                                    {404: "page_not_found"}.get(exc.status_code, "bad_request"))


async def validation_refusal(request: Request, exc: RequestValidationError) -> Response:
    if is_api(request.url.path):
        return error_response(ServerError("malformed", validation_message(exc.errors())))
    return site(request).error_page(request, 400, "bad_request")


async def refused(request: Request, e: ServerError) -> Response:
    """A refusal no endpoint caught (a page opening a damaged game): JSON under /api,
    else a page in the user's language, never a bare 500."""
    if request.url.path.startswith("/api/"):
        return error_response(e)
    s = site(request)
    user = await s.current_user(request)
    return s.message(request, user, e.status, e.code if e.code in ("damaged_game",) else "not_found")


async def answer(request: Request, e: Answer) -> Response:
    """A page's prelude answered early (routes.common.visit)."""
    return e.response


def install(app: FastAPI) -> None:
    app.add_exception_handler(Answer, answer)  # type: ignore[arg-type]
    app.add_exception_handler(StarletteHTTPException, http_refusal)  # type: ignore[arg-type]
    app.add_exception_handler(RequestValidationError, validation_refusal)  # type: ignore[arg-type]
    app.add_exception_handler(ServerError, refused)  # type: ignore[arg-type]

    async def internal_error(request: Request, exc: Exception) -> Response:
        # Starlette's ServerErrorMiddleware calls this outside the other middlewares, so the
        # security headers are added here.
        log.exception("internal error on %s %s", request.method, request.url.path)
        if is_api(request.url.path):
            resp: Response = error_response(ServerError("internal", "the server failed on this request; it is "
                                                        "logged", status=500))
        else:
            try:
                resp = site(request).error_page(request, 500, "internal_error")
            except Exception:
                resp = Response("internal error", status_code=500, media_type="text/plain")
        for k, v in security.SecurityHeaders(app).common:
            resp.headers[k.decode()] = v.decode()
        resp.headers["cache-control"] = "no-store"
        return resp

    app.add_exception_handler(Exception, internal_error)
