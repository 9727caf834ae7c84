"""A fixed integer encoding of every action the engine can offer (docs/rl.md, "Action space").

The space is a concatenation of *blocks*, one per action type in the order of the engine's
action table (`ACTION_FIELDS`), `undo` excepted (PRJ-2: never offered among legal actions).
A block is the Cartesian product of its fields' domains, taken from the ruleset's ids, in
mixed radix with the **last field varying fastest**:

    index = offset[type] + sum_k value_index[k] * prod_{j > k} len(domain[j])

Domains (each a fixed, sorted or board-ordered tuple; docs/rl.md lists the sizes):

- ``colony``: the ruleset's colony-space ids (board order); ``site``: its site ids, then the
  ids a card may place (CARD-1: ``{zone}.visita-{k}`` / ``{zone}.cathedral-{k}`` per land zone, k up
  to the number of cards with that effect); ``zone``/``to``:
  its zone ids; ``card``: every card id (market then haven, as in the ruleset);
- ``play.target``: ``None`` (no target) then zones, colonies, sites;
  ``attack.target``: colonies, sites, ``"rebels"``;
- ``count`` (``enslave``, ``load_chests``): 1 .. max_ships * ship_capacity (the most a fleet can carry);
- ``bid.amount``: **0 .. bid_cap exactly** (default ``BID_CAP`` = 30). Amount ``k`` is index
  ``offset["bid"] + k``; a legal bid above ``bid_cap`` has no index, so the mask offers the legal
  amounts ``min .. min(max, bid_cap)`` (in 12 random games the widest range went up to 23).

An optional field whose value is ``None`` is left out of the decoded action (the engine offers
``play`` without a ``target`` key), and a missing optional field encodes as ``None``.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from pax_hispanica import api
from pax_hispanica.contract import SearchEngine

ENGINE: SearchEngine[api.State] = api
"""The engine, typed against the contract (pax_hispanica.contract): the legal actions of a state,
and a state's ruleset read from `model_view` (the Search helpers'). mypy --strict checks that
nothing else is asked of it; tests/engine/test_api_contract.py that the module reads of `api`
itself only names of the helper groups (load_ruleset)."""

# the engine's action table and decks, as the api gives them (its "vocabulary" group)
ACTION_FIELDS, DECKS = api.VOCABULARY.action_fields, api.VOCABULARY.decks
BID_CAP = 30
EXCLUDED = ("undo",)            # never listed among legal actions (PRJ-2)


def placed_sites(rs: Any) -> tuple[Any, ...]:
    """The ids of the sites cards may place (CARD-1), in zone order: the engine names the k-th
    Visita (Cathedral) placed in a zone `{zone}.visita-{k}` (`{zone}.cathedral-{k}`)."""
    most = {kind: sum(1 for c in rs.cards.values() for e in c.effects if e["kind"] == f"place_{kind}")
            for kind in ("visita", "cathedral")}
    return tuple(f"{z}.{kind}-{k}" for z in rs.zone_ids if rs.is_land(rs.zone_index[z])
                 for kind in ("visita", "cathedral") for k in range(1, most[kind] + 1))


@dataclass
class ActionEncoding:
    """The action space of one ruleset (name and variant parameters)."""
    ruleset: str = "reference"
    params: dict[str, Any] | None = None
    bid_cap: int = BID_CAP
    blocks: list[Any] = field(init=False)        # [(type, [(field, domain tuple)], offset, size)]
    size: int = field(init=False)

    def __post_init__(self) -> None:
        rs = api.load_ruleset(self.ruleset, self.params or None)
        cols, zones, cards = tuple(rs.col_ids), tuple(rs.zone_ids), tuple(rs.cards)
        sites = tuple(rs.site_ids) + placed_sites(rs)
        count = tuple(range(1, rs.max_ships * rs.ship_capacity + 1))
        domains = {
            ("labour", "colony"): cols, ("labour", "source"): ("employ", "kidnap"), ("labour", "site"): sites,
            ("leave_vacant", "colony"): cols,
            ("initiate", "deck"): tuple(map(str, DECKS)), ("initiate", "buried"): (False, True),
            ("bid", "amount"): tuple(range(self.bid_cap + 1)),
            ("play", "card"): cards, ("play", "target"): (None,) + zones + cols + sites,
            ("sell", "card"): cards, ("discard", "card"): cards,
            ("start_at_haven", "zone"): zones, ("move", "to"): zones,
            ("attack", "target"): cols + sites + ("rebels",),
            ("support", "side"): ("attacker", "target"),
            ("enslave", "count"): count,
            ("load_chests", "colony"): cols, ("load_chests", "count"): count,
            ("unload", "colony"): cols, ("unload", "meeple"): (None, "citizen", "indigenous"),
        }
        self.blocks, off = [], 0
        for kind, fields in ACTION_FIELDS.items():
            if kind in EXCLUDED:
                continue
            fs = [(f, domains[(kind, f)]) for f in fields]      # KeyError: a new field needs a domain here
            size = int(np.prod([len(d) for _, d in fs])) if fs else 1
            self.blocks.append((kind, fs, off, size))
            off += size
        self.size = off
        self._by_type = {b[0]: b for b in self.blocks}
        self._index = {(kind, f): {v: i for i, v in enumerate(d)} for kind, fs, _, _ in self.blocks for f, d in fs}

    def encode(self, action: dict[str, Any]) -> int:
        """The index of `action` (its seat is ignored); KeyError when it has none (e.g. a bid above the cap)."""
        kind, fs, off, _ = self._by_type[action["type"]]
        i = 0
        for f, d in fs:
            i = i * len(d) + self._index[(kind, f)][action.get(f)]
        index: int = off + i
        return index

    def decode(self, index: int, seat: int) -> dict[str, Any]:
        """The action of `index` for `seat` (None-valued optional fields left out)."""
        if not 0 <= index < self.size:
            raise IndexError(index)
        for kind, fs, off, size in self.blocks:  # noqa: B007 -- the block found is read after the break
            if index < off + size:
                break
        rest, values = index - off, []
        for f, d in reversed(fs):
            rest, j = divmod(rest, len(d))
            values.append((f, d[j]))
        action = {"seat": seat, "type": kind}
        action.update((f, v) for f, v in reversed(values) if v is not None)
        return action

    def mask(self, descriptors: list[dict[str, Any]]) -> np.ndarray:
        """int8 mask of the legal actions (api.legal_actions of one seat) under the bid cap."""
        m = np.zeros(self.size, dtype=np.int8)
        for d in descriptors:
            if d["kind"] == "choice":
                for a in d["options"]:
                    m[self.encode(a)] = 1
            else:                                   # a range: one field, whole numbers min..max
                base = d["action"]
                kind, fs, off, _ = self._by_type[base["type"]]
                (f, dom), = fs                      # the engine's ranges are single-field (bid amount)
                assert f == d["field"], (f, d["field"])
                idx = self._index[(kind, f)]
                lo, hi = d["min"], d["max"]
                for v in dom:
                    if lo <= v <= hi:
                        m[off + idx[v]] = 1
        return m

    def legal_indices(self, descriptors: list[dict[str, Any]]) -> list[int]:
        return np.flatnonzero(self.mask(descriptors)).tolist()

    def describe(self) -> str:
        """The blocks as a Markdown table (docs/rl.md)."""
        rows = ["| block | offset | size | fields (domain sizes) |", "|---|---:|---:|---|"]
        rows += [f"| `{kind}` | {off} | {size} | " + (", ".join(f"{f} ({len(d)})" for f, d in fs) or "—") + " |"
                 for kind, fs, off, size in self.blocks]
        return "\n".join(rows + [f"| total | | {self.size} | |"])

    def labels(self) -> list[str]:
        """A readable name per index (for docs and debugging)."""
        out = []
        for i in range(self.size):
            a = self.decode(i, 0)
            out.append(a["type"] + "".join(f" {k}={v}" for k, v in a.items() if k not in ("seat", "type")))
        return out


@functools.lru_cache(maxsize=32)
def _cached(ruleset: str, params_key: tuple[Any, ...], bid_cap: int) -> ActionEncoding:
    return ActionEncoding(ruleset, dict(params_key) or None, bid_cap)


def encoding_for(ctx: Any = None, bid_cap: int = BID_CAP) -> ActionEncoding:
    """The encoding of a context: an ActionEncoding itself, a view (its "ruleset" and
    "ruleset_params"), a State (through its public view), a ruleset name, or None (reference)."""
    if isinstance(ctx, ActionEncoding):
        return ctx
    if ctx is None or isinstance(ctx, str):
        return _cached(ctx or "reference", (), bid_cap)
    if not isinstance(ctx, dict):
        ctx = ENGINE.model_view(ctx, None)       # the view's "ruleset" and "ruleset_params", no whole view
    params = ctx.get("ruleset_params") or {}
    return _cached(ctx["ruleset"], tuple(sorted(params.items())), bid_cap)


def encode(action: dict[str, Any], ctx: Any = None) -> int:
    """The integer of `action` in the encoding of `ctx` (see encoding_for)."""
    return encoding_for(ctx).encode(action)


def decode(index: int, state_or_view: Any = None, seat: int = 0) -> dict[str, Any]:
    """The action of `index` for `seat` in the encoding of `state_or_view`."""
    return encoding_for(state_or_view).decode(index, seat)


def action_mask(state: api.State, seat: int, ctx: Any = None) -> np.ndarray:
    """The mask of `seat`'s legal actions in `state` (all zeros when it is not to act)."""
    enc = encoding_for(ctx if ctx is not None else state)
    return enc.mask(ENGINE.legal_actions(state, seat))
