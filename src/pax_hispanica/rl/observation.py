"""The observation tensor of one seat, built from its view alone (docs/rl.md, "Observation").

`ObservationLayout(ruleset, params).encode(view)` turns ``api.view(state, seat,
include_state=False)`` into a fixed-size float32 vector. Nothing else is read, so the vector
carries no more than the view does (HID-1): in particular not the view's ``seed_hash``, the
commitments' ``hashes`` or the decision ``id`` (which depend on the seed), nor names.

**Seats are relative**: player slot ``k`` holds seat ``(viewer + k) % n`` (slot 0 is the viewer;
for a spectator, viewer None, slot k is seat k). Every seat-valued field (owner, acting,
initiator, ...) is one-hot over these ``MAX_PLAYERS`` = 5 slots; slots beyond ``n`` are zero.
Counts are the raw whole numbers (money, Prestige, chests, ...), flags and one-hots are 0/1.
`layout.segments` lists every segment as (name, offset, size, meaning); docs/rl.md prints it.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import numpy as np

from pax_hispanica import api
from pax_hispanica.contract import Engine
from pax_hispanica.rl.encoding import placed_sites

# the game's words the observation is laid out by, as the api gives them (its "vocabulary" group)
VOCABULARY = api.VOCABULARY
CHEST, DECKS, GONE, LEGALITIES = VOCABULARY.chest, VOCABULARY.decks, VOCABULARY.gone, VOCABULARY.legalities
PEOPLE, YEARS = VOCABULARY.people, VOCABULARY.years

ENGINE: Engine[api.State] = api
"""The engine, typed against the core contract (pax_hispanica.contract.Engine): `observe` asks it
for a view, nothing else (mypy --strict checks it); the layout reads the ruleset of api's
"rules and rulesets" helpers (tests/engine/test_api_contract.py)."""

MAX_PLAYERS = 5
CARGO = (*PEOPLE, CHEST)
LABOUR = PEOPLE
SITE_KINDS = ("cathedral", "tribal", "visita")
SLOT_MEANINGS = {"number": "the number", "flag": "1 if set", "seat": "one-hot slot", "card": "one-hot card",
                 "deck": "one-hot deck (" + ", ".join(DECKS) + ")", "site": "one-hot site", "colony": "one-hot colony",
                 "zone": "one-hot zone", "zones": "multi-hot zones", "colonies": "multi-hot colonies",
                 "battle_target": "one-hot battle target (colonies, sites, rebels)"}
"""How each slot kind of engine/decisions.SLOT_KINDS is encoded (a test checks there is one for each)."""


class ObservationLayout:
    def __init__(self, ruleset: str = "reference", params: dict[str, Any] | None = None):
        rs = api.load_ruleset(ruleset, params or None)
        self.cards = tuple(rs.cards)
        self.zones = tuple(rs.zone_ids)
        self.colonies = tuple(rs.col_ids)
        self.sites = tuple(rs.site_ids) + placed_sites(rs)
        self.nations = tuple(rs.nation_order)
        self.cycles = int(rs.cycles)
        self.support_targets = self.colonies + self.sites + ("rebels",)
        self.card_ix = {c: i for i, c in enumerate(self.cards)}
        self.zone_ix = {z: i for i, z in enumerate(self.zones)}
        self.col_ix = {c: i for i, c in enumerate(self.colonies)}
        self.site_ix = {s: i for i, s in enumerate(self.sites)}
        self.target_ix = {t: i for i, t in enumerate(self.support_targets)}
        self.segments: list[tuple[str, int, int, str]] = []
        P, C, Z, K, S = MAX_PLAYERS, len(self.cards), len(self.zones), len(self.colonies), len(self.sites)
        seg = self._seg
        seg("players", 4, "one-hot number of players 2..5")
        seg("cycle", self.cycles, "one-hot cycle 1..cycles")
        seg("year", len(YEARS), "one-hot year: " + ", ".join(YEARS))
        seg("over", 1, "the game is over")
        self.decisions = VOCABULARY.decision_names()
        seg("decision", len(self.decisions), "one-hot pending decision: " + ", ".join(self.decisions))
        seg("acting", P, "slots asked to act now")
        seg("to_act", 1, "the viewer is asked to act now")
        seg("committed", P, "slots whose sealed choice is committed (bid, support)")
        seg("my_sealed", 4, "own sealed choice: committed flag, bid amount, support attacker, support target")
        # each decision type's slot, as it declares it (engine/decisions.py, Decision.observation)
        sizes = {"number": 1, "flag": 1, "seat": P, "card": C, "deck": len(DECKS), "site": S, "colony": K,
                 "zone": Z, "zones": Z, "colonies": K, "battle_target": len(self.support_targets)}
        self.slots: dict[str, list[tuple[str, str, str]]] = {}
        for name in self.decisions:
            for field, kind in VOCABULARY.observation_slots(name):
                if kind not in sizes or kind not in SLOT_MEANINGS:
                    raise ValueError(f"decision {name!r}: no observation encoding for slot kind {kind!r} "
                                     "(rl/observation.py: add it to the sizes, SLOT_MEANINGS and _write_slot)")
                seg(f"{name}.{field}", sizes[kind], f"{SLOT_MEANINGS[kind]}: the {name} decision's {field}")
                self.slots.setdefault(name, []).append((f"{name}.{field}", field, kind))
        seg("order", P * P, "Player Order: for slot i, one-hot of its position (i*5 + position)")
        self.player_fields = [("present", 1), ("nation", len(self.nations)), ("numbers", 6),
                              ("fleet.zone", Z), ("fleet.ships", 1), ("fleet.legality", len(LEGALITIES)),
                              ("fleet.cargo", len(CARGO)), ("havens", Z), ("tableau", C)]
        self.player_size = sum(n for _, n in self.player_fields)
        seg("player_slots", P * self.player_size,
            "per slot: present, nation one-hot, [money, prestige, colony_prestige, hand_count, hand_limit, "
            f"income], fleet zone one-hot, ships, legality one-hot ({', '.join(LEGALITIES)}), cargo counts "
            f"({', '.join(CARGO)}), Havens (zones), tableau (cards)")
        seg("hand", C, "own hand (cards)")
        seg("colonies", K * (P + 1 + len(LABOUR) + 2),
            "per colony: owner one-hot (5 slots, then none), labour one-hot "
            f"({', '.join(LABOUR)}), chests, fort")
        seg("sites", S * (3 + len(SITE_KINDS)),
            "per site: on the map, count, capacity, kind one-hot (cathedral, tribal, visita); wilderness is "
            "fixed by the ruleset")
        seg("rebels", Z, "rebels per zone")
        seg("decks", 2 * C + 2, "market top one-hot, haven top one-hot, market count, haven count")
        seg("market_discard", C, "cards in the market discard")
        seg("supply", 3 + len(GONE), "supply citizens, indigenous, chests; gone: " + ", ".join(GONE))
        self.size = sum(s[2] for s in self.segments)
        self.off = {s[0]: s[1] for s in self.segments}

    def _seg(self, name: str, size: int, meaning: str) -> None:
        off = self.segments[-1][1] + self.segments[-1][2] if self.segments else 0
        self.segments.append((name, off, size, meaning))

    def encode(self, view: dict[str, Any]) -> np.ndarray:
        """The observation vector of `view` (api.view(state, seat, include_state=False))."""
        o = [0.0] * self.size                  # a list: item writes are far cheaper than numpy's
        off = self.off
        players = view["players"]
        n = len(players)
        viewer = view["viewer"]
        base = viewer or 0

        def rel(s: int) -> int:
            return (s - base) % n

        o[off["players"] + n - 2] = 1
        o[off["cycle"] + min(view["cycle"], self.cycles) - 1] = 1
        o[off["year"] + YEARS.index(view["year"])] = 1
        o[off["over"]] = float(bool(view["over"]))
        for s in view["acting"]:
            o[off["acting"] + rel(s)] = 1
        o[off["to_act"]] = float(viewer is not None and viewer in view["acting"])
        dec = view["decision"]
        if dec and not view["over"]:
            d = dec["d"]
            o[off["decision"] + self.decisions.index(d)] = 1
            for s in dec.get("committed", ()):
                o[off["committed"] + rel(s)] = 1
            for segment, field, kind in self.slots.get(d, ()):
                self._write_slot(o, off[segment], kind, dec.get(field), rel)
        mine = view.get("my_sealed_choice")
        if mine is not None:
            m = off["my_sealed"]
            o[m] = 1
            if isinstance(mine, str):
                o[m + 2 + ("attacker", "target").index(mine)] = 1
            else:
                o[m + 1] = mine
        for pos, s in enumerate(view["order"]):
            o[off["order"] + rel(s) * MAX_PLAYERS + pos] = 1
        for p in players:
            b = off["player_slots"] + rel(p["seat"]) * self.player_size
            o[b] = 1
            b += 1
            o[b + self.nations.index(p["nation"])] = 1
            b += len(self.nations)
            o[b:b + 6] = (p["money"], p["prestige"], p["colony_prestige"], p["hand_count"], p["hand_limit"],
                          p["income"])
            b += 6
            f = p["fleet"]
            if f["zone"] is not None:
                o[b + self.zone_ix[f["zone"]]] = 1
            b += len(self.zones)
            o[b] = f["ships"]
            b += 1
            if f["legality"] in LEGALITIES:
                o[b + LEGALITIES.index(f["legality"])] = 1
            b += len(LEGALITIES)
            for x in f["cargo"]:
                o[b + CARGO.index(x)] += 1
            b += len(CARGO)
            for z in p["havens"]:
                o[b + self.zone_ix[z]] = 1
            b += len(self.zones)
            for t in p["tableau"]:
                o[b + self.card_ix[t["card"]]] = 1
            if p["seat"] == viewer and p["hand"]:
                for c in p["hand"]:
                    o[off["hand"] + self.card_ix[c]] = 1
        if "colonies" in view:
            width = MAX_PLAYERS + 1 + len(LABOUR) + 2
            for c in view["colonies"]:
                b = off["colonies"] + self.col_ix[c["id"]] * width
                o[b + (MAX_PLAYERS if c["owner"] is None else rel(c["owner"]))] = 1
                if c["labour"] is not None:
                    o[b + MAX_PLAYERS + 1 + LABOUR.index(c["labour"])] = 1
                o[b + width - 2] = c["chests"]
                o[b + width - 1] = float(bool(c["fort"]))
            width = 3 + len(SITE_KINDS)
            for s in view["sites"]:
                b = off["sites"] + self.site_ix[s["id"]] * width
                o[b:b + 3] = (1, s["count"], s["capacity"])
                o[b + 3 + SITE_KINDS.index(s["kind"])] = 1
            for z, k in view["rebels"].items():
                o[off["rebels"] + self.zone_ix[z]] = k
        decks = view["decks"]
        b = off["decks"]
        if decks["market"]["top"] is not None:
            o[b + self.card_ix[decks["market"]["top"]]] = 1
        if decks["haven"]["top"] is not None:
            o[b + len(self.cards) + self.card_ix[decks["haven"]["top"]]] = 1
        o[b + 2 * len(self.cards)] = decks["market"]["count"]
        o[b + 2 * len(self.cards) + 1] = decks["haven"]["count"]
        for c in decks["market_discard"]:
            o[off["market_discard"] + self.card_ix[c]] = 1
        b = off["supply"]
        sup = view["supply"]
        o[b:b + 3] = (sup["citizens"], sup["indigenous"], sup["chests"])
        o[b + 3:b + 3 + len(GONE)] = [view["gone"][k] for k in GONE]
        assert len(o) == self.size
        return np.array(o, dtype=np.float32)

    def _write_slot(self, o: list[Any], at: int, kind: str, value: Any, rel: Callable[[int], int]) -> None:
        """One field of the pending decision, as its slot kind says (SLOT_MEANINGS)."""
        if value is None:                       # an optional field not set: its slot stays zero
            return
        if kind == "number":
            o[at] = value
        elif kind == "flag":
            o[at] = float(bool(value))
        elif kind == "seat":
            o[at + rel(value)] = 1
        elif kind == "card":
            o[at + self.card_ix[value]] = 1
        elif kind == "deck":
            o[at + DECKS.index(value)] = 1
        elif kind == "site":
            o[at + self.site_ix[value]] = 1
        elif kind == "colony":
            o[at + self.col_ix[value]] = 1
        elif kind == "zone":
            o[at + self.zone_ix[value]] = 1
        elif kind == "zones":
            for z in value:
                o[at + self.zone_ix[z]] = 1
        elif kind == "colonies":
            for c in value:
                o[at + self.col_ix[c]] = 1
        elif kind == "battle_target":
            o[at + self.target_ix[value]] = 1
        else:
            raise ValueError(f"no observation encoding for slot kind {kind!r}")

    def describe(self) -> str:
        """The layout as a Markdown table (docs/rl.md)."""
        rows = ["| segment | offset | size | meaning |", "|---|---|---|---|"]
        rows += [f"| `{name}` | {off} | {size} | {meaning} |" for name, off, size, meaning in self.segments]
        return "\n".join(rows + [f"| total | | {self.size} | |"])


@functools.lru_cache(maxsize=32)
def _cached(ruleset: str, params_key: tuple[Any, ...]) -> ObservationLayout:
    return ObservationLayout(ruleset, dict(params_key) or None)


def layout_for(view: dict[str, Any]) -> ObservationLayout:
    return _cached(view["ruleset"], tuple(sorted((view.get("ruleset_params") or {}).items())))


def observe(state: api.State, seat: int | None) -> np.ndarray:
    """The observation of `seat` (None: a spectator) in `state`: from its view only."""
    view = ENGINE.view(state, seat)                 # (without the masked state: api.view's default)
    return layout_for(view).encode(view)
