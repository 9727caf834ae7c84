"""Cards you can read (issue 14): every card shown on a page carries its name, cost, deck,
conditions and effects in words, in the page's language. The words are rendered from the
card data of the ruleset (`api.card_catalogue`): one sentence per effect kind, condition and
target kind in the gettext catalogue (contexts "effects", "requires", "targets", "bespoke"),
so a new card of existing kinds needs no new text and no new template."""
from __future__ import annotations

from functools import lru_cache
from typing import Any

from markupsafe import Markup, escape

from .i18n import Count, Fallback, SafeDict, Tr, humanize
from .seam import api


@lru_cache(maxsize=8)
def catalogue(ruleset: str = "reference") -> dict[str, dict]:
    try:
        return api.card_catalogue(ruleset)
    except Exception:          # an unknown ruleset: cards show their ids only
        return {}


@lru_cache(maxsize=8)
def sell_price(ruleset: str = "reference") -> int | None:
    try:
        return int(api.parameters(ruleset)["sell_price"]["value"])
    except Exception:
        return None


def _say(tr: Tr, section: str, key: str, params: dict) -> str:
    tmpl = tr.text(section, key)
    if tmpl is None:             # a kind the catalogue has no sentence for yet: its name and numbers
        if tr.strict:
            raise Fallback(f"no sentence for {section} {key!r}")
        return humanize(key) + (" (" + ", ".join(f"{k} {v}" for k, v in params.items()) + ")" if params else "")
    fields = SafeDict({k: Count(v, tr) if isinstance(v, int) and not isinstance(v, bool) else tr.word(v)
                       for k, v in params.items()})
    return tmpl.format_map(fields)


def describe(cid: str, tr: Tr, ruleset: str = "reference") -> dict:
    """The card `cid` in words: {"id", "name", "cost", "deck", "requires": [...], "effects": [...], "target"}."""
    card = catalogue(ruleset).get(str(cid).split("#")[0])
    if card is None:
        return {"id": cid, "name": tr.word(cid), "cost": None, "deck": None, "deck_text": "", "requires": [],
                "effects": [tr("card_unknown")], "target": None, "sell": None}
    requires = []
    for k, v in (card.get("requires") or {}).items():
        if k == "legality" and isinstance(v, list):
            v = " / ".join(tr.word(x) for x in v)
        elif k == "nation":
            v = tr.nation(v)
        requires.append(_say(tr, "requires", k, {"n": v, "value": v}))
    effects = [_say(tr, "effects", e["kind"], {k: x for k, x in e.items() if k != "kind"})
               for e in card.get("effects") or []]
    if card.get("bespoke"):
        effects.append(_say(tr, "bespoke", card["bespoke"], {}))
    target = _say(tr, "targets", card["target"], {}) if card.get("target") else None
    price = sell_price(ruleset) if card.get("deck") == "market" else None
    return {"id": card["id"], "name": tr.place_name(card["name"]), "cost": card.get("cost"),
            "deck": card.get("deck"), "deck_text": tr(f"card_deck_{card.get('deck')}"),
            "requires": requires, "effects": effects, "target": target,
            "sell": tr("card_sell", price=price) if price is not None else None}


def card_html(cid: Any, tr: Tr, ruleset: str = "reference", extra: str = "", mark: bool = False) -> Markup:
    """A card as a focusable button whose text (cost, deck, conditions, effects) shows on
    hover, on focus and on tap (static/app.js toggles .open), and is part of the button's
    accessible name, so a screen reader reads it too. `mark` adds data-card="<id>" (the hand
    only: elsewhere a page names cards as players see them, never by id)."""
    d = describe(str(cid), tr, ruleset)
    e = escape
    lines = [f'<span class="card-tip-head">{e(d["name"])}</span>']
    meta = [x for x in (tr("card_cost", cost=d["cost"]) if d["cost"] is not None else "", d["deck_text"]) if x]
    if meta:
        lines.append(f'<span class="card-meta">{e(" · ".join(meta))}</span>')
    reqs = " ".join(d["requires"]) if d["requires"] else tr("card_no_requires")
    lines.append(f'<span class="card-sec">{e(tr("card_requires"))}:</span> {e(reqs)}')
    lines.append(f'<span class="card-sec">{e(tr("card_effects"))}:</span> {e(" ".join(d["effects"]))}')
    if d["target"]:
        lines.append(e(d["target"]))
    if d["sell"]:
        lines.append(e(d["sell"]))
    tip = "".join(f'<span class="card-line">{x}</span>' for x in lines)
    deck = f' {e(d["deck"])}' if d["deck"] else ""
    cost = f' <small class="card-cost">${e(d["cost"])}</small>' if d["cost"] is not None else ""
    marked = f' data-card="{e(d["id"])}"' if mark else ""
    return Markup(f'<button type="button" class="card-ref{deck}"{marked} aria-expanded="false">'
                  f'<span class="card-name">{e(d["name"])}</span>{cost}{Markup(extra)}'
                  f'<span class="card-tip" role="tooltip">{tip}</span></button>')
