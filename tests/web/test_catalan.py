"""Catalan prose around names (web/present/catalan.py): a place takes its article in a sentence and the
sentence's preposition contracts or elides with it ("des de la Catedral de Caracas", "fins al
Golf de Mèxic", "des d'Europa"), while the inside of a name (a Spanish card title) and a name
shown on its own stay as they are."""
from __future__ import annotations

import re
from string import Formatter

import pytest

from pax_hispanica import api
from pax_hispanica.web.present import catalan
from pax_hispanica.web.present.i18n import Count, Tr, catalogue

RS = api.load_ruleset("reference")
NAMES = {**dict(zip(RS.zone_ids, RS.zone_names)), **dict(zip(RS.col_ids, RS.col_names)),
         **dict(zip(RS.site_ids, RS.site_names))}


@pytest.mark.parametrize("name,want", [
    ("Catedral de Caracas", "la Catedral de Caracas"), ("Visita de Maní", "la Visita de Maní"),
    ("Golf de Mèxic", "el Golf de Mèxic"), ("Oceà Atlàntic", "l'Oceà Atlàntic"),
    ("Estret de Florida", "l'Estret de Florida"), ("Petites Antilles", "les Petites Antilles"),
    ("Pas dels Vents", "el Pas dels Vents"), ("Cuba", "Cuba"), ("La Habana", "La Habana"), ("Europa", "Europa"),
    ("", "")])
def test_a_place_takes_its_article_in_a_sentence(name, want):
    assert catalan.article(name) == want


@pytest.mark.parametrize("prep,value,want", [
    ("de", "el Golf de Mèxic", "del Golf de Mèxic"), ("a", "el Golf", "al Golf"), ("per", "el Pas", "pel Pas"),
    ("de", "els Vents", "dels Vents"), ("a", "els Vents", "als Vents"), ("per", "els Vents", "pels Vents"),
    ("fins a", "el Carib Occidental", "fins al Carib Occidental"), ("des de", "el Refugi", "des del Refugi"),
    ("De", "el Golf", "Del Golf"),
    ("de", "Europa", "d'Europa"), ("des de", "Europa", "des d'Europa"), ("de", "Honduras", "d'Honduras"),
    ("de", "Arawak", "d'Arawak"), ("de", "l'Oceà Atlàntic", "de l'Oceà Atlàntic"),
    ("de", "la Catedral de Caracas", "de la Catedral de Caracas"), ("a", "Europa", "a Europa"),
    ("de", "Hiena", "de Hiena"), ("de", "iode", "de iode"), ("de", "Cuba", "de Cuba"),  # semivowels, consonants
    ("de", "les Petites Antilles", "de les Petites Antilles"), ("a", "la Visita", "a la Visita")])
def test_the_preposition_contracts_or_elides_with_what_follows(prep, value, want):
    assert catalan.join(prep, value) == want


def test_only_the_seam_is_touched_never_the_inside_of_a_name():
    out = catalan.format_prose("{seat} guanya {card} per {price} $.", {"seat": "Espanya",
                                                                       "card": "Secretario de Indias", "price": 3})
    assert out == "Espanya guanya Secretario de Indias per 3 $."
    # a value that is not a place takes no article even if its first word is one's
    assert catalan.format_prose("de {card}", {"card": "Golf de Mèxic"}) == "de Golf de Mèxic"
    assert catalan.format_prose("de {zone}", {"zone": "Golf de Mèxic"}) == "del Golf de Mèxic"
    # "a" inside a word, or a word ending in "de", is not a preposition
    assert catalan.format_prose("Lada {zone}", {"zone": "Golf"}) == "Lada el Golf"
    # only the template's own words count as the preposition, never the end of a value
    assert catalan.format_prose("{seat} {zone}", {"seat": "Joan de", "zone": "Europa"}) == "Joan de Europa"
    # a template with no place and no preposition before a value is formatted as it is
    assert catalan.format_prose("{seat} paga {n} $", {"seat": "Anna", "n": 3}) == "Anna paga 3 $"
    # a sentence that begins with a place begins with a capital
    assert catalan.format_prose("{site}: buida.", {"site": "Catedral de Caracas"}) == "La Catedral de Caracas: buida."


def test_missing_fields_behave_as_the_mapping_says():
    from pax_hispanica.web.present.i18n import Fallback, SafeDict, StrictDict
    assert catalan.format_prose("a {zone} i {x}", SafeDict(zone="Golf")) == "al Golf i "
    with pytest.raises(Fallback):
        catalan.format_prose("a {zone} i {x}", StrictDict(zone="Golf"))


def test_the_events_and_actions_read_naturally_in_catalan():
    tr = Tr("ca", ["Espanya", "Anglaterra"], NAMES)
    assert tr.event({"type": "VoyageBegan", "seat": 0, "zone": "europe"}) == "Espanya salpa des d'Europa."
    moved = tr.event({"type": "FleetMoved", "seat": 1, "zone": "golfo_mexico", "moves_left": 2})
    assert moved.startswith("Anglaterra navega fins al Golf de Mèxic ("), moved
    site = next(s for s, n in NAMES.items() if n.startswith("Cathedral of Caracas"))
    labour = tr.action({"type": "labour", "source": "citizen", "colony": "caracas", "site": site})
    assert labour.endswith("des de la Catedral de Caracas"), labour
    # English is untouched
    en = Tr("en", ["Spanish", "English"], NAMES)
    assert en.event({"type": "VoyageBegan", "seat": 0, "zone": "europe"}) == "Spanish sets sail from Europe."


class Filler(dict):
    """The other fields of a template: a number (which "{n:chests}" can format)."""

    def __missing__(self, key: str) -> Count:
        return Count(2, Tr("ca"))


def _templates_with_places(section: str) -> list[tuple[str, str, list[str]]]:
    tr = Tr("ca")
    out = []
    for key in catalogue("ca").get(section, {}):
        tmpl = tr.text(section, key) or ""
        fields = [f for _t, f, _s, _c in Formatter().parse(tmpl) if f in catalan.PLACE_KEYS]
        if fields:
            out.append((key, tmpl, fields))
    return out


@pytest.mark.parametrize("section", ["events", "actions", "why", "ui"])
def test_every_catalan_sentence_with_a_place_reads_naturally_for_every_place(section):
    """Each template of the catalogue that names a place, filled with every zone, colony and
    site of the reference map: no "de el"/"a el"/"de els", no "de" before a vowel, no bare
    common-noun place ("des de Catedral de ...") after a preposition."""
    tr = Tr("ca", ["Espanya", "Anglaterra"], NAMES)
    templates = _templates_with_places(section)
    assert templates
    bad = re.compile(r"\b(?:de|a|per) (?:el|els)\b|\bde (?=h?[aeiouàèéíòóú])|"
                     r"\b(?:de|a|per|en) (?=(?:" + "|".join(catalan.ARTICLE_BY_FIRST_WORD) + r")\b)", re.IGNORECASE)
    problems = []
    for key, tmpl, fields in templates:
        for pid in NAMES:
            local = tr.word(pid)
            out = tr.fill(tmpl, Filler({f: local for f in fields}, seat="Anna"))
            # the name's own words are the name's ("Catedral de Caracas"): only its first word is
            # looked at, where the sentence meets it
            head = local.split(" ", 1)[0]
            masked = out.replace(local, head + (" #" if " " in local else ""))
            if bad.search(masked):
                problems.append((key, local, out))
    assert not problems, problems[:10]


def test_a_nation_is_named_in_catalan_as_one_subject_of_a_singular_verb():
    """Every Catalan sentence about a seat agrees with a singular subject ("{seat} salpa",
    "Només {nation} pot jugar"), so a nation is named by its country ("Espanya salpa"), never
    by its people in the plural ("Espanyols salpa"); the Crown keeps its article."""
    nations = catalogue("ca")["nations"]
    for key in RS.nations:
        name = nations[key]
        assert name != catalogue("en")["nations"][key], key          # translated
        assert not re.search(r"(?:os|es|ns|ls)$", name), (key, name)   # no plural of a people
    assert nations["crown"] == "la Corona"
