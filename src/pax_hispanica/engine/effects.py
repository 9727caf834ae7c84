"""Card effects (CARD-1): the one registry of the kinds of effect a card may have.

Each kind is declared once, here, by `register(EffectKind(...))` right after the function
that applies it. A kind declares:
- `kind`: its name in the card files (market.toml, haven.toml: `effects = [{kind = ...}]`);
- `rule`: the rule its event cites;
- `params`: the parameters its table takes besides `kind` (the card files' schema,
  ruleset_schema, is built from these);
- `target`: what a card with it names when played (one of TARGET_KINDS), or None;
- `apply(state, seat, its table, the card's target id or None, out)`: what it does;
- `shows_in`: the parts of the RL observation that show its result (rl/observation.py's
  segments, "player_slots.<field>" for a player's); a card played also shows in the tableau;
- `per_seat`: the per-seat State field it raises once and later years read, if any;
- `words`: its catalogue entry (gettext context "effects", the kind as its id): pages and
  the terminal say it with that sentence (web/present/cards.py).

Everything else is derived from this registry: the card files' schema (ruleset_schema.EFFECTS),
the effect functions by kind (cards.EFFECT) and the per-seat numbers (cards.PASSIVE). What
lives outside the engine is checked against it by tests that name the file to complete: the
sentences (tests/web/test_words.py), the heuristic bot's value (tests/bots/test_effect_values.py)
and the observation (tests/rl/test_observation.py). `register` refuses, with a message, a kind
declared twice, an unknown rule or target kind, or one that shows nowhere.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .rules import RULES
from .sharing import appended, bumped, counted, replaced
from .vocab import REBEL, Legality

if TYPE_CHECKING:
    from .flow import Out
    from .ruleset import Raw
    from .state import State

Effect = Callable[["State", int, "Raw", Any, "Out"], None]
"""An effect kind's function: (state, seat, the effect's table, the card's target id or None, out)."""

TARGET_KINDS = ("empty_colony_space", "own_colony_without_fort", "land_zone", "rebellious_zone")
"""What a targeted effect may name (PRJ-11; cards.targets lists the ids of each)."""


@dataclass(frozen=True)
class EffectKind:
    kind: str
    rule: str
    params: frozenset[str]
    target: str | None
    apply: Effect
    shows_in: tuple[str, ...]
    per_seat: str | None = None

    @property
    def words(self) -> tuple[str, str]:
        """Its sentence in the catalogues: (gettext context, id)."""
        return ("effects", self.kind)


EFFECTS: dict[str, EffectKind] = {}
"""Every effect kind by name, in the order declared."""


def register(effect: EffectKind) -> EffectKind:
    """Declare an effect kind; a ValueError says what is missing or wrong."""
    where = f"effect kind {effect.kind!r} (engine/effects.py)"
    if effect.kind in EFFECTS:
        raise ValueError(f"{where} is declared twice")
    if effect.rule not in RULES:
        raise ValueError(f"{where}: {effect.rule!r} is not a rule ID of engine/rules.py")
    if effect.target is not None and effect.target not in TARGET_KINDS:
        raise ValueError(f"{where}: target {effect.target!r} is not one of {', '.join(TARGET_KINDS)}"
                         " (add it there and to cards.targets)")
    if not effect.shows_in:
        raise ValueError(f"{where}: declare `shows_in`, the parts of the RL observation that show its result")
    if "kind" in effect.params:
        raise ValueError(f"{where}: 'kind' names the effect; it is not a parameter")
    EFFECTS[effect.kind] = effect
    return effect


def _kind(kind: str, rule: str, params: tuple[str, ...], target: str | None, apply: Effect,
          shows_in: tuple[str, ...], per_seat: str | None = None) -> EffectKind:
    return register(EffectKind(kind, rule, frozenset(params), target, apply, shows_in, per_seat))


def _new_site(st: State, zone_id: str, kind: str, count: int, cap: int) -> str:
    k = sum(1 for s in st.site_ids if s.startswith(f"{zone_id}.{kind}-")) + 1
    sid = f"{zone_id}.{kind}-{k}"
    # a site's id, name, zone, kind, wilderness and capacity never change once it is on the map,
    # so states share those lists (State.copy): a new site replaces them instead of appending
    # (as it does site_count, which other rules change by replacing it too)
    st.site_ids = st.site_ids + [sid]
    st.site_names = st.site_names + [f"{kind.title()} {k}"]
    st.site_zone = st.site_zone + [st.rs.zone_index[zone_id]]
    st.site_kind = st.site_kind + [kind]
    st.site_wild = st.site_wild + [False]
    st.site_count = st.site_count + [count]
    st.site_cap = st.site_cap + [cap]
    return sid


def _raised(per_seat: list[int], seat: int, n: int) -> list[int]:
    """A new per-seat list with `seat`'s entry raised by n (for the lists states share)."""
    new = per_seat[:]
    new[seat] += n
    return new


# ---- the kinds ---------------------------------------------------------------------------------
def _gain_galleon(st: State, seat: int, eff: Raw, target: Any, out: Out) -> None:
    before = st.fships[seat]
    st.fships = replaced(st.fships, seat, min(st.rs.max_ships, before + eff["n"]))      # shared: replaced
    out.emit("GalleonGained", "CARD-1", seat=seat, ships=st.fships[seat], gained=st.fships[seat] - before)


_kind("gain_galleon", "CARD-1", ("n",), None, _gain_galleon, ("player_slots.fleet.ships",))


def _found_colony(st: State, seat: int, eff: Raw, target: Any, out: Out) -> None:
    c = st.rs.col_index[target]
    st.col_owner = replaced(st.col_owner, c, seat)          # shared between states: replaced
    st.col_labour = replaced(st.col_labour, c, None)
    st.col_chests = replaced(st.col_chests, c, 0)
    out.emit("ColonyFounded", "CARD-1", seat=seat, colony=target)


_kind("found_colony", "CARD-1", (), "empty_colony_space", _found_colony, ("colonies",))


def _build_fort(st: State, seat: int, eff: Raw, target: Any, out: Out) -> None:
    st.col_fort = replaced(st.col_fort, st.rs.col_index[target], True)      # shared: replaced
    out.emit("FortBuilt", "CARD-1", seat=seat, colony=target)


_kind("build_fort", "CARD-1", (), "own_colony_without_fort", _build_fort, ("colonies",))


def _set_legality(st: State, seat: int, eff: Raw, target: Any, out: Out) -> None:
    legality = Legality(eff["value"])
    st.legality = replaced(st.legality, seat, legality)          # shared between states: replaced
    out.emit("LegalityChanged", "TRS-6", seat=seat, legality=legality)


_kind("set_legality", "TRS-6", ("value",), None, _set_legality, ("player_slots.fleet.legality",))


def _income(st: State, seat: int, eff: Raw, target: Any, out: Out) -> None:
    st.income = _raised(st.income, seat, eff["n"])          # shared between states: replaced, never changed
    out.emit("IncomeIncreased", "GDS-7", seat=seat, amount=eff["n"], income=st.income[seat])


_kind("income", "GDS-7", ("n",), None, _income, ("player_slots.numbers",), per_seat="income")


def _hand_limit(st: State, seat: int, eff: Raw, target: Any, out: Out) -> None:
    st.hand_bonus = _raised(st.hand_bonus, seat, eff["n"])          # shared between states: replaced, never changed
    out.emit("HandLimitIncreased", "HND-1", seat=seat, amount=eff["n"], hand_limit=st.hand_limit(seat))


_kind("hand_limit", "HND-1", ("n",), None, _hand_limit, ("player_slots.numbers",), per_seat="hand_bonus")


def _prestige(st: State, seat: int, eff: Raw, target: Any, out: Out) -> None:
    st.prestige = _raised(st.prestige, seat, eff["n"])          # shared between states: replaced
    out.emit("PrestigeGained", "CARD-1", seat=seat, amount=eff["n"], source="card")


_kind("prestige", "CARD-1", ("n",), None, _prestige, ("player_slots.numbers",))


def _money(st: State, seat: int, eff: Raw, target: Any, out: Out) -> None:
    st.money[seat] += eff["n"]
    st.minted += eff["n"]
    out.emit("MoneyGained", "CARD-1", seat=seat, amount=eff["n"])


_kind("money", "CARD-1", ("n",), None, _money, ("player_slots.numbers",))


def _place_visita(st: State, seat: int, eff: Raw, target: Any, out: Out) -> None:
    n = min(eff["indigenous"], st.supply["indigenous"])
    st.supply = counted(st.supply, "indigenous", -n)      # shared between states: replaced
    sid = _new_site(st, target, "visita", n, 0)
    out.emit("VisitaPlaced", "CARD-1", seat=seat, zone=target, site=sid, indigenous=n)


_kind("place_visita", "CARD-1", ("indigenous",), "land_zone", _place_visita, ("sites",))


def _place_cathedral(st: State, seat: int, eff: Raw, target: Any, out: Out) -> None:
    sid = _new_site(st, target, "cathedral", 0, eff["capacity"])
    out.emit("CathedralPlaced", "CARD-1", seat=seat, zone=target, site=sid, capacity=eff["capacity"])


_kind("place_cathedral", "CARD-1", ("capacity",), "land_zone", _place_cathedral, ("sites",))


def _remove_rebels(st: State, seat: int, eff: Raw, target: Any, out: Out) -> None:
    z = st.rs.zone_index[target]
    n = min(eff["n"], st.rebels[z])
    st.rebels = bumped(st.rebels, z, -n)           # shared between states: replaced
    st.gone = counted(st.gone, REBEL, n)
    out.emit("RebelsRemoved", "CARD-1", seat=seat, zone=target, count=n)


_kind("remove_rebels", "CARD-1", ("n",), "rebellious_zone", _remove_rebels, ("rebels",))


def _extra_moves(st: State, seat: int, eff: Raw, target: Any, out: Out) -> None:
    st.moves_bonus = _raised(st.moves_bonus, seat, eff["n"])          # shared between states: replaced, never changed
    out.emit("MovesIncreased", "SAIL-1", seat=seat, amount=eff["n"],
             moves=st.rs.fleet_moves + st.moves_bonus[seat])


_kind("extra_moves", "SAIL-1", ("n",), None, _extra_moves, ("voyage.moves",), per_seat="moves_bonus")


def _haven(st: State, seat: int, eff: Raw, target: Any, out: Out) -> None:
    st.havens = appended(st.havens, seat, st.rs.zone_index[target])     # shared between states (State.copy)
    out.emit("HavenFounded", "CARD-2", seat=seat, zone=target)


_kind("haven", "CARD-2", (), "land_zone", _haven, ("player_slots.havens",))
