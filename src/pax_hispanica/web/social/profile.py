"""A player's profile: rating, games played and recent results, those as a game list's rows
(accounts/game_rows.py). Shown on the account page (accounts/routes.py) and on /u/<name>
(social/ratings_routes.py), in the template both include (present/templates/_profile.html)."""
from __future__ import annotations

from typing import Any

from pax_hispanica.web.accounts import game_rows
from pax_hispanica.web.http.site import Site


async def profile(s: Site, uid: str) -> dict[str, Any]:
    """A player's rating, games played and recent results, those as a game list's rows."""
    await s.ratings.rate_pending()
    record = await s.ratings.record(uid)
    return {"rating": await s.ratings.rating(f"user:{uid}"), **record,
            "games": await game_rows.of_results(s.svc.storage, uid, record["recent"])}
