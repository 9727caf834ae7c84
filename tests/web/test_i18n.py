"""English and Catalan, per user, rendered from structured events."""
from __future__ import annotations

import json

from pax_hispanica.web.present import i18n
from pax_hispanica.web.present.i18n import Tr, catalogue, rule_pages


def test_both_languages_cover_the_same_keys():
    en, ca = catalogue("en"), catalogue("ca")
    for section in ("ui", "decisions", "actions", "events", "nations", "years"):
        assert set(en[section]) <= set(ca[section]), section
    missing = i18n.own_keys("en")["events"] - i18n.own_keys("ca")["events"]   # no English fallback
    assert not missing, f"events without Catalan text: {missing}"


def test_events_render_in_each_language_with_names():
    ev = {"seq": 5, "type": "AuctionWon", "rule": "AUC-5", "page": "SEED p7", "winner": 1, "initiator": 0,
          "card": "galeon-1", "price": 3}
    names = {"galeon-1": "Galeón"}
    assert Tr("en", ["Spanish", "English"], names).event(ev) == "English wins Galeón for $3."
    assert Tr("ca", ["Espanya", "Anglaterra"], names).event(ev) == "Anglaterra guanya Galeón per 3 $."


def test_unknown_events_and_actions_render_generically():
    tr = Tr("ca", ["Espanya", "Anglaterra"])
    text = tr.event({"seq": 1, "type": "KrakenAwoke", "rule": "X-1", "page": "REF", "seat": 1, "zone": "atlantico",
                     "to": None})
    assert text.startswith("Kraken Awoke") and "Anglaterra" in text and "Oceà Atlàntic" in text   # a place, in Catalan
    assert tr.action({"seat": 0, "type": "summon_kraken", "where": "atlantico"}).startswith("Summon kraken")
    # a known event missing a field still renders
    assert Tr("en").event({"type": "AuctionWon"})


def test_the_catalan_map_names_seas_europe_goods_and_sites_in_catalan():
    from pax_hispanica import api
    from pax_hispanica.web.present import svgmap
    from pax_hispanica.web.present.info import ruleset_info

    info = ruleset_info()
    places = catalogue("ca")["places"]
    english_only = [z.id for z in info.zones if z.kind != "land"]        # land zones carry Spanish names
    assert set(english_only) <= set(places)
    view = api.view(api.new_game(api.Config(players=3), seed=1), 0)
    ca = svgmap.render(view, Tr("ca", ["A", "B", "C"], info.names), info)
    en = svgmap.render(view, Tr("en", ["A", "B", "C"], info.names), info)
    assert "Golf de Mèxic" in ca and "Gulf of Mexico" not in ca and "Gulf of Mexico" in en
    assert "Catedral de Veracruz" in ca and "Cathedral of Veracruz" in en
    assert "Zacatecas (plata)" in ca and "Cofres: " in ca and "Zacatecas (silver)" in en


def test_rule_summaries_in_both_languages():
    for lang in ("en", "ca"):
        paras = rule_pages(lang)
        assert len(paras) == 6
        assert any(7 in p["pages"] for p in paras)


def test_language_is_chosen_per_user(client):
    g = client.post("/api/games", json={"players": 2, "seats": [{"kind": "human"}, {"kind": "human"}]}).json()
    token = g["seats"][0]["token"]
    en = client.get(f"/play/{token}").text
    assert "Your decision" in en or " must start an auction or pass." in en   # the status line (happened.status)
    ca = client.get(f"/play/{token}?lang=ca").text
    assert "Comença la partida" in ca and 'lang="ca"' in ca
    # the choice sticks to this browser (cookie) ...
    assert 'lang="ca"' in client.get(f"/play/{token}").text
    assert "Partida nova" in client.get("/").text
    # ... and its live updates come in Catalan too
    with client.websocket_connect(f"/ws/{token}") as ws:
        assert "Registre" in json.loads(ws.receive_text())["html"]


def test_a_new_browser_starts_in_its_preferred_language(client):
    assert 'lang="ca"' in client.get("/", headers={"Accept-Language": "ca-ES,ca;q=0.9,en;q=0.5"}).text
    client.cookies.clear()
    assert 'lang="en"' in client.get("/", headers={"Accept-Language": "fr-FR,fr;q=0.9"}).text


def test_the_players_table_is_in_the_pages_language(client):
    g = client.post("/api/games", json={"players": 2, "seats": [{"kind": "human"}, {"kind": "human"}]}).json()
    ca = client.get(f"/play/{g['seats'][0]['token']}?lang=ca").text
    assert "Prestigi de colònies" in ca and "Colony prestige" not in ca


def test_sites_a_card_places_are_named_in_catalan_too():
    tr = Tr("ca")
    assert tr.place_name("Cathedral 1") == "Catedral 1"          # engine/cards.py names new sites "<Kind> <k>"
    assert tr.place_name("Cathedral of Caracas") == "Catedral de Caracas"
