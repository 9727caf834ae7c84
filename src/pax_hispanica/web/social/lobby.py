"""What the lobby (play/page_routes.py) shows of open tables: the public ones waiting, and the
new-table form's default time control."""
from __future__ import annotations

from typing import Any

from pax_hispanica.web.accounts.service import TIME_CONTROLS
from pax_hispanica.web.http.site import Site


async def lobby_tables(s: Site, user: dict[str, Any]) -> dict[str, Any]:
    """What the lobby shows of tables: the public ones waiting, and the new-table form's default."""
    if s.tables is None:
        return {}
    acct = user.get("account")
    return {"open_tables": await s.tables.lobby(), "account": acct,
            "default_tc": (acct or {}).get("settings", {}).get("time_control", ""), "TIME_CONTROLS": TIME_CONTROLS}
