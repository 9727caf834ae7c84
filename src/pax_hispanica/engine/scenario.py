"""Scenario files: set up a position directly, then apply a list of actions.

Format (JSON; docs/scenarios.md documents every field):
{
  "config": {"players": 3, "nations": ["spanish", "english", "french"]},
  "seed": 7,
  "position": {
    "cycle": 1, "year": "sail", "step": "voyages", "order": [2, 0, 1],
    "players": [{"money": 5, "prestige": 0, "hand": ["galeon-1"], "tableau": ["secretario-1"],
                 "fleet": {"zone": "cuba", "ships": 2, "legality": "PLUNDER", "cargo": ["chest"]},
                 "havens": ["jamaica"]}, ...],
    "decks": {"market": ["galeon-2", "..."], "haven": ["tortuga"]},   # top cards first; the rest keep their order
    "colonies": {"cuba.habana": {"owner": "crown" | 0 | null, "labour": "citizen" | "slave" | null,
                                  "chests": 2, "fort": true}},
    "sites": {"nueva_espana.mexica": 2},
    "rebels": {"jamaica": 1}
  },
  "actions": [{"seat": 2, "type": "move", "to": "caribe_occidental"}]
}
Every key of "position" is optional; what is not given stays as the seeded setup left it.
"""

from __future__ import annotations

from .cards import tableau_bonuses
from .errors import IllegalAction
from .flow import YEAR_STEPS, YEARS, Out, advance
from .setup import new_state
from .ruleset import LEGALITIES
from .state import CROWN, State


def _fail(msg: str):
    raise IllegalAction("bad_scenario", "PRJ-7", msg)


def _reorder(deck: list, top: list, name: str) -> list:
    for c in top:
        if c not in deck:
            _fail(f"scenario: card {c!r} is not in the {name} deck (is it in a hand?)")
    return list(top) + [c for c in deck if c not in top]


def build(scn: dict) -> tuple[State, list]:
    """The position of a scenario, before its actions."""
    unknown = set(scn) - {"config", "seed", "position", "actions", "description"}
    if unknown:
        _fail(f"scenario: unknown key(s) {sorted(unknown)}")
    st, events = new_state(scn["config"], scn.get("seed", 0), start=False)
    pos = scn.get("position", {})
    rs = st.rs
    allowed = {"cycle", "year", "step", "order", "players", "decks", "colonies", "sites", "rebels"}
    if set(pos) - allowed:
        _fail(f"scenario: unknown position key(s) {sorted(set(pos) - allowed)}")
    st = st.copy()
    st.stack, st.cursor, st.secrets = [], {}, {}
    st.cycle = pos.get("cycle", st.cycle)
    year = pos.get("year", YEARS[st.year])
    if year not in YEARS:
        _fail(f"scenario: year must be one of {YEARS}")
    st.year = YEARS.index(year)
    names = [f.__name__ for f in YEAR_STEPS[st.year]]
    step = pos.get("step", names[0])
    if step not in names:
        _fail(f"scenario: the {year} year has the steps {names}")
    st.step = names.index(step)
    if "order" in pos:
        if sorted(pos["order"]) != list(range(st.n)):
            _fail("scenario: order must list every seat once")
        st.order = list(pos["order"])
    hands_cards = []
    if len(pos.get("players", [])) > st.n:
        _fail(f"scenario: {len(pos['players'])} players given for a game of {st.n}")
    for s, p in enumerate(pos.get("players", [])):
        extra = set(p) - {"money", "prestige", "hand", "tableau", "fleet", "havens"}
        if extra:
            _fail(f"scenario: player {s}: unknown key(s) {sorted(extra)}")
        st.money[s] = p.get("money", st.money[s])
        st.prestige[s] = p.get("prestige", st.prestige[s])
        for c in p.get("hand", []) + [t if isinstance(t, str) else t[0] for t in p.get("tableau", [])]:
            if c not in rs.cards:
                _fail(f"scenario: player {s}: unknown card {c!r}")
            hands_cards.append(c)
        if "hand" in p:
            st.hands[s] = list(p["hand"])
        if "tableau" in p:
            st.tableaus[s] = [(t, None) if isinstance(t, str) else (t[0], t[1]) for t in p["tableau"]]
            for k, v in tableau_bonuses(rs, st.tableaus[s]).items():   # HND-1, GDS-7, SAIL-1
                getattr(st, k)[s] = v
        f = p.get("fleet", {})
        if set(f) - {"zone", "ships", "legality", "cargo"}:
            _fail(f"scenario: player {s}: unknown fleet key(s)")
        if "zone" in f:
            if f["zone"] not in rs.zone_index:
                _fail(f"scenario: unknown zone {f['zone']!r}")
            st.fzone[s] = rs.zone_index[f["zone"]]
        st.fships[s] = f.get("ships", st.fships[s])
        st.legality[s] = f.get("legality", st.legality[s])
        if st.legality[s] not in LEGALITIES:
            _fail(f"scenario: player {s}: legality is one of {', '.join(LEGALITIES)}")
        if "cargo" in f:
            if any(x not in ("chest", "citizen", "indigenous") for x in f["cargo"]):
                _fail("scenario: cargo items are 'chest', 'citizen' or 'indigenous'")
            st.cargo[s] = list(f["cargo"])
        if "havens" in p:
            if any(z not in rs.zone_index or not rs.is_land(rs.zone_index[z]) for z in p["havens"]):
                _fail(f"scenario: player {s}: havens are land zone ids")
            st.havens[s] = [rs.zone_index[z] for z in p["havens"]]
    if len(set(hands_cards)) != len(hands_cards):
        _fail("scenario: a card is held twice")
    st.market = [c for c in st.market if c not in hands_cards]
    st.haven = [c for c in st.haven if c not in hands_cards]
    decks = pos.get("decks", {})
    if "market" in decks:
        st.market = _reorder(st.market, decks["market"], "market")
    if "haven" in decks:
        st.haven = _reorder(st.haven, decks["haven"], "haven")
    for cid, col in pos.get("colonies", {}).items():
        if cid not in rs.col_index:
            _fail(f"scenario: unknown colony space {cid!r}")
        c = rs.col_index[cid]
        extra = set(col) - {"owner", "labour", "chests", "fort"}
        if extra:
            _fail(f"scenario: colony {cid}: unknown key(s) {sorted(extra)}")
        if col.get("owner") not in (None, "crown", *range(st.n)) or col.get("labour") not in (None, "citizen",
                                                                                               "slave"):
            _fail(f"scenario: colony {cid}: owner is a seat, 'crown' or null; labour 'citizen', 'slave' or null")
        owner = col.get("owner", st.col_owner[c])
        st.col_owner[c] = CROWN if owner == "crown" else owner
        st.col_labour[c] = col.get("labour", st.col_labour[c])
        st.col_chests[c] = col.get("chests", st.col_chests[c])
        st.col_fort[c] = col.get("fort", st.col_fort[c])
    for sid, n in pos.get("sites", {}).items():
        if sid not in st.site_ids:
            _fail(f"scenario: unknown site {sid!r}")
        st.site_count[st.site_ids.index(sid)] = n
    for zid, n in pos.get("rebels", {}).items():
        if zid not in rs.zone_index or not rs.is_land(rs.zone_index[zid]):
            _fail(f"scenario: unknown land zone {zid!r}")
        st.rebels[rs.zone_index[zid]] = n
    out = Out(st)
    out.emit("ScenarioLoaded", "PRJ-7", cycle=st.cycle, year=year, step=step)
    advance(st, out)
    return st, events + out.events
