"""The rules page's opening (issue 38, "Teach the game"): the game in plain words, a section per
part of the game, with the ruleset's own numbers (of the version the page shows, PRJ-50), two
pictures of the board drawn by the game's map (present/svgmap), the four legalities compared
(present/legality) and, under each section, the IDs of the rules it sums up as links to the rule
list below (the rule IDs are the reference, not the headline)."""
from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from markupsafe import Markup

from pax_hispanica.engine.vocab import NATIONS as VOCAB_NATIONS
from pax_hispanica.web.engine_port import api
from pax_hispanica.web.learn.lessons import scenario
from pax_hispanica.web.present import legality, svgmap
from pax_hispanica.web.present.i18n import Tr
from pax_hispanica.web.present.info import ruleset_info

# (section, the rules it sums up); its heading and text are the catalogue's rules_plain_<section>_h
# and rules_plain_<section>
SECTIONS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("goal", ("CYC-2", "CYC-3")),
    ("board", ("CYC-4",)),
    ("cycle", ("CYC-1", "GDS-2")),
    ("goods", ("GDS-1", "GDS-3", "LAB-1", "LAB-2", "LAB-3", "GDS-4", "GDS-5", "GDS-6", "GDS-7")),
    ("auction", ("AUC-1", "AUC-2", "AUC-3", "AUC-4", "AUC-5", "AUC-6")),
    ("play", ("PLY-1", "HND-1", "HND-2", "HND-3", "HND-4")),
    ("sail", ("SAIL-1", "SAIL-2", "LOAD-1", "LOAD-2", "LOAD-3", "LOAD-4")),
    ("battle", ("BAT-1", "BAT-2", "BAT-3", "BAT-4", "BAT-5")),
    ("treasure", ("TRS-1", "TRS-2", "TRS-3", "TRS-4", "TRS-5", "TRS-6")),
)
# the pictures, after the section they show: the start of a 3-player game, and the Sail lesson's
# position (fleets at sea, Chests on colonies)
PICTURES = {"board": "start", "sail": "sail"}
NATIONS = tuple(map(str, VOCAB_NATIONS[:3]))      # a 3-player game's default seating


def _numbers(version: str | None) -> dict[str, Any]:
    p = api.parameters("reference", None, version=version, extended=True)
    return {k: v["value"] for k, v in p.items()}


@lru_cache(maxsize=8)
def _picture_svg(which: str, lang: str) -> str:
    """A picture of the board, drawn as the game page draws it, as an image: no ids (the page
    holds two), nothing to focus or click, named by its caption."""
    if which == "start":
        game = api.Game.new(api.Config(players=len(NATIONS), nations=list(NATIONS)), 1)
    else:
        game = api.from_scenario(scenario("sail"))
    info = ruleset_info()
    base = Tr(lang)
    tr = Tr(lang, [base.nation(n) for n in NATIONS], info.names)
    svg = svgmap.render(api.view(game.state, None, include_state=False), tr, info)
    svg = re.sub(r'\s(?:id|tabindex|role|aria-label|aria-labelledby|aria-describedby|data-place|data-options)="[^"]*"',
                 "", svg)
    return svg.replace("<svg ", f'<svg role="img" aria-labelledby="picture-{which}-caption" ', 1)


def guide(tr: Tr, version: str | None = None) -> dict[str, Any]:
    """The plain-words guide in the page's language: sections, pictures, legalities."""
    n = _numbers(version)

    def money(x: int) -> str:
        return tr("money_amount", n=x)
    fmt = {"cycles": n["cycles"], "prestige": n["prestige_to_win"], "money": money(n["money_per_prestige"]),
           "colony": n["prestige_per_colony"], "employ": money(n["employ_cost"]), "goods": n["goods_per_year"],
           "cap": n["chest_cap"], "income": money(n["colony_income"]), "sell": money(n["sell_price"]),
           "limit": n["hand_limit"], "moves": n["fleet_moves"], "ships": n["max_ships"],
           "capacity": n["ship_capacity"]}
    known = set(api.RULES)
    sections = []
    for sid, rules in SECTIONS:
        pics = []
        if sid in PICTURES:
            which = PICTURES[sid]
            pics.append({"id": which, "svg": Markup(_picture_svg(which, tr.lang)), "caption": tr(f"rules_pic_{which}")})
        sections.append({"id": sid, "heading": tr(f"rules_plain_{sid}_h"), "text": tr(f"rules_plain_{sid}", **fmt),
                         "rules": [r for r in rules if r in known], "pictures": pics})
    return {"sections": sections, "legalities": legality.explain(tr, version=version)}
