"""The Jinja environment of every page and the helpers templates call (`_()`, `card()`,
`compact_json`, `rule_link`, `client_text`). Nothing is registered here: web/templating.py puts
every global and filter on it, once, when the app is created.

Each package keeps the templates of the pages its routes render in its own `templates/` folder
(issue 38); the layout (`base.html`) and the parts several packages' pages share are
present/templates. The loader looks in every folder of TEMPLATE_PACKAGES, so a template is
named by its file name alone (`{% extends "base.html" %}`, `get_template("_board.html")`), and
every name lives in one folder only (tests/web/test_layout.py)."""
from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

from jinja2 import ChoiceLoader, Environment, FileSystemLoader, pass_context, select_autoescape
from markupsafe import Markup

from pax_hispanica.web.present import cards as cardtext
from pax_hispanica.web.present.i18n import Tr

WEB = Path(__file__).parent.parent
# the packages of web/ with a templates/ folder: the shared layout and parts (present) first
TEMPLATE_PACKAGES = ("present", "play", "accounts", "social", "notify", "analysis_jobs", "learn")
TEMPLATE_DIRS = tuple(WEB / package / "templates" for package in TEMPLATE_PACKAGES)

env = Environment(loader=ChoiceLoader([FileSystemLoader(str(d)) for d in TEMPLATE_DIRS]),
                  autoescape=select_autoescape(["html"]), extensions=["jinja2.ext.i18n"])


# Jinja2's i18n extension: `_("key")` and `ngettext(singular, plural, n)` in a template use the
# gettext catalogue of the page's language, which every page passes as `t` (a Tr)
@pass_context
def gettext(ctx: Any, key: str, **kw: Any) -> str:
    ret: str = ctx["t"](key, **kw)
    return ret


@pass_context
def ngettext(ctx: Any, singular: str, plural: str, n: int, **kw: Any) -> str:
    ret: str = ctx["t"].n(singular, n, **kw)
    return ret


@pass_context
def card(ctx: Any, cid: Any, mark: bool = False) -> Markup:
    """`{{ card(id) }}`: a card you can read (cards.card_html) in the page's language."""
    tr = ctx["t"]
    return cardtext.card_html(cid, tr, getattr(tr, "ruleset", "reference"), mark=mark)


@pass_context
def card_effects(ctx: Any, cid: Any) -> str:
    """`{{ card_effects(id) }}`: what a card does, in words ("Gain 1 Ship."), for the cards of
    the hand, which show it beside their name and cost (issue 38); the whole text stays the
    card's tip (card_texts)."""
    tr = ctx["t"]
    return " ".join(cardtext.describe(str(cid), tr, getattr(tr, "ruleset", "reference"))["effects"])


@pass_context
def card_list(ctx: Any) -> list[dict[str, Any]]:
    """Every card of the reference set in words, one row per card (copies counted), for /rules."""
    tr = ctx["t"]
    rows: dict[str, dict[str, Any]] = {}
    version = ctx.get("card_version")        # PRJ-50, PRJ-67: ?version= shows that version's costs
    if version:
        tr = copy.copy(tr)
        tr.ruleset_version = version
    for cid, _c in cardtext._game_cards(tr, "reference").items():
        key = cid.rsplit("-", 1)[0] if cid.rsplit("-", 1)[-1].isdigit() else cid
        if key in rows:
            rows[key]["copies"] += 1
        else:
            rows[key] = {**cardtext.describe(cid, tr), "copies": 1, "anchor": key}
    return sorted(rows.values(), key=lambda r: (r["deck"] != "market", r["name"]))


@pass_context
def card_texts(ctx: Any) -> Markup:
    tr = ctx["t"]
    return cardtext.card_texts(tr, getattr(tr, "ruleset", "reference"))


def compact_json(x: Any) -> Markup:
    """`{{ x|compact_json }}`: JSON for a data block in the page, as short as it goes (no spaces,
    letters as they are) and safe in HTML (<, >, & and ' escaped, as Jinja2's tojson does)."""
    text = json.dumps(x, ensure_ascii=False, separators=(",", ":"))
    return Markup(text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
                  .replace("'", "\\u0027"))


def rule_link(rule: Any, page: Any) -> str:
    """Where a rule id and its page point on the rules page."""
    p = str(page or "")
    digits = "".join(ch for ch in p.split(",")[0] if ch.isdigit() or ch == "-").split("-")[0]
    return f"/rules?rule={rule or ''}" + (f"#p{digits}" if "SEED" in p and digits else f"#{rule or ''}")


# the codes a refusal can carry that the page says in its own words (an engine code not listed
# here is said as "not_legal", with its rule)
ERROR_CODES = ("stale_version", "game_over", "wrong_seat", "not_your_turn", "nothing_to_undo", "busy",
               "rate_limited", "malformed", "too_large", "offline", "unknown_token", "damaged_game", "not_legal")


def client_text(tr: Tr) -> dict[str, Any]:
    """The words app.js needs, in the page's language."""
    return {"connected": tr("connected"), "disconnected": tr("disconnected"), "error": tr("error"),
            "rule": tr("rule"), "errors": {c: tr("err_" + c) for c in ERROR_CODES},
            "place_menu_title": tr("place_menu_title"), "place_menu_close": tr("place_menu_close")}
