"""The spectator page's "Sealed choices made by …" line sits in its section, under a heading
(issue 38): the lot panel says what the sealed choice is about, who has chosen and who is still
choosing, in English and Catalan; no stray line under the hand's place."""
from __future__ import annotations

import re

import pytest

from .test_api import acting_token, new_game
from .test_lot import drive_to_bid

pytestmark = pytest.mark.timeout(120)


@pytest.mark.parametrize("lang,heading,sealed", [("en", "Sealed choices", "Sealed choices made by"),
                                                 ("ca", "Tries secretes", "Tries secretes fetes per")])
def test_the_spectator_sees_who_has_sealed_a_choice_under_a_heading(client, lang, heading, sealed):
    g = new_game(client, players=2)
    token, v = drive_to_bid(client, g, False)
    d = next(d for d in v["legal"] if d["kind"] == "range")
    r = client.post(f"/api/act/{token}", json={"version": v["version"], "action": {**d["action"], d.get("field", "amount"): d["min"]}})
    assert r.status_code == 200, r.text
    acting_token(client, g)                       # the other seat still bids
    page = client.get(f"/watch/{g['spectator']}?lang={lang}").text
    assert page.count('id="committed"') == 1
    panel = re.search(r'<section class="panel lot-panel" id="lot-panel"[^>]*>(.*?)</section>', page, re.S)
    assert panel, "no lot panel"
    body = panel.group(1)
    assert re.search(rf"<h2[^>]*>{heading}</h2>", body), body
    assert 'id="committed"' in body and sealed in body and 'id="lot"' in body
