"""English and Catalan text for the page and the log, rendered from structured events and
actions through gettext catalogues (Babel): locales/<lang>/LC_MESSAGES/messages.po, compiled to
messages.mo (shipped, and read with the standard library's gettext, so the terminal game needs
no Babel; `python -m pax_hispanica.web.present.i18n` recompiles them, and a test checks they are up to
date). Each message is keyed: its context is the section ("ui", "events", "actions",
"counts", ...) and its msgid the key, so English is a translation like any other and a third
language is a copy of en/ for a translator. Counted words are gettext plurals (context "counts",
`Tr.n`, or "{field:count_key}" inside a sentence). Unknown event or action types are rendered
generically from their fields, so a new engine event never breaks the page (a test makes sure
no engine event needs that)."""
from __future__ import annotations

import io
import re
import sys
from functools import cache
from gettext import GNUTranslations as Translations
from pathlib import Path
from string import Formatter
from typing import Any

from pax_hispanica.web.present import catalan

LANGS = ("en", "ca")
DOMAIN = "messages"
_HERE = Path(__file__).parent.parent / "locales"
SEAT_KEYS = {"seat", "seats", "winner", "initiator", "attacker", "defender", "owner", "by", "player", "loser",
             "from_seat", "to_seat", "bidder", "supporter", "supporters", "target_owner", "paid_to", "order",
             "ranking", "bidders", "committed"}
HIDDEN_KEYS = {"seq", "type", "rule", "page", "to", "salt", "hash", "seed_hash"}


def po_path(lang: str) -> Path:
    return _HERE / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def compiled(lang: str) -> bytes:
    """The .mo bytes that the .po of `lang` compiles to (with Babel, of the web extra; reading the
    shipped .mo needs only the standard library's gettext, so the terminal game has its words
    without it)."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    with po_path(lang).open("rb") as f:
        cat = read_po(f, locale=lang, domain=DOMAIN)
    buf = io.BytesIO()
    write_mo(buf, cat)
    return buf.getvalue()


def compile_catalogues() -> list[Path]:
    """Write every language's messages.mo from its messages.po."""
    out = []
    for lang in LANGS:
        mo = po_path(lang).with_suffix(".mo")
        mo.write_bytes(compiled(lang))
        out.append(mo)
    return out


@cache
def translations(lang: str) -> Translations:
    """The gettext translations of `lang` (English behind any other language)."""
    lang = lang if lang in LANGS else "en"
    mo = po_path(lang).with_suffix(".mo")
    data = mo.read_bytes() if mo.exists() else compiled(lang)   # a checkout without .mo still works
    t = Translations(io.BytesIO(data))
    if lang != "en":
        t.add_fallback(translations("en"))
    return t


@cache
def catalogue(lang: str) -> dict[str, Any]:
    """The singular messages of `lang` (with English behind) as {section: {key: text}}."""
    lang = lang if lang in LANGS else "en"
    data: dict[str, Any] = {}
    chain = [translations(lang)] + ([translations("en")] if lang != "en" else [])
    for t in reversed(chain):
        for k, v in t._catalog.items():  # type: ignore[attr-defined]  # gettext's catalogue
            if isinstance(k, str) and "\x04" in k:
                section, key = k.split("\x04", 1)
                data.setdefault(section, {})[key] = v
    data["lang_name"] = data.get("meta", {}).get("lang_name", lang)
    return data


@cache
def own_keys(lang: str) -> dict[str, set[Any]]:
    """The keys that the catalogue of `lang` itself translates (no English fallback), by section."""
    out: dict[str, set[Any]] = {}
    for k in translations(lang)._catalog:  # type: ignore[attr-defined]  # gettext's catalogue
        k = k[0] if isinstance(k, tuple) else k
        if isinstance(k, str) and "\x04" in k:
            section, key = k.split("\x04", 1)
            out.setdefault(section, set()).add(key.split("\x00")[0])
    return out


@cache
def rule_pages(lang: str) -> list[dict[str, Any]]:
    """The seed rules summaries, one paragraph each, with the pages they cite."""
    lang = lang if lang in LANGS else "en"
    text = (_HERE / f"rules_{lang}.txt").read_text(encoding="utf-8")
    out: list[dict[str, Any]] = []
    seen: set[int] = set()
    for para in [p.strip() for p in text.split("\n\n") if p.strip()][1:]:
        cited = re.findall(r"\((?:pages?|pàgines?)[^)]*\)|(?:pages?|pàgines?) [\d–, ]+", para)
        pages = sorted({int(n) for c in cited for n in re.findall(r"\d+", c)})
        out.append({"text": para, "pages": pages, "anchors": [n for n in pages if n not in seen]})
        seen.update(pages)
    return out


class Fallback(LookupError):
    """A sentence had to be rendered generically (strict mode only)."""


def humanize(name: str) -> str:
    s = re.sub(r"(?<=[a-z])(?=[A-Z])", " ", str(name)).replace("_", " ").strip()
    return s[:1].upper() + s[1:]


class SafeDict(dict[str, Any]):
    def __missing__(self, key: str) -> str:
        return ""


class StrictDict(dict[str, Any]):
    def __missing__(self, key: str) -> str:
        raise Fallback(f"no field {key!r}")


class Count:
    """A number in a sentence: "{count}" is the number, "{count:chests}" the counted words in
    the right plural ("1 Chest", "2 Chests"; context "counts" of the catalogue)."""

    def __init__(self, n: int, tr: Tr) -> None:
        self.n, self.tr = n, tr

    def __str__(self) -> str:
        return str(self.n)

    def __format__(self, spec: str) -> str:
        return self.tr.n(spec, self.n) if spec else str(self.n)


class Tr:
    """Text in one language, with seat numbers turned into nation/player names
    and ids (zones, colonies, sites, cards) into their names. `strict` raises Fallback
    instead of rendering an event or action generically (for tests)."""

    # the game's ruleset, set by the pages and the terminal game for a card's cost (PRJ-67);
    # read with getattr and a default where a Tr may have none
    ruleset: str
    ruleset_version: str | None
    ruleset_params: tuple[Any, ...]

    def __init__(self, lang: str, seat_names: list[str] | None = None, names: dict[str, Any] | None = None,
                 strict: bool = False) -> None:
        self.lang = lang if lang in LANGS else "en"
        self.gt = translations(self.lang)
        self.c = catalogue(self.lang)
        self.seat_names = seat_names or []
        self.names = names or {}
        self.strict = strict

    def text(self, section: str, key: str) -> str | None:
        """The message `key` of `section`, or None when the catalogue has none."""
        if key not in self.c.get(section, {}):
            return None
        return self.gt.pgettext(section, key)

    def fill(self, template: str, values: dict[str, Any]) -> str:
        """template.format_map(values), in Catalan with the articles and contractions of the
        names put into it (catalan.format_prose: "des de la Catedral de ...", "al Golf ...")."""
        if self.lang == "ca":
            return catalan.format_prose(template, values)
        return template.format_map(values)

    def __call__(self, key: str, **kw: Any) -> str:
        s = self.text("ui", key)
        if s is None:
            s = humanize(key)
        return self.fill(s, SafeDict(kw)) if kw else s

    def n(self, key: str, n: int, **kw: Any) -> str:
        """The counted words `key` for the number n ("1 ship", "2 ships"), from the plurals of the catalogue."""
        s = self.gt.npgettext("counts", key, key + ".plural", n)
        if s in (key, key + ".plural"):
            if self.strict:
                raise Fallback(f"no plural {key!r}")
            return f"{n} {humanize(key).lower()}"
        return self.fill(s, SafeDict(kw, n=n))

    def seat(self, s: Any) -> str:
        if isinstance(s, int) and not isinstance(s, bool):
            if 0 <= s < len(self.seat_names):
                return self.seat_names[s]
            return f"{self('seat')} {s + 1}"
        if s is None:
            return "—"
        return self.word(s)

    def nation(self, n: Any) -> str:
        return self.text("nations", str(n)) or str(n)

    def word(self, w: Any) -> str:
        if isinstance(w, bool):
            return "✓" if w else "✗"
        if not isinstance(w, str):
            return "—" if w is None else str(w)
        for section in ("words", "nations", "years", "places"):
            if w in self.c.get(section, {}):
                return self.gt.pgettext(section, w)
        return self.place_name(self.names.get(w, w))

    def place(self, zone_id: str, name: str) -> str:
        """A zone's name in this language (the ruleset's name unless the catalogue has one)."""
        return self.text("places", zone_id) or name

    def place_name(self, name: str) -> str:
        """A ruleset name in this language: "Cathedral of Caracas" -> "Catedral de Caracas"."""
        for prefix, local in sorted(self.c.get("name_prefixes", {}).items(), key=lambda kv: -len(kv[0])):
            if name.startswith(prefix):
                ret: str = local + name[len(prefix):]
                return ret
        return name

    def value(self, key: str, v: Any) -> str:
        if key in SEAT_KEYS or key.endswith("_seat"):
            if isinstance(v, int) and not isinstance(v, bool):
                return self.seat(v)
            if isinstance(v, list) and all(isinstance(x, int) for x in v):
                return ", ".join(self.seat(x) for x in v)
        if key == "nations" and isinstance(v, list):
            return ", ".join(self.nation(x) for x in v)
        if isinstance(v, list):
            if key in ("bids", "scores", "money") and all(not isinstance(x, (dict, list)) for x in v):
                return ", ".join(f"{self.seat(i)} {self.word(x)}" for i, x in enumerate(v))
            if v and all(isinstance(x, dict) and "seat" in x for x in v):
                return "; ".join(self.seat(x["seat"]) + " " + ", ".join(
                    self.labelled(k, y) for k, y in x.items() if k not in HIDDEN_KEYS and k != "seat") for x in v)
            return ", ".join(self.value("", x) for x in v)
        if isinstance(v, dict):
            parts = []
            for k, x in v.items():
                label = self.seat(int(k)) if str(k).isdigit() else self.word(k)
                parts.append(f"{label}: {self.value(str(k), x)}")
            return "; ".join(parts) or "—"
        return self.word(v)

    def labelled(self, key: str, v: Any) -> str:
        """A field inside a list of records: "from money 2" with the label from the catalogue."""
        if key == "value" and isinstance(v, int) and not isinstance(v, bool):
            key = "money"                       # a revealed bid
        label = self.text("fields", key)
        if label is None:
            if self.strict:
                raise Fallback(f"no label for field {key!r}")
            label = humanize(key).lower()
        return self.fill(label, SafeDict(value=self.value(key, v)))

    def fields(self, d: dict[str, Any], wanted: set[Any] | None = None) -> dict[str, Any]:
        """The fields of an event or action as words (only those in `wanted`, if given)."""
        f = (StrictDict if self.strict else SafeDict)()
        for k, v in d.items():
            if wanted is not None and k not in wanted:
                continue
            is_seat = k in SEAT_KEYS or k.endswith("_seat")
            f[k] = Count(v, self) if isinstance(v, int) and not isinstance(v, bool) and not is_seat \
                else self.value(k, v)
        f["buried_text"] = self.text("words", "buried") if d.get("buried") else ""
        f["target_text"] = (self.fill(self.text("words", "on") or "", {"target": self.value("target", d["target"])})
                            if d.get("target") is not None else "")
        return f

    def _sentence(self, section: str, d: dict[str, Any]) -> str | None:
        tmpl = self.text(section, str(d.get("type")))
        if tmpl:
            try:
                wanted = {name.split(".")[0].split("[")[0] for _t, name, _s, _c in Formatter().parse(tmpl) if name}
                # a list it names is empty (or a card null): "<type>.none" says so in a sentence,
                # never "Chests placed on: ." or "Cathedrals refilled with Citizens: —."
                if any(k in d and (d[k] is None or d[k] in ([], {})) for k in wanted):
                    none = self.text(section, f"{d.get('type')}.none")
                    if none is not None:
                        tmpl = none
                        wanted = {n.split(".")[0].split("[")[0] for _t, n, _s, _c in Formatter().parse(tmpl) if n}
                return self.fill(tmpl, self.fields(d, wanted))
            except Fallback:
                raise
            except (ValueError, IndexError, KeyError, AttributeError) as e:
                if self.strict:
                    raise Fallback(f"{d.get('type')}: {e}") from e
        elif self.strict:
            raise Fallback(f"no sentence for {section} {d.get('type')!r}")
        return None

    def event(self, ev: dict[str, Any]) -> str:
        text = self._sentence("events", ev)
        if text is not None:
            return text
        parts = [f"{humanize(k)}: {self.value(k, v)}" for k, v in ev.items() if k not in HIDDEN_KEYS]
        return humanize(ev.get("type", "event")) + (" — " + ", ".join(parts) if parts else "")

    def action(self, a: dict[str, Any], view: dict[str, Any] | None = None) -> str:
        """An action in words; with the viewer's `view`, an auction names its lot (AUC-2):
        the deck's face-up card, or "a hidden card" for buried treasure."""
        a = {k: v for k, v in a.items() if k != "seat"}
        if a.get("type") == "initiate" and "lot" not in a:
            if a.get("buried"):
                a["lot"] = self.text("words", "lot_hidden") or "a hidden card"
            else:
                top = ((view or {}).get("decks") or {}).get(str(a.get("deck")), {}).get("top")
                a["lot"] = self.word(top) if top else (self.text("words", "lot_top") or "the top card")
        text = self._sentence("actions", a)
        if text is not None:
            return text
        extra = [f"{humanize(k)} {self.value(k, v)}" for k, v in a.items() if k not in ("seat", "type")]
        return humanize(str(a.get("type"))) + (" — " + ", ".join(extra) if extra else "")

    def deed(self, a: dict[str, Any], view: dict[str, Any] | None = None) -> str:
        """An action as something its seat did, naming who ("Spanish (Ana) bid $1"; the replay's
        captions): the catalogue's "did" sentence, else "<who>: <the action>"."""
        who = self.seat(a.get("seat")) if isinstance(a.get("seat"), int) else ""
        tmpl = self.text("did", f"{a.get('type')}.{a.get('source')}") or self.text("did", str(a.get("type")))
        if tmpl and who:
            # the action's own words, with its seat named ("{who}") and its lot as `action` says it
            b = {k: v for k, v in a.items() if k != "seat"}
            if b.get("type") == "initiate" and "lot" not in b:
                if b.get("buried"):
                    b["lot"] = self.text("words", "lot_hidden") or "a hidden card"
                else:
                    top = ((view or {}).get("decks") or {}).get(str(b.get("deck")), {}).get("top")
                    b["lot"] = self.word(top) if top else (self.text("words", "lot_top") or "the top card")
            try:
                wanted = {name.split(".")[0].split("[")[0] for _t, name, _s, _c in Formatter().parse(tmpl) if name}
                fields = self.fields(b, wanted - {"who"})
                fields["who"] = who
                return self.fill(tmpl, fields)
            except (ValueError, IndexError, KeyError, AttributeError, Fallback):
                if self.strict:
                    raise
        text = self.action(a, view)
        return self("deed", who=who, action=text) if who else text

    def decision(self, d: dict[str, Any] | None) -> str:
        if not d:
            return ""
        name = str(d.get("decision") or d.get("d") or "")
        return self.text("decisions", name) or humanize(name)


if __name__ == "__main__":       # python -m pax_hispanica.web.present.i18n: compile the .po files
    for path in compile_catalogues():
        print(path, file=sys.stderr)
