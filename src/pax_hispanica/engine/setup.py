"""Setup (CYC-4): a new game from a config and a seed."""

from __future__ import annotations

from .errors import IllegalAction, short
from .flow import Out, advance, YEARS
from .keys import is_seed
from .rng import Chance, draw_shuffle, seed_state
from .jsontypes import Event, JsonDict
from .ruleset import Ruleset, RulesetError, Rulesets
from .keys import seed_hash
from .state import CROWN, State
from .vocab import CITIZEN, GONE, Legality


CONFIG_KEYS = frozenset({"players", "nations", "ruleset", "options", "params"})
MAX_OPTIONS = 16


def check_seed(seed: object) -> int:
    """PRJ-1: a seed is a whole number in 0..2**256-1 (served games use 128 random bits); the
    seed itself, narrowed to an int, else bad_config."""
    if not is_seed(seed):
        raise IllegalAction("bad_config", "PRJ-1",
                            f"The seed must be a whole number from 0 to 2**256-1, not {short(seed)}.")
    return seed


def check_config(config: JsonDict, rs: Ruleset) -> list[str]:
    unknown = [k for k in config if k not in CONFIG_KEYS]
    if unknown:
        raise IllegalAction("bad_config", "PRJ-31", f"Unknown config key {short(unknown[0])}; "
                            f"the keys are {', '.join(sorted(CONFIG_KEYS))}.")
    n = config.get("players")
    if not isinstance(n, int) or isinstance(n, bool) or not 2 <= n <= 5:
        raise IllegalAction("bad_config", "CYC-4", "A game has 2 to 5 players.")
    options = config.get("options", {})
    if not isinstance(options, dict) or len(options) > MAX_OPTIONS or not all(
            isinstance(k, str) and len(k) <= 64 and (v is None or isinstance(v, bool)
                                                      or (isinstance(v, int) and abs(v) < 2 ** 53)
                                                      or (isinstance(v, str) and len(v) <= 200))
            for k, v in options.items()):
        raise IllegalAction("bad_config", "PRJ-31", f"Config options are at most {MAX_OPTIONS} short names "
                            "with short plain values.")
    nations = config.get("nations") or rs.nation_order[:n]
    if (not isinstance(nations, (list, tuple)) or len(nations) != n
            or not all(isinstance(x, str) and x in rs.nations for x in nations) or len(set(nations)) != n):
        raise IllegalAction("bad_config", "CYC-4",
                            f"Give {n} different nations from: {', '.join(rs.nation_order)}.")
    return list(nations)


def ruleset_of(config: JsonDict, rulesets: Rulesets) -> Ruleset:
    """The config's ruleset with its variant parameters (PRJ-31) applied, from `rulesets`
    (the engine loads none itself: the api passes pax_hispanica.rulesets.load_ruleset)."""
    try:
        return rulesets(config.get("ruleset", "reference"), config.get("params") or None)
    except RulesetError as e:
        if config.get("params"):     # PRJ-83's refusal of a set of house rules cites it
            raise IllegalAction("bad_config", getattr(e, "rule", "PRJ-31"), f"Variant parameters: {e}") from None
        raise


def kidnap_zones(rs: Ruleset) -> tuple[int, ...]:
    """PRJ-80: the land zones, in map order, with a Tribal Site or Visita on the map (LAB-1's
    sources of kidnapping; a wilderness site counts too: its zone may hold another)."""
    return tuple(sorted({rs.site_zone[i] for i, kind in enumerate(rs.site_kind) if kind in ("tribal", "visita")}))


def new_state(config: object, given_seed: object, start: bool = True, *, rulesets: Rulesets,
              chance: Chance | None = None) -> tuple[State, list[Event]]:
    """The set-up game; with start=False it stops before the first Goods Year (scenarios set their own position).
    `rulesets` resolves the config's ruleset name and parameters to a Ruleset; `chance`: the
    draws' outcomes supplied (PRJ-70), else the seed's generator. `config` and the seed are the
    caller's data, declared `object` and narrowed here (PRJ-1, PRJ-31: IllegalAction, never
    TypeError, compiled or not)."""
    seed = check_seed(given_seed)
    if not isinstance(config, dict):
        raise IllegalAction("bad_config", "PRJ-31", "A config is a table of players, nations, ruleset, params.")
    ruleset = config.get("ruleset", "reference")
    if not isinstance(ruleset, str) or not 0 < len(ruleset) <= 200:
        raise IllegalAction("bad_config", "PRJ-31", "The ruleset is named by a short string.")
    rs = ruleset_of(config, rulesets)
    nations = check_config(config, rs)
    n = len(nations)
    st = State.__new__(State)
    st.rs = rs
    st.config = dict(config, nations=nations)
    st.seed = seed
    st.seed_hash = seed_hash(seed)                         # PRJ-1: public from the start
    st.rng = seed_state(seed)
    st.n = n
    st.cycle, st.year, st.step = 1, 0, 0
    st.event_seq = st.version = 0
    st.over, st.result = False, None
    st.minted = st.burned = 0
    st.undo_stack, st.undo_seat = (), None
    st.stack, st.cursor, st.secrets = [], {}, {}
    st.order = list(range(n))
    st.rng = draw_shuffle(seed, st.rng, st.order, chance)                    # CYC-4: random Player Order
    st.money = [rs.setup_value("start_money", n)] * n
    st.prestige = [0] * n
    st.nation = nations
    st.hand_bonus, st.income, st.moves_bonus = [0] * n, [0] * n, [0] * n
    st.fzone = [rs.zone_index[rs.setup_value("start_zone", n)]] * n
    # PRJ-84: a fleet that starts PLUNDER (TRS-2: it loads only by sacking) starts with Galleons
    # beside its Flagship, never more ships than a fleet may have
    st.fships = [min(rs.max_ships, rs.setup_value("start_ships", n)
                     + (rs.setup_value("plunder_start_galleons", n) if rs.nations[x]["legality"] == "PLUNDER" else 0))
                 for x in nations]
    st.legality = [Legality(rs.nations[x]["legality"]) for x in nations]
    st.hands = [[] for _ in range(n)]
    st.tableaus = [[] for _ in range(n)]
    st.havens = [[] for _ in range(n)]
    st.cargo = [[] for _ in range(n)]
    st.supply = {"citizens": rs.supply_citizens, "indigenous": rs.supply_indigenous, "chests": rs.supply_chests}
    st.gone = {str(x): 0 for x in GONE}
    # the map
    st.site_ids, st.site_names, st.site_zone = rs.site_ids[:], rs.site_names[:], rs.site_zone[:]
    st.site_kind, st.site_wild, st.site_cap = rs.site_kind[:], rs.site_wild[:], rs.site_cap[:]
    st.site_count = rs.site_count[:]                      # Indigenous on Tribal Sites and Visitas
    st.rebels = [0] * rs.n_land
    # PRJ-80 (a variant): the Indigenous resist from the start: Rebels in every zone that has
    # someone to kidnap, so kidnapping there (LAB-4) waits for a Milicia or a fleet (BAT-5)
    rebels = rs.setup_value("setup_rebels", n)
    rebel_zones = kidnap_zones(rs) if rebels else ()
    for z in rebel_zones:
        st.rebels[z] = rebels
    k = len(rs.col_ids)
    st.col_owner, st.col_labour, st.col_chests, st.col_fort = [None] * k, [None] * k, [0] * k, rs.col_fort[:]
    crown = st.crown_owner()
    # PRJ-75: with crown_colonies.<N> the Spanish own only the first K Crown colonies in map
    # order; the others are empty colony spaces (no fort), as if the map did not mark them
    is_crown = rs.crown_of_game(n, crown != CROWN)
    homes = {rs.col_index[rs.nations[x]["home"]]: s for s, x in enumerate(nations) if "home" in rs.nations[x]}
    for c in range(k):
        owner = crown if is_crown[c] else homes.get(c)
        if owner is not None:
            st.col_owner[c] = owner
            st.col_labour[c] = CITIZEN
            st.supply["citizens"] -= 1
        elif not is_crown[c]:
            st.col_fort[c] = False                         # a fort stands on a colony only
    for i, kind in enumerate(st.site_kind):               # Cathedrals full
        if kind == "cathedral":
            st.site_count[i] = st.site_cap[i]
            st.supply["citizens"] -= st.site_cap[i]
    if st.supply["citizens"] < 0:
        raise IllegalAction("bad_config", "CYC-4", "The ruleset's Citizen supply is too small for its map.")
    st.market, st.market_discard, st.haven = rs.market[:], [], rs.haven[:]
    st.rng = draw_shuffle(seed, st.rng, st.market, chance)
    st.rng = draw_shuffle(seed, st.rng, st.haven, chance)
    out = Out(st, chance)
    out.emit("GameStarted", "CYC-4", players=n, nations=nations, order=list(st.order),
             ruleset=rs.name, ruleset_version=rs.version, seed_hash=seed_hash(seed),
             crown_owner=None if crown == CROWN else crown,
             market_top=st.market[0], haven_top=st.haven[0])
    vacated = [rs.col_ids[c] for c in range(k) if rs.col_crown[c] and not is_crown[c]]
    if vacated:                                            # PRJ-75: public, as the board shows it
        out.emit("CrownColoniesByCount", "PRJ-75", seat=crown,
                 colonies=[rs.col_ids[c] for c in range(k) if is_crown[c]], vacated=vacated)
    if rebel_zones:                                        # PRJ-80: public, as the board shows it
        out.emit("RebelsAtSetup", "PRJ-80", zones=[rs.zone_ids[z] for z in rebel_zones],
                 count=st.rebels[rebel_zones[0]])
    if start:
        out.emit("YearBegan", "CYC-1", cycle=1, year=YEARS[0])
        advance(st, out)
    return st, out.events
