"""The four legalities explained where they are shown and chosen (issue 38, "Teach the game"):
for each, where a fleet under it may load Chests (TRS-2..TRS-4), what each Chest scores when
unloaded in Europe (TRS-5) and what it risks (BAT-5), in a game's own numbers: its ruleset
version (PRJ-50), variant (PRJ-31) and player count (PRJ-78's bribe by count). Every number is
read through `api.parameters`; none is copied here. present/templates/_legality.html lays them out (a
table of all four, or one legality's details where a fleet shows it)."""
from __future__ import annotations

from functools import lru_cache
from typing import Any

from pax_hispanica.engine.vocab import BY_CROWN_FAVOUR, CONQUISTADOR, PLUNDER, PRIVATEER, SMUGGLER
from pax_hispanica.web.engine_port import api
from pax_hispanica.web.present.i18n import Tr

# the order they are compared in: the Crown's own, then the Crown's licence, then the outlaws
LEGALITIES = tuple(map(str, BY_CROWN_FAVOUR))
# the sign each fleet carries on the map (svgmap.LEGALITY_MARK draws the same)
SIGNS: dict[str, str] = {PLUNDER: "☠", PRIVATEER: "⚔", SMUGGLER: "◆", CONQUISTADOR: "✠"}


@lru_cache(maxsize=64)
def numbers(ruleset: str = "reference", version: str | None = None, params: tuple[Any, ...] = (),
            players: int = 3) -> dict[str, Any]:
    """The Treasure numbers of a game (TRS-3..TRS-5, PRJ-82), with the SMUGGLER's bribe at its
    player count (PRJ-78)."""
    p = api.parameters(ruleset, dict(params) or None, version=version, extended=True)

    def v(name: str, default: Any = 0) -> Any:
        return p[name]["value"] if name in p else default
    return {"bribe": v(f"smuggler_bribe.{players}", v("smuggler_bribe")),
            "fee": v("conquistador_spanish_fee"), "share": v("privateer_crown_share"),
            "conquistador_prestige": v("conquistador_prestige"),
            "privateer_prestige": v("privateer_prestige"), "privateer_money": v("privateer_money"),
            "smuggler_money": v("smuggler_money"), "plunder_money": v("plunder_money"),
            "plunder_chests": v("plunder_chests_per_prestige"),
            "plunder_loading": v("plunder_loading", "sack")}


def explain(tr: Tr, ruleset: str = "reference", version: str | None = None, params: tuple[Any, ...] = (),
            players: int = 3) -> list[dict[str, str]]:
    """[{code, name, sign, loads, scores, risk}] for the four legalities, in the page's language."""
    n = numbers(ruleset, version, tuple(params), players)

    def money(x: int) -> str:
        return tr("money_amount", n=x)
    own = n["plunder_loading"] != "sack"        # PRJ-38's house rule: PLUNDER loads its own colonies too
    texts: dict[str, tuple[str, str]] = {
        CONQUISTADOR: (tr("legality_loads_CONQUISTADOR", fee=money(n["fee"])),
                       tr("legality_scores_CONQUISTADOR", prestige=n["conquistador_prestige"])),
        PRIVATEER: (tr("legality_loads_PRIVATEER", share=n["share"]),
                    tr("legality_scores_PRIVATEER", prestige=n["privateer_prestige"],
                       money=money(n["privateer_money"]))),
        SMUGGLER: (tr("legality_loads_SMUGGLER", bribe=money(n["bribe"])),
                   tr("legality_scores_SMUGGLER", money=money(n["smuggler_money"]))),
        PLUNDER: (tr("legality_loads_PLUNDER_own" if own else "legality_loads_PLUNDER"),
                  tr("legality_scores_PLUNDER", money=money(n["plunder_money"]), chests=n["plunder_chests"])),
    }
    return [{"code": code, "name": tr.word(code), "sign": SIGNS[code], "loads": texts[code][0],
             "scores": texts[code][1], "risk": tr(f"legality_risk_{code}")} for code in LEGALITIES]


def of_view(view: Any, tr: Tr) -> list[dict[str, str]]:
    """The legalities in the numbers of the game a view is of (its ruleset, version, variant and
    player count)."""
    view = view if isinstance(view, dict) else {}
    params = view.get("ruleset_params") or {}
    try:
        key = tuple(sorted(params.items()))
        hash(key)
    except (AttributeError, TypeError):
        key = ()
    players = len(view.get("players") or []) or 3
    return explain(tr, str(view.get("ruleset") or "reference"), view.get("ruleset_version"), key, players)


@lru_cache(maxsize=8)
def _card_legalities(ruleset: str = "reference") -> dict[str, str]:
    """{card id: the legality it sets} for the ruleset's cards (a `set_legality` effect)."""
    out = {}
    for cid, card in api.card_catalogue(ruleset).items():
        for e in card.get("effects") or []:
            if e.get("kind") == "set_legality":
                out[str(cid)] = str(e.get("value"))
    return out


def offered(legal: Any, ruleset: str = "reference") -> list[str]:
    """The legalities a decision's options would set (a card that changes a fleet's legality,
    TRS-6, played now): where the choice is offered, the page compares them."""
    cards = _card_legalities(ruleset)
    found: list[str] = []
    for d in legal if isinstance(legal, list) else []:
        for o in d.get("options", []) if isinstance(d, dict) else []:
            code = cards.get(str(o.get("card"))) if isinstance(o, dict) and o.get("type") == "play" else None
            if code and code not in found:
                found.append(code)
    return found


def of_seat(view: Any, seat: Any) -> str | None:
    """The legality of `seat`'s fleet in a view, or None."""
    players = view.get("players") if isinstance(view, dict) else None
    if not isinstance(seat, int) or not isinstance(players, list) or not 0 <= seat < len(players):
        return None
    fleet = players[seat].get("fleet") if isinstance(players[seat], dict) else None
    return str(fleet["legality"]) if isinstance(fleet, dict) and fleet.get("legality") else None
