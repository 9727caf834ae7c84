"""English and Catalan text for the page and the log, rendered from structured
events and actions. Unknown event or action types are rendered generically
from their fields, so a new engine event never breaks the page."""
from __future__ import annotations

import json
import re
from functools import lru_cache
from pathlib import Path
from typing import Any

LANGS = ("en", "ca")
_HERE = Path(__file__).parent / "locales"
SEAT_KEYS = {"seat", "seats", "winner", "initiator", "attacker", "defender", "owner", "by", "player", "loser",
             "from_seat", "to_seat", "bidder", "supporter", "supporters", "target_owner", "paid_to", "order",
             "ranking", "bidders", "committed"}
HIDDEN_KEYS = {"seq", "type", "rule", "page", "to", "salt", "hash", "seed_hash"}


@lru_cache(maxsize=None)
def catalogue(lang: str) -> dict:
    lang = lang if lang in LANGS else "en"
    data = json.loads((_HERE / f"{lang}.json").read_text(encoding="utf-8"))
    if lang != "en":  # fall back to English key by key
        en = catalogue("en")
        for section, values in en.items():
            if isinstance(values, dict):
                data[section] = {**values, **data.get(section, {})}
    return data


@lru_cache(maxsize=None)
def rule_pages(lang: str) -> list[dict]:
    """The seed rules summaries, one paragraph each, with the pages they cite."""
    lang = lang if lang in LANGS else "en"
    text = (_HERE / f"rules_{lang}.txt").read_text(encoding="utf-8")
    out: list[dict] = []
    seen: set[int] = set()
    for para in [p.strip() for p in text.split("\n\n") if p.strip()][1:]:
        cited = re.findall(r"\((?:pages?|pàgines?)[^)]*\)|(?:pages?|pàgines?) [\d–, ]+", para)
        pages = sorted({int(n) for c in cited for n in re.findall(r"\d+", c)})
        out.append({"text": para, "pages": pages, "anchors": [n for n in pages if n not in seen]})
        seen.update(pages)
    return out


def humanize(name: str) -> str:
    s = re.sub(r"(?<=[a-z])(?=[A-Z])", " ", str(name)).replace("_", " ").strip()
    return s[:1].upper() + s[1:]


class SafeDict(dict):
    def __missing__(self, key: str) -> str:
        return ""


class Tr:
    """Text in one language, with seat numbers turned into nation/player names
    and ids (zones, colonies, sites, cards) into their names."""

    def __init__(self, lang: str, seat_names: list[str] | None = None, names: dict | None = None) -> None:
        self.lang = lang if lang in LANGS else "en"
        self.c = catalogue(self.lang)
        self.seat_names = seat_names or []
        self.names = names or {}

    def __call__(self, key: str, **kw: Any) -> str:
        s = self.c["ui"].get(key, humanize(key))
        return s.format_map(SafeDict(kw)) if kw else s

    def seat(self, s: Any) -> str:
        if isinstance(s, int) and not isinstance(s, bool):
            if 0 <= s < len(self.seat_names):
                return self.seat_names[s]
            return f"{self('seat')} {s + 1}"
        if s is None:
            return "—"
        return self.word(s)

    def nation(self, n: Any) -> str:
        return self.c.get("nations", {}).get(str(n), str(n))

    def word(self, w: Any) -> str:
        if isinstance(w, bool):
            return "✓" if w else "✗"
        if not isinstance(w, str):
            return "—" if w is None else str(w)
        for section in ("words", "nations", "years", "places"):
            if w in self.c.get(section, {}):
                return self.c[section][w]
        return self.place_name(self.names.get(w, w))

    def place(self, zone_id: str, name: str) -> str:
        """A zone's name in this language (the ruleset's name unless the catalogue has one)."""
        return self.c.get("places", {}).get(zone_id, name)

    def place_name(self, name: str) -> str:
        """A ruleset name in this language: "Cathedral of Caracas" -> "Catedral de Caracas"."""
        for prefix, local in self.c.get("name_prefixes", {}).items():
            if name.startswith(prefix):
                return local + name[len(prefix):]
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
                    self.value(k, y) for k, y in x.items() if k not in HIDDEN_KEYS and k != "seat") for x in v)
            return ", ".join(self.value("", x) for x in v)
        if isinstance(v, dict):
            parts = []
            for k, x in v.items():
                label = self.seat(int(k)) if str(k).isdigit() else self.word(k)
                parts.append(f"{label}: {self.value(str(k), x)}")
            return "; ".join(parts) or "—"
        return self.word(v)

    def fields(self, d: dict) -> SafeDict:
        f = SafeDict({k: self.value(k, v) for k, v in d.items()})
        f["buried_text"] = self.c["words"]["buried"] if d.get("buried") else ""
        f["target_text"] = (self.c["words"]["on"].format(target=self.value("target", d["target"]))
                            if d.get("target") is not None else "")
        return f

    def event(self, ev: dict) -> str:
        tmpl = self.c["events"].get(str(ev.get("type")))
        if tmpl:
            try:
                return tmpl.format_map(self.fields(ev))
            except (ValueError, IndexError, KeyError, AttributeError):
                pass
        parts = [f"{humanize(k)}: {self.value(k, v)}" for k, v in ev.items() if k not in HIDDEN_KEYS]
        return humanize(ev.get("type", "event")) + (" — " + ", ".join(parts) if parts else "")

    def action(self, a: dict) -> str:
        t = str(a.get("type"))
        tmpl = self.c["actions"].get(t)
        if tmpl:
            try:
                return tmpl.format_map(self.fields({k: v for k, v in a.items() if k != "seat"}))
            except (ValueError, IndexError, KeyError, AttributeError):
                pass
        extra = [f"{humanize(k)} {self.value(k, v)}" for k, v in a.items() if k not in ("seat", "type")]
        return humanize(t) + (" — " + ", ".join(extra) if extra else "")

    def decision(self, d: dict | None) -> str:
        if not d:
            return ""
        name = str(d.get("decision") or d.get("d") or "")
        return self.c["decisions"].get(name, humanize(name))
