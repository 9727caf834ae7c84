"""The numbers a variant may change (PRJ-31) and the named sets of house rules (PRJ-83) in the
player's words (issue 38): the lobby's form of named parameters, the refusals of a variant, and
every page that says what a game's variant is. No page shows a parameter's id.

Words come from the catalogues: a parameter's name is its key in the section "params", a word
value (`prestige_goal = "held"`) its key in "param_values" (a zone of `start_zone` is named as
the map names it), a named set of house rules its key in "house_rule_sets" and what it does in
"house_rule_about". A number by player count (`kings_crown_share.3`) is its base's name with the
count, a card's cost (`card_cost.galeon`) the card's name (tests/web/test_variant_form.py checks
that every parameter the engine offers has its words in both languages).
"""
from __future__ import annotations

import re
from functools import cache
from typing import Any

from pax_hispanica.web.engine_port import PARAM_CHOICES, api
from pax_hispanica.web.present import cards as cardtext
from pax_hispanica.web.present.i18n import Tr, humanize

# The lobby's groups of the parameters, in the form's order (a base parameter the engine adds
# later and no group lists goes in the last group; its words are still the catalogue's).
BASE_GROUPS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("length", ("cycles", "prestige_to_win", "prestige_goal", "goal_from_cycle", "money_per_prestige",
                "prestige_per_colony", "crown_colony_prestige")),
    ("setup", ("start_money", "start_ships", "plunder_start_galleons", "start_zone", "setup_rebels",
               "supply_citizens", "supply_indigenous", "supply_chests")),
    ("goods", ("goods_per_year", "chest_cap", "die_sides", "slave_death", "slave_revolt", "colony_income",
               "crown_colony_income", "employ_cost", "employ_range")),
    ("cards", ("auctions_per_player", "hand_limit", "sell_price")),
    ("fleets", ("fleet_moves", "max_ships", "ship_capacity")),
    ("treasure", ("smuggler_bribe", "conquistador_spanish_fee", "privateer_crown_share", "kings_crown_share",
                  "conquistador_prestige", "privateer_prestige", "privateer_money", "smuggler_money",
                  "plunder_money", "plunder_chests_per_prestige", "plunder_loading")),
)
CARD_COST = "card_cost"
# the field of the lobby's forms that carries a parameter: "p.<name>" (play/variants.py reads it)
FIELD_PREFIX = "p."


@cache
def parameters() -> dict[str, dict[str, Any]]:
    """What a variant may change and its usual value and range (api.parameters, extended)."""
    return api.parameters("reference", None, extended=True)


@cache
def house_rule_sets() -> dict[str, dict[str, Any]]:
    return api.house_rule_sets()


@cache
def _zones() -> tuple[tuple[str, str], ...]:
    """The map's zones (id, the ruleset's name): where `start_zone` may put the fleets."""
    rs = api.load_ruleset("reference")
    return tuple(zip(rs.zone_ids, rs.zone_names, strict=True))


def choices(name: str) -> tuple[str, ...]:
    """The values a word parameter may take, as the engine checks them (a zone of the map for
    `start_zone`)."""
    if name == "start_zone":
        return tuple(z for z, _ in _zones())
    return tuple(PARAM_CHOICES.get(name, ()))


def card_name(card: str, tr: Tr) -> str:
    """A card's name by the id its cost is set by (`card_cost.galeon`: the copies galeon-1, ...)."""
    ids = cardtext.catalogue("reference")
    cid = card if card in ids else next((c for c in ids if c.rsplit("-", 1)[0] == card), card)
    return str(cardtext.describe(cid, tr)["name"])


def label(name: str, tr: Tr) -> str:
    """A parameter's name in words: "Cycles in a game", "Cost of Galleon", "The Crown's share
    of the King's colonies, with 3 players"."""
    own = tr.text("params", name)
    if own is not None:
        return own
    base, _, rest = name.partition(".")
    if base == CARD_COST and rest:
        return tr("param_card_cost", card=card_name(rest, tr))
    if rest.isdigit():
        return tr("param_by_count", name=label(base, tr), n=int(rest))
    return humanize(name)


def value_words(name: str, value: Any, tr: Tr) -> str:
    """A parameter's value in words: a number as it is, a word value from the catalogue, a zone
    by its name on the map."""
    if name == "start_zone":
        return tr.place(str(value), dict(_zones()).get(str(value), str(value)))
    if isinstance(value, str):
        return tr.text("param_values", value) or value
    return str(value)


def set_name(name: str, tr: Tr) -> str:
    """A named set of house rules in words ("The rules of version 7")."""
    return tr.text("house_rule_sets", name) or humanize(name)


def set_about(name: str, tr: Tr) -> str:
    return tr.text("house_rule_about", name) or ""


def version_words(version: object, tr: Tr) -> str:
    """A ruleset version in words: "reference-8" -> "version 8" ("versió 8"); another name as it
    is (a ruleset folder of one's own)."""
    m = re.fullmatch(r"reference-(\d+)", str(version or ""))
    return tr("ruleset_version_words", n=m.group(1)) if m else str(version or "")


def variant_text(params: dict[str, Any] | None, tr: Tr, with_set: bool = True) -> str:
    """A game's or table's variant in words, "House rules: The rules of version 7; Cycles in a
    game: 3" ("" for none): a named set of house rules by its name (without it, `with_set`
    False: a page that names the set apart), not the numbers it sets, unless changed again."""
    params = dict(params or {})
    named = params.pop("house_rules", None)
    from_set = house_rule_sets().get(str(named), {}).get("params", {}) if named is not None else {}
    parts = [f"{tr('house_rules')}: {set_name(str(named), tr)}"] if named is not None and with_set else []
    parts += [f"{label(str(k), tr)}: {value_words(str(k), v, tr)}" for k, v in params.items()
              if k not in from_set or from_set[k] != v]
    return "; ".join(parts)


def _row(name: str, spec: dict[str, Any], tr: Tr, sent: dict[str, Any], prefix: str, row_label: str) -> dict[str, Any]:
    usual = value_words(name, spec.get("value"), tr)
    rng = spec.get("range")
    return {"name": name, "field": FIELD_PREFIX + name, "id": prefix + name.replace(".", "-").replace("_", "-"),
            "label": row_label, "type": spec.get("type"), "usual": usual,
            "least": rng[0] if rng else None, "most": rng[1] if rng else None,
            "hint": (tr("param_usual_range", usual=usual, least=rng[0], most=rng[1]) if rng
                     else tr("param_usual", usual=usual)),
            "choices": [(c, value_words(name, c, tr)) for c in choices(name)] if spec.get("type") != "int" else [],
            "value": str(sent.get(FIELD_PREFIX + name) or "")}


def form_groups(tr: Tr, sent: dict[str, Any] | None = None, prefix: str = "p-") -> list[dict[str, Any]]:
    """The lobby's form of named parameters: groups of rows, each {name, field, id, label,
    type, usual, least, most, hint, choices (word parameters), value (as a refused form sent
    it)}. Every parameter the engine offers is in one group."""
    specs, sent = parameters(), sent or {}
    listed = {n for _, names in BASE_GROUPS for n in names}
    groups: list[dict[str, Any]] = []
    for key, names in BASE_GROUPS:
        rows = [_row(n, specs[n], tr, sent, prefix, label(n, tr)) for n in names if n in specs]
        if key == BASE_GROUPS[-1][0]:    # a base parameter no group lists yet
            rows += [_row(n, s, tr, sent, prefix, label(n, tr)) for n, s in specs.items()
                     if "." not in n and n not in listed]
        groups.append({"key": key, "title": tr(f"param_group_{key}"), "rows": rows})
    by_base: dict[str, list[str]] = {}
    for n in specs:
        if "." in n:
            by_base.setdefault(n.split(".", 1)[0], []).append(n)
    for base, dotted in by_base.items():
        if base == CARD_COST:
            rows = [_row(n, specs[n], tr, sent, prefix, card_name(n.split(".", 1)[1], tr))
                    for n in dotted]
            rows.sort(key=lambda r: r["label"])
            title = tr("param_group_card_cost")
        else:
            rows = [_row(n, specs[n], tr, sent, prefix, tr.n("players", int(n.split(".", 1)[1])))
                    for n in dotted]
            title = tr("param_group_by_count", name=label(base, tr))
        groups.append({"key": base, "title": title, "rows": rows})
    return groups


def set_options(tr: Tr) -> list[dict[str, Any]]:
    """The named sets of house rules: {id, name, about} in words."""
    return [{"id": k, "name": set_name(k, tr), "about": set_about(k, tr)} for k in house_rule_sets()]
