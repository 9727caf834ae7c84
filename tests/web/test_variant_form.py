"""House rules chosen from a form of named parameters (issue 38): the lobby's and the new table's
Variant is a field for each number a variant may change, named in words in the player's language
with its usual value and range, and the named sets of house rules by their names; no parameter's
id shows; a refusal names the number in words; the game and table pages say a variant in words."""
from __future__ import annotations

import html
import re

import pytest

from pax_hispanica import api
from pax_hispanica.web.present import variant_words
from pax_hispanica.web.present.i18n import Tr, own_keys

from .test_accounts import csrf_of, new_client, register
from .test_api import form_post

PARAMS = api.parameters("reference", None, extended=True)


def text_of(page: str) -> str:
    page = re.sub(r"<script.*?</script>", "", page, flags=re.S)
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", page)))


def _form(page: str, action: str) -> str:
    return re.search(rf'<form method="post" action="{action}"[^>]*>.*?</form>', page, re.S).group(0)


@pytest.mark.parametrize("lang", ["en", "ca"])
def test_every_parameter_value_and_set_has_words_in_the_catalogue(lang):
    own = own_keys(lang)
    for name in PARAMS:
        base, _, rest = name.partition(".")
        if base == variant_words.CARD_COST:
            assert variant_words.card_name(rest, Tr(lang)) != rest, name
        else:
            assert base in own.get("params", set()), (lang, name)
        for value in variant_words.choices(name):
            if name != "start_zone":            # zones are named as the map names them
                assert value in own.get("param_values", set()), (lang, name, value)
    for name in api.house_rule_sets():
        assert name in own.get("house_rule_sets", set()) and name in own.get("house_rule_about", set()), (lang, name)
    tr = Tr(lang)
    labels = [variant_words.label(n, tr) for n in PARAMS]
    assert len(set(labels)) == len(labels), "two parameters with the same words"
    assert not any(label == n for n, label in zip(PARAMS, labels, strict=True))


@pytest.mark.parametrize("lang,cycles,card", [("en", "Cycles in a game", "Cost of each card"),
                                              ("ca", "Cicles de la partida", "Cost de cada carta")])
def test_the_lobby_form_names_every_parameter_in_words_and_no_id(client, lang, cycles, card):
    page = client.get(f"/?lang={lang}").text
    form = _form(page, "/games")
    words = text_of(form)
    assert cycles in words and card in words
    tr = Tr(lang)
    for name in PARAMS:
        field = re.search(rf'<(?:input|select)[^>]*id="(p-[^"]+)"[^>]*name="p\.{re.escape(name)}"', form)
        assert field, name
        assert re.search(rf'<label for="{field.group(1)}">', form), name      # a label for each field
    for g in variant_words.form_groups(tr):
        for r in g["rows"]:
            assert r["label"] in words and r["hint"] in words
    # no parameter's id nor a set's id is words of the page
    shown = text_of(page)
    for raw in ["cycles", "card_cost", "crown_colonies", "plunder_loading", "sack_or_own", "same_zone"]:
        assert raw not in shown, raw
    assert not re.search(r"\breference-\d", shown)
    set_name = "The rules of version 7" if lang == "en" else "Les regles de la versió 7"
    assert f'<option value="reference-7">{set_name}</option>' in form


def test_named_fields_make_the_variant_and_empty_ones_keep_the_usual_values(client):
    empty = {f"p.{n}": "" for n in PARAMS}
    r = form_post(client, {"players": "2", "kind0": "human", "kind1": "human", **empty})
    assert r.status_code == 303
    view = client.get("/api/view/" + r.headers["location"].rsplit("/", 1)[1]).json()
    assert not view["view"].get("ruleset_params")                         # nothing filled in: no variant
    r = form_post(client, {"players": "2", "kind0": "human", "kind1": "human", **empty, "p.cycles": "3",
                           "p.card_cost.galeon": "4", "p.kings_crown_share.2": "5", "p.employ_range": "anywhere",
                           "p.start_zone": "atlantico"})
    assert r.status_code == 303, r.text
    token = r.headers["location"].rsplit("/", 1)[1]
    params = client.get(f"/api/view/{token}").json()["view"]["ruleset_params"]
    assert params == {"cycles": 3, "card_cost.galeon": 4, "kings_crown_share.2": 5, "employ_range": "anywhere",
                      "start_zone": "atlantico"}
    page = client.get(f"/play/{token}?lang=ca").text
    line = text_of(re.search(r'<[^>]*id="variant"[^>]*>.*?</span>', page, re.S).group(0))
    goal = text_of(re.search(r'<a id="goal"[^>]*>.*?</a>', page, re.S).group(0))    # the version in words too
    assert re.fullmatch(r"\s*Objectiu: \d+ de Prestigi, regles de la versió \d+\s*", goal), goal
    tr = Tr("ca")
    assert "Cicles de la partida: 3" in line and "On pot contractar una colònia: a qualsevol lloc" in line
    assert f"{variant_words.label('card_cost.galeon', tr)}: 4" in line and "amb 2 jugadors: 5" in line
    assert "cycles" not in line and "=" not in line


def test_a_refused_field_is_said_in_words_and_comes_back_as_sent(client):
    client.get("/?lang=ca")
    r = form_post(client, {"players": "2", "kind0": "human", "kind1": "human", "p.cycles": "99",
                           "p.card_cost.galeon": "2"})
    assert r.status_code == 400
    alert = text_of(re.search(r'role="alert"[^>]*>(.*?)</', r.text, re.S).group(1))
    assert "«Cicles de la partida» ha d'estar entre 1 i 20 (has posat 99)" in alert
    assert re.search(r'name="p.cycles"[^>]*value="99"', r.text) and re.search(r'name="p.card_cost.galeon"[^>]*value="2"', r.text)
    assert '<details class="variant" open>' in r.text
    assert re.search(r'<details class="param-group" data-group="length" open>', r.text)
    assert re.search(r'<details class="param-group" data-group="setup">', r.text)     # nothing sent there
    r = form_post(client, {"players": "2", "kind0": "human", "kind1": "human", "p.plunder_loading": "always"})
    alert = text_of(re.search(r'role="alert"[^>]*>(.*?)</', r.text, re.S).group(1))
    assert r.status_code == 400 and "«Com carrega una flota de PILLATGE» ha de ser un d'aquests valors: només saquejant" in alert
    r = form_post(client, {"players": "2", "kind0": "human", "kind1": "human", "p.hand_limit": "tres"})
    assert "«Límit de mà» ha de ser un nombre enter, no «tres»" in r.text.replace("&#39;", "'").replace("&#34;", '"')


def test_a_new_table_has_the_form_its_refusal_in_the_players_words_and_its_variant_in_words(tmp_path):
    with new_client(f"sqlite:///{tmp_path / 't.sqlite3'}") as c:
        register(c, "ona")
        c.get("/?lang=ca")
        page = c.get("/").text
        form = _form(page, "/tables")
        # the numbers are in the page once, in the new game's form; lobby.js copies them into the
        # new table's (issue 38: they made a logged-in lobby twice its size)
        assert all(re.search(rf'name="p\.{re.escape(n)}"', _form(page, "/games")) for n in PARAMS)
        assert page.count('name="p.cycles"') == 1 and 'name="p.' not in form
        assert 'id="table-house-rules"' in form and '<div class="param-groups" data-copy="p-" data-prefix="tp-"></div>' in form
        data = {"csrf": csrf_of(page), "players": "3", "time_control": "live:10+10", "public": "1"}
        r = c.post("/tables", data={**data, "p.cycles": "0"}, follow_redirects=False)
        alert = text_of(re.search(r'role="alert"[^>]*>(.*?)</', r.text, re.S).group(1))
        assert r.status_code == 400 and "«Cicles de la partida» ha d'estar entre 1 i 20 (has posat 0)" in alert
        r = c.post("/tables", data={**data, "p.cycles": "3", "house_rules": "reference-7"}, follow_redirects=False)
        assert r.status_code == 303, r.text
        row = text_of(re.search(r'<tr data-table="[^"]+">.*?</tr>', c.get("/").text, re.S).group(0))
        assert "Regles de la casa: Les regles de la versió 7; Cicles de la partida: 3" in row
        table = text_of(c.get(r.headers["location"]).text)
        assert "Cicles de la partida: 3" in table and "reference-7" not in table


@pytest.mark.browser
def test_the_new_table_form_gets_a_copy_of_the_numbers_empty_and_under_its_own_ids(browser, server_factory, tmp_path):
    """The numbers a variant may change are sent once (the new game's form); in a browser the
    new table's form has them too, empty, closed, labelled by ids of its own, and sends them."""
    from .helpers import register as register_in_browser
    srv = server_factory(f"sqlite:///{tmp_path / 't.sqlite3'}")
    page = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    register_in_browser(page, srv.url, "ona")
    page.goto(srv.url + "/")
    page.click("#new-game details.variant > summary")
    page.click("#new-game details.param-group[data-group=length] > summary")
    page.fill("#p-cycles", "4")                 # the new game's number is not the table's
    assert page.locator("#table-form [name='p.cycles']").count() == 1
    assert page.locator("#new-game [name='p.cycles']").count() == 1
    assert page.input_value("#tp-cycles") == "" and page.get_attribute("#tp-cycles", "aria-describedby") == "tp-cycles-hint"
    assert page.locator("label[for='tp-cycles']").count() == 1 and page.locator("[id^='p-']").count() == \
        page.locator("#table-form [id^='tp-']").count()
    page.click("#new-table summary")
    page.click("#table-form details.variant > summary")
    page.click("#table-form details.param-group[data-group=length] > summary")
    page.fill("#tp-cycles", "3")
    page.click("#open-table")
    page.wait_for_url(re.compile(r".*/tables/.*"))
    assert "Cycles in a game: 3" in page.inner_text("body")
    page.context.close()
