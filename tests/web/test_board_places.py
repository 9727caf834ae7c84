"""A board you click, why not? and the battle preview on the page (issue 14), without a
browser: every legal option that names a place is on the map, the reasons are sentences in
English and Catalan with their rule, and the preview counts both sides."""
from __future__ import annotations

import html
import json
import re
from pathlib import Path

from support import random_game, scenario

from pax_hispanica import api
from pax_hispanica.engine import why
from pax_hispanica.web.present import board, jinja_env, page_context, svgmap, updates
from pax_hispanica.web.present.i18n import Tr, catalogue
from pax_hispanica.web.present.info import ruleset_info

INFO = ruleset_info()
ZONE, SANTA_MARTA = "tierra_firme", "tierra_firme.santa_marta"
NO_SPAIN = ["english", "french", "dutch"]
ROOT = Path(__file__).resolve().parents[2]


def tr(lang: str) -> Tr:
    return Tr(lang, ["Ana", "Bru", "Cai", "Dani"], INFO.names)


def map_places(choices: list[dict], legal: list) -> dict[str, list[dict]]:
    """place key -> the actions of its options, as the page's list of map choices names them
    (by the ids of the decision list's buttons)."""
    by_id = {board.option_id(json.dumps(o)): o for o in api.iter_actions(legal)}
    return {c["k"]: [by_id[i] for i in c["o"].split()] for c in choices if "o" in c}


def drawn_as(svg: str, key: str) -> bool:
    """Whether the map draws the element static/board.js makes place `key` a button of."""
    if key.startswith("rebels@"):
        return f'data-rebels="{html.escape(key[7:])}"' in svg
    return any(f'{attr}="{html.escape(key)}"' in svg for attr in ("data-zone", "data-colony", "data-site"))


def check_places(state, kinds: set) -> None:
    for seat in api.acting(state):
        legal = api.legal_actions(state, seat)
        view = api.view(state, seat)
        places, _ = board.places(legal, state, seat, view, tr("en"))
        svg, choices = svgmap.render_with_choices(view, tr("en"), INFO, places)
        on_map = offered = map_places(choices, legal)
        for o in api.iter_actions(legal):
            for k in board.place_keys(o, view):
                assert o in offered.get(k, []), (o, k)
                kinds.add(o["type"])
        # the map offers legal actions only
        legal_set = {json.dumps(o, sort_keys=True) for o in api.iter_actions(legal)}
        assert all(json.dumps(a, sort_keys=True) in legal_set for v in offered.values() for a in v)
        # every choice is a place the map draws, with its accessible name; the markup itself
        # carries no choice (the page applies the list, so the map is not resent for it)
        assert all(drawn_as(svg, c["k"]) and (c.get("l") or "o" not in c) for c in choices)
        # a colony or site has a box to hit, a choice or a forbidden one (the map's words take no
        # pointer: a site drawn in words only could not be tapped for its why-not)
        assert all("b" in c for c in choices if f'data-zone="{html.escape(c["k"])}"' not in svg)
        assert svg == svgmap.render(view, tr("en"), INFO) and "data-place" not in svg and "has-choice" not in svg
        if on_map:
            assert svg.startswith('<svg class="map" ') and 'class="zone-group"' in svg


def test_every_option_that_names_a_place_is_on_the_map_and_nothing_else_is():
    kinds: set = set()
    for seed in range(4):
        random_game(3 + seed % 2, 900 + seed, on_step=lambda b, a, after, e: check_places(after, kinds))
    labour = api.Game.from_scenario({"config": {"players": 3, "nations": NO_SPAIN}, "seed": 1, "position": {
        "year": "goods", "step": "labour_acquisition", "order": [0, 1, 2],
        "colonies": {SANTA_MARTA: {"owner": 0, "labour": None}},
        "sites": {"tierra_firme.cartagena_cathedral": 1, "tierra_firme.zenu": 2}}})
    check_places(labour.state, kinds)
    sc = json.loads((ROOT / "docs" / "scenarios" / "enslave_and_unload.json").read_text())
    for k in (3, 4):             # enslave after the won battle, then unload onto Santa Marta
        check_places(api.from_scenario({**sc, "actions": sc["actions"][:k]}).state, kinds)
    assert {"move", "labour", "attack", "load_chests", "play", "enslave", "unload"} <= kinds, kinds


def test_the_board_writes_colony_and_site_names():
    view = api.view(api.new_game(api.Config(players=3), seed=1), 0)
    for lang, cathedral in (("en", "✝"), ("ca", "✝")):
        svg = svgmap.render(view, tr(lang), INFO)
        names = re.findall(r'class="place-name">([^<]+)<', svg)
        assert len(names) == len(view["colonies"])
        assert "Zacatecas" in names and any(n.startswith("St. Jago") for n in names)
        assert "Zenú" in svg and "Tolú" in svg and cathedral in svg


def test_PLY_1_why_not_in_english_and_catalan_with_the_rule():
    g = scenario({"year": "play", "step": "play_turns", "order": [0, 1, 2],
                  "players": [{"money": 1, "hand": ["galeon-1"]}, {}, {}]})
    view = api.view(g.state, 0)
    legal = api.legal_actions(g.state, 0)
    texts = {}
    for lang in ("en", "ca"):
        _, greyed = board.places(legal, g.state, 0, view, tr(lang))
        [item] = [u for u in greyed["play_turn"] if u["code"] == "cannot_afford"]
        assert item["rule"] == "PLY-1"
        texts[lang] = item["text"]
    assert texts["en"] == "Galeón costs $2; you have $1"
    assert texts["ca"] == "Galeón costa 2 $; en tens 1 $"


def test_LAB_4_SAIL_1_every_reason_code_has_a_sentence_in_both_languages():
    codes = {}
    for seed in range(6):
        def on_step(before, action, after, events):
            for seat in api.acting(after):
                for d in api.unavailable(after, seat):
                    codes.setdefault((d["decision"], d["code"], str(d["params"].get("target"))), d)

        random_game(3 + seed % 3, 300 + seed, on_step=on_step)
    # and the ones random games seldom reach
    codes[("labour", "rebellious_zone", "")] = why._d("labour", {}, "rebellious_zone", "LAB-4", colony=SANTA_MARTA,
                                                       site="tierra_firme.zenu", zone=ZONE, rebels=1)
    codes[("voyage", "fleet_full", "")] = why._d("voyage", {}, "fleet_full", "SAIL-1", colony=SANTA_MARTA, ships=1,
                                                  capacity=2)
    for d in codes.values():
        en, ca = board.why_sentence(d, tr("en")), board.why_sentence(d, tr("ca"))
        assert "{" not in en and "{" not in ca and en != ca, d
        assert not en.startswith("Not allowed now") and not ca.startswith("Ara no està permès"), d
    assert board.why_sentence(codes[("labour", "rebellious_zone", "")], tr("en")) == \
        "Santa Marta: no kidnapping from Zenú in a rebellious zone (Tierra Firme has Rebels)"
    assert board.why_sentence(codes[("voyage", "fleet_full", "")], tr("ca")) == \
        "Flota plena: 1 vaixell, 2 peces cadascun, no hi ha lloc a bord"
    assert set(catalogue("en")["why"]) == set(catalogue("ca")["why"])


def test_BAT_2_the_preview_in_words_and_the_support_decision_shows_both_sides():
    g = scenario({"year": "sail", "step": "voyages", "order": [0, 1, 2],
                  "players": [{"fleet": {"zone": ZONE, "ships": 2, "legality": "PLUNDER"}},
                              {"fleet": {"zone": ZONE, "ships": 1}}, {}],
                  "colonies": {SANTA_MARTA: {"owner": 2, "labour": "citizen", "fort": True}}}, nations=NO_SPAIN)
    [p] = [p for p in board.previews(g.state, 0, tr("en")) if p["target"] == SANTA_MARTA]
    assert p["sides"] == "Strength: Ana 2, Cai 3." and p["others_text"] == "Will choose a side: Bru (+1)."
    assert p["best"].startswith("3 against 3, the target holds") and p["worst"].startswith("2 against 4")
    g.act({"seat": 0, "type": "attack", "target": SANTA_MARTA})
    [q] = board.previews(g.state, 1, tr("ca"))
    assert q["sides"] == "Força: Ana 2, Cai 3." and q["others"][0]["me"]
    assert "Bru · tu (+1)" in q["others_text"]          # the seat asked finds itself among those who choose


def live_game(g: api.Game, humans=(0,)):
    from pax_hispanica.web.play.model import LiveGame, Seat

    n = len(api.view(g.state, None)["players"])
    seats = [Seat(i, "human" if i in humans else "bot", None if i in humans else "random", None, name, f"t{i}", None)
             for i, name in zip(range(n), ["Ana", "Bru", "Cai", "Dani"])]
    return LiveGame(id="g", record=dict(g.record), seed=0, mode="seats", host_token="h", spectator_token="s",
                    host_user=None, seats=seats, state=g.state, events=g.events)


def test_PLY_1_BAT_3_the_page_shows_why_not_and_the_support_preview_in_both_languages():

    g = scenario({"year": "play", "step": "play_turns", "order": [0, 1, 2],
                  "players": [{"money": 1, "hand": ["galeon-1"]}, {}, {}]})
    for lang, text in (("en", "Galeón costs $2; you have $1"), ("ca", "Galeón costa 2 $; en tens 1 $")):
        page = html.unescape(updates.html_update(live_game(g), 0, None, "seat", lang)["html"])
        assert text in page and 'data-code="cannot_afford"' in page and "(PLY-1)" in page
    g = scenario({"year": "sail", "step": "voyages", "order": [0, 1, 2],
                  "players": [{"fleet": {"zone": ZONE, "ships": 2, "legality": "PLUNDER"}},
                              {"fleet": {"zone": ZONE, "ships": 1}}, {}],
                  "colonies": {SANTA_MARTA: {"owner": 2, "labour": "citizen", "fort": True}}}, nations=NO_SPAIN)
    g.act({"seat": 0, "type": "attack", "target": SANTA_MARTA})
    for lang, sides, best in (("en", "Strength: ", "Best case"), ("ca", "Força: ", "En el millor cas")):
        page = html.unescape(updates.html_update(live_game(g, humans=(1,)), 1, None, "seat", lang)["html"])
        assert 'data-decision="support"' in page and 'id="previews"' in page
        assert sides in page and best in page, page[page.find("previews"):][:800]
        assert re.search(re.escape(sides) + r"[^<]*\(Ana\) 2, [^<]*\(Cai\) 3\.", page)     # both sides' Strength


def test_the_stylesheet_dims_the_places_without_a_choice_while_some_have_one():
    css = (Path(jinja_env.__file__).parent.parent / "static" / "style.css").read_text()
    assert "svg.map:has(.has-choice) .zone-group:not(.has-choice) .zone.land" in css


def test_CARD_1_a_visita_a_card_founded_is_named_by_the_view_never_by_its_id():
    """Misión Franciscana founds a Visita ("<zone>.visita-1", which the ruleset does not name):
    the attack option, the log and the map call it by the view's name."""

    g = scenario({"year": "play", "step": "play_turns", "order": [0, 1, 2],
                  "players": [{"money": 3, "hand": ["mision_franciscana-1"]}, {}, {}]}, nations=NO_SPAIN)
    play = next(a for a in api.expand(api.legal_actions(g.state, 0))
                if a["type"] == "play" and a.get("card") == "mision_franciscana-1")
    g.act(play)
    [site] = [s for s in api.view(g.state, 0)["sites"] if ".visita-" in s["id"]]
    for lang in ("en", "ca"):
        ctx = page_context.board_context(live_game(g), 0, None, "seat", lang)
        texts = [e["text"] for e in ctx["log"]] + [o["label"] for w in ctx["widgets"] for o in w.get("options", [])]
        assert not any(site["id"] in x for x in texts), [x for x in texts if site["id"] in x]
        attack = ctx["t"].action({"seat": 0, "type": "attack", "target": site["id"]})   # as a voyage offers it
        assert site["name"] in attack and site["id"] not in attack, attack
        assert f'⌂2 {site["name"]}' in html.unescape(str(ctx["map"]))
