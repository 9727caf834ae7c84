"""Cards you can read (issue 14): every card shown on a page carries its name, cost, deck,
conditions and effects in words, in the page's language. The words are rendered from the
card data of the ruleset (`api.card_catalogue`): one sentence per effect kind, condition and
target kind in the gettext catalogue (contexts "effects", "requires", "targets", "bespoke"),
so a new card of existing kinds needs no new text and no new template."""
from __future__ import annotations

from functools import lru_cache
from typing import Any

try:                        # the web extra; the terminal game (tui.py) uses the plain-text functions only
    from markupsafe import Markup, escape
except ImportError:         # pragma: no cover - a base install without the web extra
    from html import escape as _escape

    Markup = str            # type: ignore[misc,assignment]

    def escape(s: Any) -> str:      # type: ignore[misc]
        return _escape(str(s))

from pax_hispanica.web.engine_port import api
from pax_hispanica.web.present.i18n import Count, Fallback, SafeDict, Tr, humanize
from pax_hispanica.web.present.legality import explain as explain_legalities


@lru_cache(maxsize=32)
def catalogue(ruleset: str = "reference", version: str | None = None,
              params: tuple[tuple[str, Any], ...] = ()) -> dict[str, dict[str, Any]]:
    """The cards of `ruleset` at `version` (PRJ-50) with a game's variant `params` (PRJ-31): a
    card's cost may differ between them (PRJ-67)."""
    try:
        return api.card_catalogue(ruleset, dict(params) or None, version=version)
    except Exception:          # an unknown ruleset (or version): cards show their ids only
        return {} if version is None and not params else catalogue(ruleset)


def _game_cards(tr: Tr, ruleset: str) -> dict[str, dict[str, Any]]:
    """The catalogue of the game (or page) `tr` speaks for: its version and variant, if it has them."""
    return catalogue(ruleset, getattr(tr, "ruleset_version", None), getattr(tr, "ruleset_params", ()))


@lru_cache(maxsize=8)
def sell_price(ruleset: str = "reference") -> int | None:
    try:
        return int(api.parameters(ruleset)["sell_price"]["value"])
    except Exception:
        return None


def _say(tr: Tr, section: str, key: str, params: dict[str, Any]) -> str:
    tmpl = tr.text(section, key)
    if tmpl is None:             # a kind the catalogue has no sentence for yet: its name and numbers
        if tr.strict:
            raise Fallback(f"no sentence for {section} {key!r}")
        return humanize(key) + (" (" + ", ".join(f"{k} {v}" for k, v in params.items()) + ")" if params else "")
    fields = SafeDict({k: Count(v, tr) if isinstance(v, int) and not isinstance(v, bool) else tr.word(v)
                       for k, v in params.items()})
    return tr.fill(tmpl, fields)


def describe(cid: str, tr: Tr, ruleset: str = "reference") -> dict[str, Any]:
    """The card `cid` in words: {"id", "name", "cost", "deck", "requires": [...], "effects": [...], "target"}."""
    card = _game_cards(tr, ruleset).get(str(cid).split("#")[0])
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
    effects += legality_notes(card, tr, ruleset)
    target = _say(tr, "targets", card["target"], {}) if card.get("target") else None
    price = sell_price(ruleset) if card.get("deck") == "market" else None
    return {"id": card["id"], "name": tr.place_name(card["name"]), "cost": card.get("cost"),
            "deck": card.get("deck"), "deck_text": tr(f"card_deck_{card.get('deck')}"),
            "requires": requires, "effects": effects, "target": target,
            "sell": tr("card_sell", price=price) if price is not None else None}


def legality_notes(card: dict[str, Any], tr: Tr, ruleset: str = "reference") -> list[str]:
    """A card that changes a fleet's legality (TRS-6) says what the new one scores in Europe,
    where the choice is made: the hand, the card's tip, the rules page's catalogue (issue 38;
    present/legality.py, in the game's own numbers)."""
    codes = [e.get("value") for e in card.get("effects") or [] if e.get("kind") == "set_legality"]
    if not codes:
        return []
    rows = explain_legalities(tr, ruleset, getattr(tr, "ruleset_version", None),
                              tuple(getattr(tr, "ruleset_params", None) or ()))
    return [f"{tr('legality_scores')}: {r['scores']}" for r in rows if r["code"] in codes]


def text_key(cid: str) -> str:
    """The id of a card's text: copies share it ("galeon-2" -> "galeon")."""
    base, _, n = str(cid).rpartition("-")
    return base if base and n.isdigit() else str(cid)


def text_lines(d: dict[str, Any], tr: Tr) -> list[str]:
    """A card's full text as plain lines (the terminal's `?` and tip_html's content): name,
    cost and deck, conditions, effects, target, sale."""
    meta = [x for x in (tr("card_cost", cost=d["cost"]) if d["cost"] is not None else "", d["deck_text"]) if x]
    lines = [d["name"] + (" — " + " · ".join(meta) if meta else "")]
    lines.append(f'{tr("card_requires")}: ' + (" ".join(d["requires"]) if d["requires"] else tr("card_no_requires")))
    lines.append(f'{tr("card_effects")}: ' + " ".join(d["effects"]))
    lines += [x for x in (d["target"], d["sell"]) if x]
    return lines


def short_text(d: dict[str, Any], tr: Tr) -> str:
    """A card on one line: `Galleon ($2): Gain 1 Ship.` (its name, cost and effects;
    "2 $" in Catalan)."""
    cost = f" ({tr('money_amount', n=d['cost'])})" if d["cost"] is not None else ""
    return f"{d['name']}{cost}: " + " ".join(d["effects"])


def tip_html(d: dict[str, Any], tr: Tr) -> str:
    """A card's text as HTML lines (escaped): name, cost and deck, conditions, effects, target, sale."""
    e = escape
    lines = [f'<span class="card-tip-head">{e(d["name"])}</span>']
    meta = [x for x in (tr("card_cost", cost=d["cost"]) if d["cost"] is not None else "", d["deck_text"]) if x]
    if meta:
        lines.append(f'<span class="card-meta">{e(" · ".join(meta))}</span>')
    reqs = " ".join(d["requires"]) if d["requires"] else tr("card_no_requires")
    lines.append(f'<span class="card-sec">{e(tr("card_requires"))}:</span> {e(reqs)}')
    lines.append(f'<span class="card-sec">{e(tr("card_effects"))}:</span> {e(" ".join(d["effects"]))}')
    if d["target"]:
        lines.append(str(e(d["target"])))
    if d["sell"]:
        lines.append(str(e(d["sell"])))
    return "".join(f'<span class="card-line">{x}</span>' for x in lines)


def card_texts(tr: Tr, ruleset: str = "reference") -> Markup:
    """Every card's text once per page, hidden (outside the board, so live updates never resend
    it): a card button points at its text with aria-describedby, which screen readers read, and
    static/cards.js shows it beside the button on hover, focus and tap."""
    seen: dict[str, str] = {}
    for cid in _game_cards(tr, ruleset):
        key = text_key(cid)
        if key not in seen:
            seen[key] = tip_html(describe(cid, tr, ruleset), tr)
    body = "".join(f'<div id="cardtext-{escape(k)}" class="card-text">{v}</div>' for k, v in seen.items())
    return Markup(f'<div id="card-texts" hidden>{body}</div>')


def card_html(cid: Any, tr: Tr, ruleset: str = "reference", mark: bool = False) -> Markup:
    """A card as a focusable button: its name and cost, described (aria-describedby) by its text
    in the page's hidden card texts (card_texts), which static/cards.js shows on hover, focus
    and tap. `mark` adds data-card="<id>" (the hand only: elsewhere a page names cards as
    players see them, never by id)."""
    d = describe(str(cid), tr, ruleset)
    e = escape
    deck = f' {e(d["deck"])}' if d["deck"] else ""
    # money written as the catalogue writes it everywhere ("$2" in English, "2 $" in Catalan)
    cost = f' <small>{e(tr("money_amount", n=d["cost"]))}</small>' if d["cost"] is not None else ""
    marked = f' data-card="{e(d["id"])}"' if mark else ""
    # kept short: a board holds many cards, and every update that changes a part resends them
    return Markup(f'<button type="button" class="card-ref{deck}"{marked} aria-describedby="cardtext-{e(text_key(d["id"]))}">'
                  f'{e(d["name"])}{cost}</button>')
