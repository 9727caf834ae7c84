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
SEAT_KEYS = {"seat", "winner", "initiator", "attacker", "defender", "owner", "by", "player", "loser", "from_seat",
             "to_seat", "bidder", "supporter"}
HIDDEN_KEYS = {"seq", "type", "rule", "page", "to"}


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
    """Text in one language, with seat numbers turned into nation/player names."""

    def __init__(self, lang: str, seat_names: list[str] | None = None) -> None:
        self.lang = lang if lang in LANGS else "en"
        self.c = catalogue(self.lang)
        self.seat_names = seat_names or []

    def __call__(self, key: str, **kw: Any) -> str:
        s = self.c["ui"].get(key, humanize(key))
        return s.format_map(SafeDict(kw)) if kw else s

    def seat(self, s: Any) -> str:
        if isinstance(s, int) and not isinstance(s, bool) and 0 <= s < len(self.seat_names):
            return self.seat_names[s]
        if isinstance(s, int) and not isinstance(s, bool):
            return f"{self('seat')} {s + 1}"
        return str(s)

    def word(self, w: Any) -> str:
        if isinstance(w, bool):
            return "✓" if w else "✗"
        return self.c["words"].get(str(w), str(w)) if isinstance(w, str) else str(w)

    def value(self, key: str, v: Any) -> str:
        if key in SEAT_KEYS or key.endswith("_seat"):
            if isinstance(v, int) and not isinstance(v, bool):
                return self.seat(v)
            if isinstance(v, list):
                return ", ".join(self.seat(x) for x in v)
        if isinstance(v, list):
            if key in ("bids", "supports", "choices", "scores") and all(not isinstance(x, (dict, list)) for x in v):
                return ", ".join(f"{self.seat(i)} {self.word(x)}" for i, x in enumerate(v))
            return ", ".join(self.value("", x) for x in v)
        if isinstance(v, dict):
            parts = []
            for k, x in v.items():
                label = self.seat(int(k)) if str(k).isdigit() else humanize(k)
                parts.append(f"{label}: {self.value(str(k), x)}")
            return "; ".join(parts)
        if v is None:
            return "—"
        return self.word(v)

    def fields(self, d: dict) -> dict:
        return SafeDict({k: self.value(k, v) for k, v in d.items()})

    def event(self, ev: dict) -> str:
        tmpl = self.c["events"].get(str(ev.get("type")))
        if tmpl:
            return tmpl.format_map(self.fields(ev))
        parts = [f"{humanize(k)}: {self.value(k, v)}" for k, v in ev.items() if k not in HIDDEN_KEYS]
        return humanize(ev.get("type", "event")) + (" — " + ", ".join(parts) if parts else "")

    def action(self, a: dict) -> str:
        t = str(a.get("type"))
        tmpl = self.c["actions"].get(t)
        f = self.fields({k: v for k, v in a.items() if k != "seat"})
        f["buried_text"] = self.c["words"]["buried"] if a.get("buried") else ""
        f["target_text"] = self.c["words"]["on"].format(target=f["target"]) if a.get("target") is not None else ""
        f["source"] = self.word(a.get("source", ""))
        f["deck"] = self.word(a.get("deck", ""))
        f["side"] = self.word(a.get("side", ""))
        if tmpl:
            return tmpl.format_map(f)
        extra = [f"{humanize(k)} {self.value(k, v)}" for k, v in a.items() if k not in ("seat", "type")]
        return humanize(t) + (" — " + ", ".join(extra) if extra else "")

    def decision(self, d: dict | None) -> str:
        if not d:
            return ""
        name = str(d.get("decision", ""))
        return self.c["decisions"].get(name, humanize(name))
