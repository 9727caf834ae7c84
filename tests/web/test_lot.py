"""The decision panel says what a sealed choice is about (AUC-2, AUC-3): the card up for
auction, or only that it is buried treasure, never the buried card itself."""
from __future__ import annotations

import pytest

from pax_hispanica import api

from .test_api import acting_token, new_game

pytestmark = pytest.mark.timeout(120)


def drive_to_bid(client, game, buried: bool):
    """Pass labour and choose an auction until a seat must bid; returns (token, view, card or None)."""
    for _ in range(60):
        token, v = acting_token(client, game)
        options = [o for d in v["legal"] for o in d.get("options", [])]
        ranges = [d for d in v["legal"] if d["kind"] == "range"]
        if ranges:
            return token, v
        pick = next((o for o in options if o["type"] == "initiate" and o["deck"] == "market"
                     and o["buried"] == buried), options[0])
        r = client.post(f"/api/act/{token}", json={"version": v["version"], "action": pick})
        assert r.status_code == 200, r.text
    raise AssertionError("no bid reached")


@pytest.mark.parametrize("buried", [False, True])
def test_AUC_2_the_bid_panel_names_the_lot_but_never_a_buried_card(client, buried):
    g = new_game(client, players=2)
    token, v = drive_to_bid(client, g, buried)
    html = client.get(f"/play/{token}").text
    lot = html.split('id="lot">')[1].split("</p>")[0]
    top = v["view"]["decks"]["market"]["top"]
    top_name = api.card_catalogue()[top]["name"]
    if buried:
        assert "buried treasure" in lot and top_name not in lot     # the face-up top is not the lot
    else:
        assert lot.startswith("Up for auction:") and top_name in lot
