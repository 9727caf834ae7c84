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
The shape (keys and types) is declared in `scenario_schema` and published as
data/schema/scenario.schema.json; what needs the ruleset or the game is checked here.
"""

from __future__ import annotations

from typing import Any, NoReturn

from pydantic import ValidationError

from . import years  # noqa: F401  (registers the years' steps: build works without importing core)
from .cards import tableau_bonuses
from .errors import IllegalAction, short
from .flow import YEAR_STEPS, YEARS, Out, advance
from .scenario_schema import SCENARIO, name_entry
from .schema import first_problem
from .keys import seed_hash
from .ruleset import Rulesets
from .setup import new_state
from .state import CROWN, State, replaced
from .vocab import CARGO, LEGALITY, labour_of

Raw = dict[str, Any]          # a JSON object, its shape already checked by scenario_schema


def _fail(msg: str) -> NoReturn:
    raise IllegalAction("bad_scenario", "PRJ-7", msg)


def _word(err: Raw, entry: str) -> str | None:
    """Wordings for union-typed keys, where pydantic reports one error per alternative."""
    loc = err["loc"]
    if "owner" in loc or "labour" in loc:
        return f"{entry}: owner is a seat, 'crown' or null; labour 'citizen', 'slave' or null"
    if "tableau" in loc:
        return f"{entry}: tableau entries are card ids or [card id, target]"
    if loc[-1:] == ("year",):
        return f"year must be one of {tuple(map(str, YEARS))}"
    return None


def check_shape(scn: object) -> None:
    """The scenario's keys and types, against the declared schema (scenario_schema.SCENARIO)."""
    try:
        SCENARIO.validate_python(scn)
    except ValidationError as e:
        _fail(first_problem("scenario", scn, e, name_entry, _word))


def _reorder(deck: list[str], top: list[str], name: str) -> list[str]:
    for c in top:
        if c not in deck:
            _fail(f"scenario: card {short(c)} is not in the {name} deck (is it in a hand?)")
    return list(top) + [c for c in deck if c not in top]


def _when(st: State, pos: Raw) -> tuple[str, str]:
    """cycle, year and step; the step must be one of the year's."""
    st.cycle = pos.get("cycle", st.cycle)
    year = pos.get("year", YEARS[st.year])
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
    return year, step


def _cards_of(st: State, s: int, p: Raw) -> list[str]:
    """Hand and tableau of seat s (tableau bonuses applied); the cards it holds."""
    rs = st.rs
    held: list[str] = p.get("hand", []) + [t if isinstance(t, str) else t[0] for t in p.get("tableau", [])]
    for c in held:
        if c not in rs.cards:
            _fail(f"scenario: player {s}: unknown card {short(c)}")
    if "hand" in p:
        st.hands[s] = list(p["hand"])
    if "tableau" in p:
        st.tableaus[s] = [(t, None) if isinstance(t, str) else (t[0], t[1]) for t in p["tableau"]]
        for k, v in tableau_bonuses(rs, st.tableaus[s]).items():   # HND-1, GDS-7, SAIL-1
            getattr(st, k)[s] = v
    return held


def _fleet(st: State, s: int, f: Raw) -> None:
    rs = st.rs
    if "zone" in f:
        if f["zone"] not in rs.zone_index:
            _fail(f"scenario: unknown zone {short(f['zone'])}")
        st.fzone[s] = rs.zone_index[f["zone"]]
    st.fships = replaced(st.fships, s, f.get("ships", st.fships[s]))            # shared lists: replaced
    if "legality" in f:
        st.legality = replaced(st.legality, s, LEGALITY[f["legality"]])
    if "cargo" in f:
        st.cargo = replaced(st.cargo, s, [CARGO[x] for x in f["cargo"]])     # shared lists: replaced


def _player(st: State, s: int, p: Raw) -> list[str]:
    rs = st.rs
    st.money[s] = p.get("money", st.money[s])
    st.prestige = replaced(st.prestige, s, p.get("prestige", st.prestige[s]))   # shared: replaced
    held = _cards_of(st, s, p)
    _fleet(st, s, p.get("fleet", {}))
    if "havens" in p:
        if any(z not in rs.zone_index or not rs.is_land(rs.zone_index[z]) for z in p["havens"]):
            _fail(f"scenario: player {s}: havens are land zone ids")
        st.havens[s] = [rs.zone_index[z] for z in p["havens"]]
    return held


def _players(st: State, players: list[Raw]) -> None:
    """Each seat's money, prestige, cards and fleet; held cards leave the decks."""
    if len(players) > st.n:
        _fail(f"scenario: {len(players)} players given for a game of {st.n}")
    held = [c for s, p in enumerate(players) for c in _player(st, s, p)]
    if len(set(held)) != len(held):
        _fail("scenario: a card is held twice")
    st.market = [c for c in st.market if c not in held]
    st.haven = [c for c in st.haven if c not in held]


def _decks(st: State, decks: Raw) -> None:
    if "market" in decks:
        st.market = _reorder(st.market, decks["market"], "market")
    if "haven" in decks:
        st.haven = _reorder(st.haven, decks["haven"], "haven")


def _colonies(st: State, colonies: dict[str, Raw]) -> None:
    rs = st.rs
    for cid, col in colonies.items():
        if cid not in rs.col_index:
            _fail(f"scenario: unknown colony space {short(cid)}")
        c = rs.col_index[cid]
        owners: tuple[object, ...] = (None, "crown", *range(st.n))    # named: mypyc fails on `in (*...)`
        if col.get("owner") not in owners:
            _fail(f"scenario: colony {cid}: owner is a seat, 'crown' or null; labour 'citizen', 'slave' or null")
        owner = col.get("owner", st.col_owner[c])
        st.col_owner[c] = CROWN if owner == "crown" else owner
        if "labour" in col:
            st.col_labour[c] = labour_of(col["labour"])
        st.col_chests[c] = col.get("chests", st.col_chests[c])
        st.col_fort[c] = col.get("fort", st.col_fort[c])


def _map(st: State, pos: Raw) -> None:
    """Indigenous at sites, rebels in land zones."""
    rs = st.rs
    for sid, n in pos.get("sites", {}).items():
        if sid not in st.site_ids:
            _fail(f"scenario: unknown site {short(sid)}")
        st.site_count[st.site_ids.index(sid)] = n
    for zid, n in pos.get("rebels", {}).items():
        if zid not in rs.zone_index or not rs.is_land(rs.zone_index[zid]):
            _fail(f"scenario: unknown land zone {short(zid)}")
        st.rebels[rs.zone_index[zid]] = n


def build(scn: object, rulesets: Rulesets) -> tuple[State, list[Raw]]:
    """The position of a scenario, before its actions; `rulesets` resolves its config's ruleset.
    `scn` is the caller's data (declared `object`, narrowed here): bad_scenario, never TypeError."""
    if not isinstance(scn, dict):
        _fail("A scenario is a JSON object (config, seed, position, actions).")
    check_shape(scn)
    st, _events = new_state(scn["config"], scn.get("seed", 0), start=False, rulesets=rulesets)
    pos = scn.get("position", {})
    st = st.copy()
    st.stack, st.cursor, st.secrets = [], {}, {}
    year, step = _when(st, pos)
    _players(st, pos.get("players", []))
    _decks(st, pos.get("decks", {}))
    _colonies(st, pos.get("colonies", {}))
    _map(st, pos)
    st.event_seq = 0                  # the seeded setup's events are discarded (PRJ-33)
    out = Out(st)
    _loaded(st, scn, year, step, out)
    advance(st, out)
    return st, out.events


def _loaded(st: State, scn: Raw, year: str, step: str, out: Out) -> None:
    """PRJ-33: the log of a scenario begins with the position as given, never with the
    discarded seeded setup (whose GameStarted named its deck tops and Player Order).
    ScenarioLoaded carries what every seat may know; each hand goes to its owner only."""
    rs = st.rs
    players = [{"nation": st.nation[s], "money": st.money[s], "prestige": st.prestige[s],
                "hand_size": len(st.hands[s]), "tableau": [c for c, _ in st.tableaus[s]],
                "fleet": {"zone": rs.zone_ids[st.fzone[s]], "ships": st.fships[s],
                          "legality": st.legality[s], "cargo": list(st.cargo[s])},
                "havens": [rs.zone_ids[z] for z in st.havens[s]]} for s in range(st.n)]
    colonies = {rs.col_ids[c]: {"owner": "crown" if st.col_owner[c] == CROWN else st.col_owner[c],
                                "labour": st.col_labour[c], "chests": st.col_chests[c],
                                "fort": st.col_fort[c]}
                for c in range(len(rs.col_ids)) if st.col_owner[c] is not None}
    out.emit("ScenarioLoaded", "PRJ-33", cycle=st.cycle, year=year, step=step, order=list(st.order),
             ruleset=rs.name, ruleset_version=rs.version, seed_hash=seed_hash(scn.get("seed", 0)),
             players=players, colonies=colonies,
             market_top=st.market[0] if st.market else None, market_size=len(st.market),
             haven_top=st.haven[0] if st.haven else None, haven_size=len(st.haven))
    for s in range(st.n):
        out.emit("ScenarioHand", "PRJ-33", to=[s], seat=s, hand=list(st.hands[s]))
