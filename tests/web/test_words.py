"""Words (issue 14): every event type the engine can emit has a sentence in English and
Catalan, found from the engine itself (its source and the corpus games it plays), and the
counted words are gettext plurals."""
from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import pytest

import pax_hispanica.engine as engine_pkg
from pax_hispanica import api
from pax_hispanica.sim import corpus
from pax_hispanica.web.present import i18n
from pax_hispanica.web.present.i18n import LANGS, Fallback, Tr
from pax_hispanica.web.present.info import ruleset_info

EMIT = re.compile(r"""\.emit\(\s*["']([A-Za-z]+)["']""")


def emitted_in_source() -> set[str]:
    """Every event type named in an `out.emit("Type", ...)` call of the engine."""
    root = Path(engine_pkg.__path__[0])
    return {m for p in root.rglob("*.py") for m in EMIT.findall(p.read_text(encoding="utf-8"))}


@cache
def corpus_events() -> dict[str, list[dict]]:
    """Event type -> the events of that type in the corpus games (each replayed by the engine),
    up to 40 of each, so a sentence meets its fields' real values."""
    out: dict[str, list[dict]] = {}
    for _file, e in corpus.load():
        game = api.replay(e["record"])
        for ev in game.events:
            bucket = out.setdefault(ev["type"], [])
            if len(bucket) < 40:
                bucket.append(ev)
    return out


def test_the_engine_emits_events_through_out_emit_only():
    """The source scan sees every emit: no emit with a computed type name."""
    root = Path(engine_pkg.__path__[0])
    for p in root.rglob("*.py"):
        for line in p.read_text(encoding="utf-8").splitlines():
            if ".emit(" in line and "def emit" not in line:
                assert EMIT.search(line), f"{p.name}: an emit the scan cannot read: {line.strip()}"
    assert len(emitted_in_source()) >= 55


@pytest.mark.parametrize("lang", LANGS)
def test_every_event_type_of_the_engine_has_a_sentence(lang):
    types = emitted_in_source() | set(corpus_events())
    missing = sorted(t for t in types if t not in i18n.own_keys(lang).get("events", set()))
    assert not missing, f"event types without a {lang} sentence: {missing}"


def test_the_corpus_plays_most_event_types():
    """The corpus games meet the sentences with real fields (a type that never occurs there is
    covered by the source scan and its sentence rendered below from its emit's fields)."""
    assert set(corpus_events()) <= emitted_in_source()
    assert len(corpus_events()) >= 45


@pytest.mark.parametrize("lang", LANGS)
def test_every_event_of_the_corpus_renders_without_fallback(lang):
    info = ruleset_info()
    tr = Tr(lang, ["Alpha", "Beta", "Gamma", "Delta", "Epsilon"], info.names, strict=True)
    for typ, evs in corpus_events().items():
        for ev in evs:
            try:
                text = tr.event(ev)
            except Fallback as e:
                pytest.fail(f"{lang} {typ}: {e} in {ev}")
            assert text and "{" not in text and "}" not in text, (typ, text)
            assert not re.search(r"\b[a-z]+_[a-z_]+\b", text), f"{lang} {typ}: a raw id in {text!r}"


EMPTY = re.compile(r"—|:\s*[.,;)]|:\s*$|\(\s*\)")   # "refilled with Citizens: —.", "placed on: ."


@pytest.mark.parametrize("lang", LANGS)
def test_an_event_with_an_empty_list_says_so_in_a_sentence(lang):
    """An event whose list is empty (or whose card is null) reads as a sentence of its own,
    "No Cathedral is refilled with Citizens.", never "Cathedrals refilled with Citizens: —."."""
    info = ruleset_info()
    tr = Tr(lang, ["Alpha", "Beta"], info.names, strict=True)
    empty = [{"type": "CathedralsRefreshed", "filled": {}},
             {"type": "ChestsPlaced", "colonies": [], "at_cap": ["cuba.habana"], "supply_short": []},
             {"type": "DeckTopShown", "deck": "haven", "card": None, "size": 0},
             {"type": "ScenarioHand", "seat": 1, "hand": [], "to": [1]}]
    texts = [tr.event(ev) for ev in empty]
    for ev, text in zip(empty, texts):
        assert not EMPTY.search(text), f"{lang} {ev['type']}: {text!r}"
    assert texts[0] == ("No Cathedral is refilled with Citizens." if lang == "en"
                        else "No es reomple cap Catedral de Ciutadans.")
    assert "Beta" in texts[3] and ("Haven" in texts[2] or "Refugi" in texts[2])
    # the same events with something in them still list it
    full = tr.event({"type": "CathedralsRefreshed", "filled": {"cuba.habana_cathedral": 2}})
    assert ": " in full and "habana_cathedral" not in full


@pytest.mark.parametrize("lang", LANGS)
def test_no_event_of_the_corpus_renders_an_empty_list_as_a_dash(lang):
    info = ruleset_info()
    tr = Tr(lang, ["Alpha", "Beta", "Gamma", "Delta", "Epsilon"], info.names, strict=True)
    for _file, e in corpus.load():
        for ev in api.replay(e["record"]).events:
            text = tr.event(ev)
            assert not EMPTY.search(text), f"{lang} {ev['type']}: {text!r} from {ev}"


@pytest.mark.parametrize("lang", LANGS)
def test_every_action_the_engine_offers_in_the_corpus_has_words(lang):
    info = ruleset_info()
    tr = Tr(lang, ["Alpha", "Beta", "Gamma", "Delta", "Epsilon"], info.names, strict=True)
    seen = {}
    for _file, e in corpus.load():
        for a in e["record"]["actions"]:
            seen.setdefault(a["type"], a)
    for typ, a in seen.items():
        text = tr.action(a)
        assert "{" not in text and not re.search(r"\b[a-z]+_[a-z_]+\b", text), (typ, text)


@pytest.mark.parametrize("lang, one, two", [("en", "1 ship", "2 ships"), ("ca", "1 vaixell", "2 vaixells")])
def test_plurals_come_from_the_catalogue(lang, one, two):
    tr = Tr(lang, ["A", "B"])
    assert tr.n("ships", 1) == one and tr.n("ships", 2) == two
    ev = {"type": "GalleonGained", "seat": 0, "ships": 1, "rule": "PLY-1"}
    assert one in tr.event(ev) and two in tr.event({**ev, "ships": 2})
    earn = {"type": "EarningsPaid", "seat": 0, "amount": 3, "worked_colonies": 1, "card_income": 0}
    assert ("1 worked colony" if lang == "en" else "1 colònia treballada") in tr.event(earn)
    assert ("2 worked colonies" if lang == "en" else "2 colònies treballades") in tr.event({**earn, "worked_colonies": 2})


def test_the_shipped_mo_files_are_compiled_from_the_po_files():
    for lang in LANGS:
        mo = i18n.po_path(lang).with_suffix(".mo")
        assert mo.exists() and mo.read_bytes() == i18n.compiled(lang), \
            f"{mo} is stale: run python -m pax_hispanica.web.present.i18n"


def test_catalan_translates_every_english_message():
    en, ca = i18n.own_keys("en"), i18n.own_keys("ca")
    for section, keys in en.items():
        assert keys <= ca.get(section, set()), f"{section}: no Catalan for {sorted(keys - ca.get(section, set()))}"


def test_every_key_a_template_uses_is_in_both_catalogues():
    web = Path(i18n.__file__).parent.parent          # every package's templates/ (present/jinja_env.py)
    keys = {k for p in web.glob("*/templates/*.html") for k in re.findall(r"""\b_\(\s*'([a-z_]+)'\s*[,)]""", p.read_text())}
    assert len(keys) > 50
    for lang in LANGS:
        missing = keys - i18n.own_keys(lang)["ui"]
        assert not missing, f"{lang}: {sorted(missing)}"


def emit_fields() -> dict[str, set[str]]:
    """Event type -> the field names its emit calls pass (from the engine's syntax tree)."""
    import ast
    out: dict[str, set[str]] = {}
    for p in Path(engine_pkg.__path__[0]).rglob("*.py"):
        for node in ast.walk(ast.parse(p.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "attr", None) == "emit" and node.args \
                    and isinstance(node.args[0], ast.Constant):
                out.setdefault(node.args[0].value, set()).update(k.arg for k in node.keywords if k.arg)
    return out


@pytest.mark.parametrize("lang", LANGS)
def test_event_types_the_corpus_never_plays_render_from_their_emit_fields(lang):
    info = ruleset_info()
    tr = Tr(lang, ["Alpha", "Beta"], info.names, strict=True)
    zone = info.zones[0].id
    absent = {t: f for t, f in emit_fields().items() if t not in corpus_events()}
    for typ, names in absent.items():
        ev = {"type": typ, "rule": "X-1", **{k: 0 if k in i18n.SEAT_KEYS else zone if k == "zone" else 2
                                             for k in names}}
        text = tr.event(ev)
        assert "{" not in text and "_" not in text, (typ, text)


@pytest.mark.parametrize("lang", LANGS)
def test_CARD_1_every_effect_kind_condition_and_target_of_the_vocabulary_has_words(lang):
    """The effect vocabulary of the ruleset schema, not a hand list: a new effect kind fails
    here until both catalogues say it."""
    from pax_hispanica.engine import ruleset_schema

    own = i18n.own_keys(lang)
    assert set(ruleset_schema.EFFECTS) <= own["effects"], set(ruleset_schema.EFFECTS) - own["effects"]
    targets = {t for _params, t in ruleset_schema.EFFECTS.values() if t}
    assert targets <= own["targets"], targets - own["targets"]
    assert set(ruleset_schema.BESPOKE) <= own["bespoke"]
    assert {"colonies", "legality", "nation"} <= own["requires"]


@pytest.mark.parametrize("lang", LANGS)
def test_CARD_1_every_card_of_the_reference_set_reads_in_words(lang):
    from pax_hispanica.web.present import cards

    tr = Tr(lang, strict=True)
    for cid, card in api.card_catalogue().items():
        d = cards.describe(cid, tr)
        assert d["cost"] == card["cost"] and d["effects"], cid
        for text in d["effects"] + d["requires"] + ([d["target"]] if d["target"] else []):
            assert "{" not in text and "_" not in text.replace("conquistador_prestige", ""), (cid, text)
        html = cards.card_html(cid, tr)
        assert f'aria-describedby="cardtext-{cards.text_key(cid)}"' in html
        texts = cards.card_texts(tr)
        assert f'id="cardtext-{cards.text_key(cid)}"' in texts
        tip = cards.tip_html(d, tr)
        assert d["deck_text"] in tip and tr("card_effects") in tip and d["effects"][0].split(" ")[0] in tip


def test_CARD_1_the_rules_page_lists_every_card_in_words(client):
    page = client.get("/rules?lang=ca").text
    for cid, card in api.card_catalogue().items():
        assert card["name"] in page or card["name"].replace("'", "&#39;") in page, cid
    assert "Afegeix 1 Galeó a la teva flota" in page and 'id="cards"' in page
    assert "Baralla del Mercat" in page and "Market deck" not in page


def test_CYC_2_CYC_3_the_rules_page_explains_the_sources_and_the_win_condition_from_the_ruleset(client):
    """The rules page says what [SEED], [REF] and [PRJ] mean and how the game is won, with the
    ruleset's own numbers, in the page's language; card costs are written as the language does."""
    params = api.parameters("reference")
    cycles, goal = params["cycles"]["value"], params["prestige_to_win"]["value"]
    money = params["money_per_prestige"]["value"]
    en = client.get("/rules?lang=en").text
    assert "[SEED]" in en and "[REF]" in en and "[PRJ]" in en
    win = en[en.index('id="win-condition"'):].split("</p>", 1)[0]
    assert f"{cycles} cycles" in win and f"{goal} Prestige or more" in win and f"1 Prestige per ${money}" in win
    assert "CYC-2" in win and "CYC-3" in win
    ca = client.get("/rules?lang=ca").text
    win_ca = ca[ca.index('id="win-condition"'):].split("</p>", 1)[0]
    assert f"{cycles} cicles" in win_ca and f"{goal} de Prestigi" in win_ca and f"{money} $" in win_ca
    assert "How to read" not in ca and "Com llegir les regles" in ca


def test_TRS_2_PRJ_58_the_rules_page_says_a_plunderer_loads_its_own_colonies_in_reference_7(client):
    """TRS-2's title says PLUNDER must sack; reference-4 to reference-7 (PRJ-58) used PRJ-38's
    sack_or_own, and the rules page of such a version says so in both languages, from the
    ruleset's value; reference-8 (PRJ-82) is TRS-2 as written, and its page says nothing more."""
    assert api.parameters("reference")["plunder_loading"]["value"] == "sack"
    assert 'id="plunder-loading"' not in client.get("/rules?lang=en").text
    assert api.parameters("reference", version="reference-7")["plunder_loading"]["value"] == "sack_or_own"
    en = client.get("/rules?lang=en&version=reference-7").text
    para = en[en.index('id="plunder-loading"'):].split("</p>", 1)[0]
    assert "its own colonies" in para and "PRJ-58" in para and "TRS-2" in para and "plunder_loading = sack" in para
    ca = client.get("/rules?lang=ca&version=reference-7").text
    para_ca = ca[ca.index('id="plunder-loading"'):].split("</p>", 1)[0]
    assert "les seves colònies" in para_ca and "PRJ-58" in para_ca


def test_PLY_1_the_rules_page_says_when_a_nation_cannot_pay_for_a_card_in_its_first_cycle(client):
    """Issue 15: "every nation can afford to play cards in its first cycle, or the rules page
    says why not". Among heuristic bots a nation could pay for a card in cycle 1 in 82-96% of
    games (docs/bots.md), not always: the page says why, with the ruleset's start money."""
    money = api.parameters("reference")["start_money"]["value"]
    en = client.get("/rules?lang=en").text
    first = en[en.index('id="first-cycle"'):].split("</p>", 1)[0]
    assert f"starts with ${money}" in first and "PLY-1" in first and "CARD-1" in first
    assert "less money than the card costs" in first and "won no card" in first
    ca = client.get("/rules?lang=ca").text
    first_ca = ca[ca.index('id="first-cycle"'):].split("</p>", 1)[0]
    assert f"comença amb {money} $" in first_ca and "PLY-1" in first_ca


def test_PRJ_75_PRJ_77_the_rules_page_says_which_crown_colonies_start_empty_by_player_count(client):
    """reference-7 (PRJ-79, PRJ-77): with 2 players the Spanish own 4 of the 8 Crown colonies,
    with 3 players 6; the rules page names those that start empty, one paragraph per count, in
    both languages, from the ruleset's data; reference-5 (every Crown colony at every count) has
    no such paragraph, and a variant's own numbers are what a game's page would say."""
    by_count = api.crown_colonies("reference", version="reference-7")
    assert [len(by_count[n]["kept"]) for n in (2, 3, 4, 5)] == [4, 6, 8, 8]
    assert [by_count[3]["names"][c] for c in by_count[3]["vacated"]] == ["Cartagena", "Portobelo"]
    assert [by_count[2]["names"][c] for c in by_count[2]["vacated"]] == ["San Juan", "Margarita", "Cartagena",
                                                                       "Portobelo"]
    en = client.get("/rules?lang=en&version=reference-7").text
    two, three = [p.split("</p>", 1)[0] for p in en.split('<p class="crown-colonies">')[1:]]
    assert "with 2 players" in two and "4 of the map&#39;s 8 Crown colonies" in two and "PRJ-75" in two
    assert "San Juan, Margarita, Cartagena, Portobelo start as empty colony spaces" in two
    assert "with 3 players" in three and "6 of the map&#39;s 8 Crown colonies" in three
    assert "Cartagena, Portobelo start as empty colony spaces" in three
    # the other counts are said once, after the paragraphs of the counts named (not in each)
    assert en.count("every Crown colony is there (CYC-4)") == 1 and "every Crown colony is there" not in two
    assert 'id="crown-colonies-others"' in en
    ca = client.get("/rules?lang=ca&version=reference-7").text
    two_ca, three_ca = [p.split("</p>", 1)[0] for p in ca.split('<p class="crown-colonies">')[1:]]
    assert "amb 2 jugadors" in two_ca and "San Juan, Margarita, Cartagena, Portobelo comencen" in two_ca
    assert "amb 3 jugadors" in three_ca and "Cartagena, Portobelo comencen" in three_ca
    for six in (client.get("/rules?version=reference-6&lang=en").text,   # PRJ-77: 6 with 2 and 3 players,
                client.get("/rules?lang=en").text):                      # and reference-8's PRJ-85
        (para,) = [p.split("</p>", 1)[0] for p in six.split('<p class="crown-colonies">')[1:]]
        assert "2 or 3 players" in para and "Cartagena, Portobelo start" in para
    five_text = client.get("/rules?version=reference-5&lang=en").text
    assert 'class="crown-colonies"' not in five_text and 'id="crown-colonies-others"' not in five_text
    from pax_hispanica.web.present.info import win_condition

    five = win_condition("reference", "reference-7", (("crown_colonies.5", 3),))["crown"]
    assert [(c["players"], c["kept"], len(c["vacated"])) for c in five] == [([2], 4, 4), ([3], 6, 2), ([5], 3, 5)]


def test_PRJ_78_PRJ_79_the_rules_page_says_the_smugglers_bribe_and_the_kings_share_by_player_count(client):
    """A ruleset or variant whose SMUGGLER bribe or King's share differs by player count says so
    on the rules page, in both languages, from the data (reference-7: with 2 players a $2 bribe
    and 1 Chest in 3 to the Crown, PRJ-79; with 5 players no Chest to the Crown, PRJ-69);
    reference-4, the same at every count, says nothing."""
    from pax_hispanica.web.present.info import win_condition

    assert win_condition("reference", None)["bribes"] == [{"players": [2], "value": 2, "base": 1}]
    assert win_condition("reference", None)["kings_shares"] == [{"players": [2], "value": 3, "base": 2},
                                                                {"players": [5], "value": 0, "base": 2}]
    assert win_condition("reference", "reference-6")["bribes"] == []
    flat = win_condition("reference", "reference-6", (("smuggler_bribe", 3), ("smuggler_bribe.4", 0),
                                                       ("smuggler_bribe.5", 0)))["bribes"]
    assert flat == [{"players": [4, 5], "value": 0, "base": 3}]
    en = client.get("/rules?lang=en").text
    (bribe,) = [p.split("</p>", 1)[0] for p in en.split('<p class="smuggler-bribe">')[1:]]
    assert "with 2 players" in bribe and "pays $2 for each Chest" in bribe and "$1" not in bribe
    assert "TRS-3, PRJ-78" in bribe
    assert "With any other player count a SMUGGLER fleet pays $1 a Chest" in en.split('id="smuggler-bribe-others">')[1]
    two, five = [p.split("</p>", 1)[0] for p in en.split('<p class="kings-share">')[1:]]
    assert "with 2 players" in two and "1 of every 3 Chests" in two and "1 of every 2" not in two
    assert "with 5 players" in five and "claims no Chest" in five and "PRJ-68" in five
    # the other counts (3 and 4) are said once, after both, not as "other counts" in each: with
    # 2 players the share differs from the one with 5, so neither is every other count's
    assert "1 of every 2" not in five and en.count("With any other player count the Crown claims 1 of every 2") == 1
    assert 'id="kings-share-others"' in en
    ca = client.get("/rules?lang=ca").text
    (bribe_ca,) = [p.split("</p>", 1)[0] for p in ca.split('<p class="smuggler-bribe">')[1:]]
    assert "amb 2 jugadors" in bribe_ca and "paga 2 $ per cada Cofre" in bribe_ca
    assert ca.count('<p class="kings-share">') == 2
    assert "la Corona reclama 1 de cada 2 d’aquests Cofres" in ca.split('id="kings-share-others">')[1]
    old = client.get("/rules?version=reference-4&lang=en").text
    assert 'class="smuggler-bribe"' not in old and 'class="kings-share"' not in old
    assert 'id="smuggler-bribe-others"' not in old and 'id="kings-share-others"' not in old
    # a variant that sets the base sets every count (PRJ-31), so only a count set with it differs,
    # and the others' sentence is then the "none" one (rules_kings_share_others_none)
    none_base = win_condition("reference", None, (("kings_crown_share", 0), ("kings_crown_share.3", 2)))["kings_shares"]
    assert none_base == [{"players": [3], "value": 2, "base": 0}]
