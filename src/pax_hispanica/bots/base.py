"""The one seam every bot sits behind: ``decide(view, legal) -> action``.

A bot receives only what a player at the table receives: its own view of the
game (``api.view(state, seat)``) and the legal-action descriptors
(``api.legal_actions(state, seat)``).  It never sees the raw state.  Search
bots (ISMCTS) build full states from the view with ``api.determinize``.
"""
from __future__ import annotations

import contextlib
import hashlib
import importlib
import json
import random
import weakref
from collections.abc import Iterable
from typing import Any, Protocol, cast

from ..contract import Engine, Logs, lacks

Action = dict[str, Any]
Descriptor = dict[str, Any]

DEFAULT_API = "pax_hispanica.api"
EXPAND_LIMIT = 10_000        # as api.expand: no bot lists more actions than this


def load_api(api: object = None) -> Engine[Any]:
    """Return the engine: ``pax_hispanica.api`` unless another engine, or the name of a module
    that is one, is given (e.g. the toy game of the tests, bots/toygame.py). An engine satisfies
    the core contract (pax_hispanica.contract.Engine, docs/api.md); TypeError, naming what it
    lacks, for anything else."""
    if api is None:
        api = DEFAULT_API
    mod = importlib.import_module(api) if isinstance(api, str) else api
    with contextlib.suppress(TypeError):      # not hashable: checked every time
        if mod in _ENGINES_CHECKED:
            return cast(Engine[Any], mod)
    if not isinstance(mod, Engine):
        raise TypeError(f"{mod!r} is not an engine: it lacks {', '.join(lacks(mod, Engine))} "
                        "(pax_hispanica.contract.Engine)")
    with contextlib.suppress(TypeError):      # not weakly referable: checked every time
        _ENGINES_CHECKED.add(mod)
    return mod


# engines load_api has already checked: isinstance against a runtime-checkable Protocol walks
# every member each time (about 0.15 ms), and expand_descriptors asks on every heuristic decision
_ENGINES_CHECKED: weakref.WeakSet[Any] = weakref.WeakSet()


def action_key(action: Action) -> str:
    """A canonical, hashable text for an action dict."""
    return json.dumps(action, sort_keys=True, separators=(",", ":"))


def stable_seed(*parts: Any) -> int:
    """A 63-bit seed from any JSON-able parts; the same in every process
    (Python's ``hash`` is salted per process, so it is never used)."""
    text = json.dumps(parts, sort_keys=True, separators=(",", ":"), default=str)
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big") >> 1


def private_seed(seed: int, seat: Any, version: Any) -> int:
    """The seed of a private bot's randomness for the decision at action count `version`: a
    SHA-256 of the bot's seed (secret: the web server derives it from the game's secret,
    api.derived_seed(secret, "bot|<seat>")), the seat and the count. Nobody without the seed
    can compute it from what the table sees."""
    return stable_seed("paxh-private-decision", int(seed), seat, version)


def expand_descriptors(legal: Iterable[Descriptor], api: object = None) -> list[Action]:
    """Every concrete action the descriptors allow.

    Uses ``api.expand`` when the API has it, with a local fallback that
    follows docs/api.md (``choice`` -> its options, ``range`` -> one action
    per value of ``field`` from ``min`` to ``max``)."""
    legal = list(legal)
    if count_actions(legal) > EXPAND_LIMIT:
        raise ValueError("too many actions to list: use count_actions/nth_action or bounded_actions")
    mod = load_api(api) if api is not None or _has_default_api() else None
    if mod is not None and hasattr(mod, "expand"):
        return list(mod.expand(legal))
    out: list[Action] = []
    for d in legal:
        kind = d.get("kind")
        if kind == "choice":
            out.extend(dict(o) for o in d["options"])
        elif kind == "range":
            for v in range(int(d["min"]), int(d["max"]) + 1):
                a = dict(d["action"])
                a[d["field"]] = v
                out.append(a)
        else:
            raise ValueError(f"unknown descriptor kind {kind!r}")
    return out


def playable(legal: Iterable[Descriptor]) -> list[Descriptor]:
    """The descriptors without undo options (bots never take back their moves; undo is
    never listed by the engine, but a seam may add it). Kept if undo is all there is."""
    legal = list(legal)
    for d in legal:                # nearly always nothing to drop: no copies then (issue 13)
        if d.get("kind") == "choice" and (not d["options"] or any(o.get("type") == "undo" for o in d["options"])):
            break
    else:
        return legal
    kept = [dict(d, options=[o for o in d["options"] if o.get("type") != "undo"])
            if d.get("kind") == "choice" else d for d in legal]
    kept = [d for d in kept if d.get("kind") != "choice" or d["options"]]
    return kept if count_actions(kept) else legal


def count_actions(legal: Iterable[Descriptor]) -> int:
    """How many concrete actions the descriptors allow, without listing them (a bid range
    is as wide as a player's money)."""
    n = 0
    for d in legal:
        if d.get("kind") == "choice":
            n += len(d["options"])
        elif d.get("kind") == "range":
            n += max(0, int(d["max"]) - int(d["min"]) + 1)
        else:
            raise ValueError(f"unknown descriptor kind {d.get('kind')!r}")
    return n


def nth_action(legal: Iterable[Descriptor], i: int) -> Action:
    """The i-th concrete action in expand's order, found without listing the others."""
    for d in legal:
        if d.get("kind") == "choice":
            if i < len(d["options"]):
                return dict(d["options"][i])
            i -= len(d["options"])
        else:
            lo, hi = int(d["min"]), int(d["max"])
            if i <= hi - lo:
                a = dict(d["action"])
                a[d["field"]] = lo + i
                return a
            i -= max(0, hi - lo + 1)
    raise IndexError("action index out of range")


def spread(lo: int, hi: int, cap: int) -> list[int]:
    """Every value of lo..hi when there are at most `cap`, else `cap` values evenly spread,
    lo and hi included: a search considers a bounded set of bids however rich a player is."""
    if hi - lo + 1 <= cap:
        return list(range(lo, hi + 1))
    step = (hi - lo) / (cap - 1)
    return sorted({lo + round(k * step) for k in range(cap)})


def bounded_actions(legal: Iterable[Descriptor], cap: int) -> list[Action]:
    """The concrete actions, with each range cut down to `spread(min, max, cap)` values."""
    out: list[Action] = []
    for d in legal:
        if d.get("kind") == "choice":
            out.extend(dict(o) for o in d["options"])
        else:
            for v in spread(int(d["min"]), int(d["max"]), cap):
                a = dict(d["action"])
                a[d["field"]] = v
                out.append(a)
    return out


def _has_default_api() -> bool:
    try:
        importlib.import_module(DEFAULT_API)
        return True
    except ImportError:
        return False


def without_undo(actions: list[Action]) -> list[Action]:
    """Bots never take back their own moves: undo is legal but only lengthens
    games.  If undo were the only choice it is kept."""
    kept = [a for a in actions if a.get("type") != "undo"]
    return kept or actions


class Agent(Protocol):
    kind: str

    def decide(self, view: dict[str, Any], legal: list[Descriptor]) -> Action: ...

    def explain(self) -> dict[str, Any]: ...


class BaseAgent:
    """Shared plumbing: a private PRNG (never the global ``random``), the API
    module, and the last decision's explanation."""

    kind = "base"
    # Whether decide() needs the masked state in its view (view["state"], for
    # api.determinize): callers may leave it out of the view otherwise, which is cheaper.
    uses_information_state = False
    # Whether decide() reads its view at all: a caller may pass view=None to a bot that does
    # not (the random bot chooses from the legal actions alone), and build no view for it.
    reads_view = True
    # Whether decide() takes the seat's own log, decide(view, legal, log=api.redact(events,
    # seat)): ISMCTS reads from it which cards every hand holds (api.known_cards); a caller
    # without the log calls decide(view, legal), and the bot guesses those hands instead.
    uses_log = False

    def __init__(self, seed: int = 0, api: object = None, private: bool | int | str = False,
                 **options: Any) -> None:
        self.seed = int(seed)
        self.rng = random.Random(self.seed)
        # private: the bot plays against people whose sealed choices it must not give away
        # (docs/bots.md, "Private sealed choices"): its sealed choices (bids, Battle Cards) are
        # mixed over good choices, and every decision's randomness comes from decision_rng,
        # keyed by the bot's seed (the web server derives it from the game's secret and the
        # seat, api.derived_seed) and the game's action count, so nothing is persisted and a
        # reload or another server continues the same stream. Off: the bot decides as it always
        # did (the simulator's seeded games, the corpus and the golden files are unchanged).
        self.private = str(private).strip().lower() not in ("0", "false", "no", "", "none")
        if self.private:
            self.reads_view = True          # the decision's key is the view's action count
        self.api_ref = api
        self._api: Engine[Any] | None = None
        self.options = options
        self._explanation: dict[str, Any] = {}

    @property
    def api(self) -> Engine[Any]:
        if self._api is None:
            self._api = load_api(self.api_ref)
        return self._api

    def decision_rng(self, view: Any) -> random.Random:
        """The randomness of one decision: with `private`, a PRNG keyed by the bot's seed, the
        seat and the game's action count (view["version"]: every decision of a game has its
        own), the same however often the game was reloaded or whichever server runs the bot;
        without, the bot's own stream (`self.rng`)."""
        if not self.private or not isinstance(view, dict) or "version" not in view:
            return self.rng
        return random.Random(private_seed(self.seed, view.get("viewer"), view["version"]))

    def expand(self, legal: list[Descriptor]) -> list[Action]:
        return without_undo(expand_descriptors(legal, self.api))

    def explain(self) -> dict[str, Any]:
        return dict(self._explanation)

    def __repr__(self) -> str:
        return f"{type(self).__name__}(seed={self.seed})"


class SeatLogs:
    """The own log of every seat whose bot reads one (``uses_log``: ISMCTS), kept as the
    game goes: ``api.redact(events, seat)`` of the game's events so far (HID-2), extended
    one decision at a time. ``decide`` passes a seat's log to its bot, and calls
    ``decide(view, legal)`` for a bot that takes none. The simulator keeps the same logs
    (sim/runner.py); the corpus's bot games, the TUI and the Gymnasium opponents use this."""

    def __init__(self, api: Logs, agents: Any, events: list[dict[str, Any]]) -> None:
        items = agents.items() if isinstance(agents, dict) else enumerate(agents)
        self.api = api
        self.logs: dict[int, list[dict[str, Any]]] = {s: list(api.redact(events, s)) for s, a in items
                                            if getattr(a, "uses_log", False)}

    def __bool__(self) -> bool:
        return bool(self.logs)

    def add(self, events: list[dict[str, Any]]) -> None:
        """The events one action caused, each seat's share appended to its log."""
        for s, log in self.logs.items():
            log.extend(self.api.redact(events, s))

    def decide(self, agent: Any, seat: int, view: Any, legal: list[Descriptor]) -> Action:
        log = self.logs.get(seat)
        ret: dict[str, Any] = agent.decide(view, legal) if log is None else agent.decide(view, legal, log=log)
        return ret
