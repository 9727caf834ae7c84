"""Catalan prose around interpolated names: the article a place's name takes in a sentence
("des de la Catedral de Caracas", "a l'Oceà Atlàntic") and the contractions and elisions of a
sentence's own preposition with the name that follows it ("de" + "el Golf" -> "del Golf",
"a" + "els" -> "als", "de" + "Europa" -> "d'Europa").

Only the seam between the template's words and a value is touched: the inside of a name is
never rewritten (a card called "Secretario de Indias" keeps its Spanish "de"), and a name shown
on its own (a map label, a heading) keeps no article. `Tr` (present/i18n.py) formats every Catalan
sentence with `format_prose`; `article` and `join` are the pieces, tested one by one
(tests/web/test_catalan.py)."""
from __future__ import annotations

import re
from collections.abc import Mapping
from functools import lru_cache
from string import Formatter
from typing import Any

# The article a place name takes in running text, by its first word (a common noun: "the Gulf
# of Mexico"); names that are proper nouns (Cuba, Caracas, La Habana, Europa) take none.
ARTICLE_BY_FIRST_WORD = {
    "Catedral": "la", "Visita": "la", "Missió": "la", "Mina": "la",
    "Golf": "el", "Estret": "el", "Canal": "el", "Oceà": "el", "Pas": "el", "Carib": "el", "Mar": "el",
    "Refugi": "el", "Mercat": "el",
    "Petites": "les", "Islas": "les", "Illes": "les",
    "Nueva": "la", "Tierra": "la",
}
# the fields of events, actions and messages that hold a place's name
PLACE_KEYS = frozenset({"zone", "colony", "site", "to", "from", "where", "place", "target"})

APOSTROPHE = "'"
_VOWEL = "aeiouàèéíïòóúü"
# "de" and "la"/"el" are elided before a vowel or h + vowel, except before a semivowel
# (i/u + vowel: "de iode", "la ua"; hi/hu + vowel: "de hiena", "la huitena")
_ELIDES = re.compile(rf"^(?:h?[{_VOWEL}])", re.IGNORECASE)
_SEMIVOWEL = re.compile(rf"^h?[iu][{_VOWEL}]", re.IGNORECASE)
# a preposition of the template right before the value (its last word, after a space or at the start)
_PREP = re.compile(r"(?:(?<=\s)|^)(des de|fins a|cap a|per a|de|a|per)$", re.IGNORECASE)
_OPEN, _CLOSE = "\ue000", "\ue001"


def elides(word: str) -> bool:
    """Whether "de", "el" or "la" before `word` loses its vowel (d', l')."""
    return bool(_ELIDES.match(word)) and not _SEMIVOWEL.match(word)


def article(name: str) -> str:
    """`name` with the article it takes in a sentence, or unchanged: "Catedral de Caracas" ->
    "la Catedral de Caracas", "Oceà Atlàntic" -> "l'Oceà Atlàntic", "Cuba" -> "Cuba"."""
    art = ARTICLE_BY_FIRST_WORD.get(name.split(" ", 1)[0]) if name else None
    if art is None:
        return name
    if art in ("el", "la") and elides(name):
        return "l" + APOSTROPHE + name
    return f"{art} {name}"


def join(prep: str, value: str) -> str:
    """The template's preposition (its last word(s)) followed by `value`, contracted:
    ("de", "el Golf") -> "del Golf", ("a", "els X") -> "als X", ("per", "el X") -> "pel X",
    ("des de", "Europa") -> "des d'Europa", ("de", "la Visita") -> "de la Visita"."""
    head, _, last = prep.rpartition(" ")
    lead = head + " " if head else ""
    low = last.lower()
    m = re.match(r"(els?) (.*)$", value, re.DOTALL)
    if m and low in ("de", "a", "per"):
        art, rest = m.groups()
        fused = {("de", "el"): "del", ("de", "els"): "dels", ("a", "el"): "al", ("a", "els"): "als",
                 ("per", "el"): "pel", ("per", "els"): "pels"}[(low, art)]
        if last[:1].isupper():
            fused = fused.capitalize()
        return f"{lead}{fused} {rest}"
    if low == "de" and elides(value):
        return f"{lead}{last[0]}{APOSTROPHE}{value}"
    return f"{prep} {value}"


class _Marked:
    """A value in a template, formatted between markers that say where it begins and ends."""

    def __init__(self, key: str, value: Any, place: bool) -> None:
        self.key, self.value, self.place = key, value, place

    def __format__(self, spec: str) -> str:
        text = format(self.value, spec)
        if self.place and not spec:
            text = article(text)
        return f"{_OPEN}{text}{_CLOSE}"

    def __str__(self) -> str:
        return self.__format__("")


class _MarkedMap(dict[str, Any]):
    def __init__(self, values: Mapping[str, Any], place_keys: frozenset[Any]) -> None:
        super().__init__()
        self._values, self.place_keys = values, place_keys

    def __missing__(self, key: str) -> Any:
        return _Marked(key, self._values[key], key in self.place_keys)


def format_prose(template: str, values: Mapping[str, Any], place_keys: frozenset[Any] = PLACE_KEYS) -> str:
    """template.format_map(values) in Catalan: each place value with its article, each value
    joined to the preposition before it (`join`); a sentence that begins with an article
    begins with a capital. A missing key behaves as `values` says (SafeDict, StrictDict)."""
    if not _needs_prose(template, place_keys):
        return template.format_map(values)
    text = template.format_map(_MarkedMap(values, place_keys))
    if _OPEN not in text:
        return text
    out: list[str] = []
    literal = ""                     # the template's own words right before the value
    for piece in re.split(f"({_OPEN}.*?{_CLOSE})", text, flags=re.DOTALL):
        if not piece.startswith(_OPEN):
            out.append(piece)
            literal = piece
            continue
        value = piece[1:-1]
        m = _PREP.search(literal[:-1]) if literal.endswith(" ") else None
        if m and value:
            out[-1] = literal[:m.start()] + join(m.group(1), value)
        else:
            if not "".join(out).strip() and starts_with_article(value):
                value = value[:1].upper() + value[1:]     # "La Catedral de ... "
            out.append(value)
        literal = ""
    return "".join(out)


@lru_cache(maxsize=4096)
def _needs_prose(template: str, place_keys: frozenset[Any]) -> bool:
    """Whether any value of `template` is a place or follows a preposition (else it is
    formatted as it is: most sentences, at no extra cost)."""
    try:
        fields = list(Formatter().parse(template))
    except ValueError:
        return True          # let format_map say what is wrong with it
    return any(name is not None and (name.split(".")[0].split("[")[0] in place_keys
                                     or (_PREP.search(literal[:-1]) is not None and literal.endswith(" ")))
               for literal, name, _spec, _conv in fields)


def starts_with_article(text: str) -> bool:
    """Whether `text` begins with a lower-case article (one `article` put there)."""
    return bool(re.match(rf"(?:el|la|els|les) |l{APOSTROPHE}", text))
