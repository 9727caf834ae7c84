"""The lobby page shown again after a refused form (a new game's, a new table's): the reason in
the user's language, and the form filled in as it was sent."""
from __future__ import annotations

from typing import Any

from fastapi import Request
from fastapi.responses import Response

from pax_hispanica.web.accounts import game_rows
from pax_hispanica.web.http.site import Site
from pax_hispanica.web.play.variants import PARAM_FIELDS
from pax_hispanica.web.present.i18n import Tr
from pax_hispanica.web.social.lobby import lobby_tables

# the lobby form's fields a refused form is shown again with (anything else is dropped)
FORM_FIELDS = frozenset({"players", "mode", "pace", "clock_minutes", "clock_increment", "turn_hours", "year_days",
                         "chat", "variant", "house_rules"} | {f"{k}{i}" for k in ("name", "nation", "kind", "bot", "strength")
                                               for i in range(5)} | PARAM_FIELDS)


def form_as_sent(form: object) -> dict[str, str]:
    """The known fields of a posted lobby form as short strings, to fill the form in again."""
    get = getattr(form, "get", None)
    if get is None:
        return {}
    return {k: str(v)[:500] for k in FORM_FIELDS if isinstance(v := get(k), str) and v}


async def lobby_refusal(s: Site, request: Request, user: dict[str, Any], status: int, key: str,
                        headers: dict[str, Any] | None = None, text: str | None = None, form: object = None) -> Response:
    """The lobby again, with the reason in the user's language and the form as it was sent."""
    games = await s.svc.games_of(user["id"])
    await game_rows.describe(s.svc.storage, user["id"], games)
    resp = s.page(request, user, "lobby.html", status=status, games=games, csrf=s.csrf_token(user),
                  error=text or Tr(user["lang"])(key), form=form_as_sent(form), **await lobby_tables(s, user))
    resp.headers.update(headers or {})
    return resp
