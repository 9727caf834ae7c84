"""Playing many games: one game from a spec, and the local / process-pool /
Dask executors that play many specs.

Determinism: a game's seed is derived from the master seed and the game's
index (``game_seed``), the bots of each seat from a fixed rotation, and each
bot's seed from the game seed and its seat.  A game never depends on which
worker plays it or on what that worker played before, so the results of a
run are identical whatever the number of workers or machines (timings
apart).
"""
from __future__ import annotations

import inspect
import time
import traceback
from collections.abc import Callable, Iterable
from concurrent.futures import ProcessPoolExecutor, as_completed
from typing import Any

from ..bots import KINDS, make_agent
from ..bots.base import DEFAULT_API, load_api, stable_seed
from ..contract import Engine, Logs
from . import facts
from .engagement import Tracker

Progress = Callable[[int, int], None]   # (games done so far, total)

MAX_DECISIONS = 50_000


def game_seed(master_seed: int, index: int) -> int:
    return stable_seed("game", int(master_seed), int(index))


def parse_bots(bots: str | Iterable[str] | None, players: int) -> list[dict[str, Any]]:
    """``"ismcts:iterations=200,heuristic,random"`` -> one spec per seat.

    A bot is ``kind`` or ``kind:key=value:key=value``.  Fewer bots than
    players are padded with "random"; more is an error."""
    if bots is None:
        items: list[str] = []
    elif isinstance(bots, str):
        items = [b for b in (x.strip() for x in bots.split(",")) if b]
    else:
        items = [str(b).strip() for b in bots]
    if len(items) > players:
        raise ValueError(f"{len(items)} bots given for {players} players")
    items += ["random"] * (players - len(items))
    specs = []
    for item in items:
        kind, *opts = item.split(":")
        def refusal(o: str, item: str = item) -> str:
            return f"bot option {o!r} is not key=value (in {item!r})"
        options = _assignments(opts, refusal)
        kind = kind.strip().lower()
        if kind not in KINDS:
            raise ValueError(f"unknown bot {kind!r}: use {', '.join(KINDS[:-1])} or {KINDS[-1]}")
        specs.append({"kind": kind, "options": options, "label": item})
    return specs


def _number(v: str) -> Any:
    for cast in (int, float):
        try:
            return cast(v)
        except ValueError:
            pass
    return v


def seat_bots(bot_specs: list[dict[str, Any]], index: int, rotate: bool) -> list[dict[str, Any]]:
    """The bots of each seat in game ``index``: the list rotates by one seat
    per game (so every bot sits in every seat equally often) unless
    ``rotate`` is false."""
    n = len(bot_specs)
    if not rotate:
        return list(bot_specs)
    r = index % n
    return [bot_specs[(s - r) % n] for s in range(n)]


def parse_nations(nations: str | list[Any] | None, players: int) -> str | list[Any] | None:
    """None/"default" (the ruleset's order, seat by seat), "shuffle" (a random
    set of different nations per game, from the game's seed), or a list."""
    if nations is None or nations == "" or nations == "default":
        return None
    if nations == "shuffle":
        return "shuffle"
    items = [x.strip().lower() for x in nations.split(",")] if isinstance(nations, str) else list(nations)
    if len(items) != players or len(set(items)) != players:
        raise ValueError(f"--nations needs {players} different nations, or 'shuffle'")
    return items


def parse_params(items: Iterable[str] | dict[str, Any] | None) -> dict[str, Any]:
    """``["crown_colony_prestige=1", "employ_range=anywhere"]`` -> variant parameters (PRJ-31);
    the engine checks the names and types when a game is set up."""
    if not items:
        return {}
    if isinstance(items, dict):
        return dict(items)
    return _assignments(items, lambda i: f"--set {i!r}: use NAME=VALUE, e.g. --set crown_colony_prestige=1")


def _assignments(items: Iterable[str], refusal: Callable[[str], str]) -> dict[str, Any]:
    """``["a=1", "b=x"]`` -> {"a": 1, "b": "x"}; an item without "=" is refused with ``refusal(item)``."""
    out: dict[str, Any] = {}
    for item in items:
        if "=" not in item:
            raise ValueError(refusal(item))
        k, v = item.split("=", 1)
        out[k.strip()] = _number(v.strip())
    return out


def game_nations(nations: str | list[Any] | None, master_seed: int, index: int, players: int, api: str,
                 ruleset: str = "reference") -> str | list[Any] | None:
    if nations != "shuffle":
        return nations
    import random
    engine = load_api(api)
    if not hasattr(engine, "load_ruleset"):        # beyond the core contract
        raise TypeError(f"{api}: shuffled nations need an engine with rulesets (load_ruleset)")
    pool = list(engine.load_ruleset(ruleset).nation_order)
    return random.Random(stable_seed("nations", int(master_seed), int(index))).sample(pool, players)


def make_specs(players: int, games: int, bots: Any, seed: int, rotate: bool = True,
               api: str = DEFAULT_API, log_explanations: bool = False,
               max_decisions: int = MAX_DECISIONS, nations: Any = None,
               ruleset: str = "reference", params: Any = None) -> list[dict[str, Any]]:
    bot_specs = parse_bots(bots, players) if not (isinstance(bots, list) and bots and isinstance(bots[0], dict)) else bots
    nations = parse_nations(nations, players)
    params = parse_params(params)
    return [{"index": i, "seed": game_seed(seed, i), "players": players,
             "bots": seat_bots(bot_specs, i, rotate), "api": api, "ruleset": ruleset, "params": params,
             "nations": game_nations(nations, seed, i, players, api, ruleset),
             "log_explanations": log_explanations, "max_decisions": max_decisions}
            for i in range(games)]


def _has_lean_views(api: Engine[Any]) -> bool:
    """Whether the API's view can leave the masked state out (a toy game's view may not)."""
    try:
        return "include_state" in inspect.signature(api.view).parameters
    except (TypeError, ValueError):
        return False


def _last_cycle(api: Engine[Any], spec: dict[str, Any]) -> int | None:
    """The ruleset's `cycles` (CYC-2) for this game's variant, or None for an API without rulesets."""
    if not hasattr(api, "load_ruleset"):        # beyond the core contract: a toy game has none
        return None
    try:
        return int(api.load_ruleset(spec.get("ruleset", "reference"), spec.get("params") or None).cycles)
    except Exception:  # any failure: a ruleset that does not load
        return None


def play_game(spec: dict[str, Any]) -> dict[str, Any]:
    """Play one game to the end; never raises (an engine or bot error is
    recorded in the result's ``error``)."""
    api = load_api(spec.get("api"))
    n = spec["players"]
    t0 = time.perf_counter()
    out: dict[str, Any] = {
        "index": spec["index"], "seed": spec["seed"], "players": n,
        "bots": [b["label"] for b in spec["bots"]],
        "winner": None, "scores": None, "ranking": None, "decisions": 0,
        "decisions_by_seat": [0] * n, "cards_played": [[] for _ in range(n)],
        "error": None,
    }
    explanations: list[dict[str, Any]] = []
    try:
        agents = [make_agent(b["kind"], stable_seed("bot", spec["seed"], seat),
                             api=spec.get("api"), **b["options"])
                  for seat, b in enumerate(spec["bots"])]
        state, logs = _new_game(api, spec, agents)
        out.update(facts.at_start(api, state, n))
        views_with_state, views_wanted = _views_wanted(api, agents)
        tracker = Tracker(api, state)
        keep_logs = _log_keeper(api, logs)
        log_explanations = bool(spec.get("log_explanations"))
        limit = spec.get("max_decisions", MAX_DECISIONS)
        # paxh train-eval: every k-th position's public features, labelled once the game ends
        every = int(spec.get("positions_every") or 0)
        positions: list[list[list[float]]] = []
        features = _features(api, spec) if every else None
        while not api.is_over(state):
            seats = api.acting(state)
            if not seats:
                raise RuntimeError("nobody acts but the game is not over")
            seat = seats[0]      # sealed choices: commit order never matters
            legal = api.legal_actions(state, seat)
            view = _view(api, state, seat, views_with_state[seat], views_wanted[seat])
            log = logs[seat]
            reader: Any = agents[seat]        # a bot that reads its own log (uses_log) takes log=
            action = reader.decide(view, legal) if log is None else reader.decide(view, legal, log=log)
            state, events = api.apply(state, action)
            keep_logs(events)
            tracker.decision(legal, action, events, state)
            _count(out, seat, action)
            if log_explanations:
                explanations.append({"decision": out["decisions"], "seat": seat,
                                     "bot": spec["bots"][seat]["label"], "action": action,
                                     "why": agents[seat].explain()})
            if features is not None and out["decisions"] % every == 0 and not api.is_over(state):
                positions.append(features(state))
            if out["decisions"] >= limit:
                raise RuntimeError(f"game not over after {limit} decisions")
        _finish(out, api, spec, state, tracker)
        if every:
            out["positions"] = positions
    except Exception as exc:  # any failure: recorded, counted and shown in the report
        out["error"] = f"{type(exc).__name__}: {exc}"
        out["traceback"] = traceback.format_exc(limit=8)
    out["seconds"] = time.perf_counter() - t0
    if spec.get("log_explanations"):
        out["explanations"] = explanations
    return out


def _features(api: Engine[Any], spec: dict[str, Any]) -> Callable[[Any], list[list[float]]]:
    """paxh train-eval: a position's public features by seat (bots/learned.seat_features)."""
    from ..bots.learned import seat_features
    if not (hasattr(api, "load_ruleset") and hasattr(api, "summary")):      # beyond the core contract
        raise TypeError("position features need an engine with rulesets and summaries (pax_hispanica.api)")
    rs = api.load_ruleset(spec.get("ruleset", "reference"), spec.get("params") or None)
    return lambda state: seat_features(api.summary(state), rs)


def _view(api: Engine[Any], state: Any, seat: int, with_state: bool, wanted: bool) -> Any:
    """The view a seat's bot decides on (with the masked state for a search bot; None for a bot that reads none)."""
    if with_state:              # (_views_wanted: only for an engine whose view takes include_state, api's)
        full_view: Any = api.view
        return full_view(state, seat, include_state=True)
    return api.view(state, seat) if wanted else None


def _count(out: dict[str, Any], seat: int, action: dict[str, Any]) -> None:
    """A decision made: counted, and a card played kept by seat."""
    out["decisions"] += 1
    out["decisions_by_seat"][seat] += 1
    if action.get("type") == "play" and "card" in action:
        out["cards_played"][seat].append(action["card"])


def _log_keeper(api: Engine[Any], logs: list[list[dict[str, Any]] | None]) -> Callable[[list[dict[str, Any]]], None]:
    """What extends each kept log (a seat's whose bot reads one) by the events of one action, as
    that seat may see them (HID-2). _new_game keeps logs only for an engine with redact (Logs,
    beyond the core contract); for none, or another engine, it does nothing."""
    kept = [(s, own) for s, own in enumerate(logs) if own is not None]
    if not kept or not isinstance(api, Logs):
        return lambda events: None
    redact = api.redact

    def keep(events: list[dict[str, Any]]) -> None:
        for s, own in kept:
            own.extend(redact(events, s))
    return keep


def _new_game(api: Engine[Any], spec: dict[str, Any], agents: list[Any]) -> tuple[Any, list[list[dict[str, Any]] | None]]:
    """The game's first state, and each seat's log for the bots that read one (else None)."""
    n = spec["players"]
    extra = {k: spec[k] for k in ("nations", "params") if spec.get(k)}
    if spec.get("ruleset", "reference") != "reference":
        extra["ruleset"] = spec["ruleset"]
    make_config: Any = api.Config if hasattr(api, "Config") else dict   # api's and the toy's Config
    config = make_config(players=n, **extra)
    # a bot that reads its own log (ISMCTS: which cards the others hold, api.known_cards)
    # gets it, redacted for its seat (HID-2) and kept up to date one decision at a time
    logs: list[list[dict[str, Any]] | None] = [None] * n
    if any(getattr(a, "uses_log", False) for a in agents) and hasattr(api, "Game") and hasattr(api, "redact"):
        game = api.Game.new(config, seed=spec["seed"])       # the state of new_game, and its events
        state = game.state
        logs = [api.redact(game.events, s) if getattr(a, "uses_log", False) else None
                for s, a in enumerate(agents)]
    else:
        state = api.new_game(config, spec["seed"])
    return state, logs


def _views_wanted(api: Engine[Any], agents: list[Any]) -> tuple[list[bool], list[bool]]:
    """Per seat: whether its bot's view carries the masked state, and whether it gets a view at all."""
    # the masked state costs most of a view; only a search bot reads it (asked for, docs/api.md)
    lean = _has_lean_views(api)
    # (a toy game's view takes no include_state: its view is whatever it always gives)
    views_with_state = [lean and getattr(a, "uses_information_state", True) for a in agents]
    # a bot that never reads its view (the random bot) gets none: building it would cost
    # more than the bot's decision (issue 13)
    views_wanted = [getattr(a, "reads_view", True) for a in agents]
    return views_with_state, views_wanted


def _finish(out: dict[str, Any], api: Engine[Any], spec: dict[str, Any], state: Any, tracker: Tracker) -> None:
    """The finished game's result, end facts and engagement facts, into `out`."""
    got = api.result(state)
    if got is None:
        raise RuntimeError("the game is over but has no result")
    res = dict(got)
    out["winner"] = res["winner"]
    out["scores"] = list(res.get("scores") or [])
    out["ranking"] = list(res.get("ranking") or [])
    out.update(facts.at_end(api, state, spec["players"], res))
    out["engagement"] = tracker.facts(res, _last_cycle(api, spec))


def play_chunk(specs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [play_game(s) for s in specs]


def _chunks(specs: list[dict[str, Any]], size: int) -> list[list[dict[str, Any]]]:
    return [specs[i:i + size] for i in range(0, len(specs), size)]


def _chunk_size(games: int, workers: int) -> int:
    # small chunks keep the progress bar live and the load balanced
    return max(1, min(8, games // max(1, workers * 8)))


def _warm(specs: list[dict[str, Any]]) -> None:
    if not specs:
        return
    api = load_api(specs[0].get("api"))
    if hasattr(api, "load_ruleset"):
        api.load_ruleset(specs[0].get("ruleset", "reference"), specs[0].get("params") or None)
    for kind in {b["kind"] for b in specs[0]["bots"]}:
        make_agent(kind, 0, api=specs[0].get("api"))


def execute(specs: list[dict[str, Any]], workers: int = 1, dask_address: str | None = None,
            progress: Progress | None = None,
            on_results: Callable[[list[dict[str, Any]]], None] | None = None,
            chunk_size: int | None = None) -> list[dict[str, Any]]:
    """Play every spec, locally, in ``workers`` processes, or on a Dask
    cluster; results come back in game order. ``on_results`` is given each batch of results as
    it finishes (in the order they finish), e.g. to write them down before the run ends.
    ``chunk_size``: games per task sent to a worker (default: up to 8, fewer for short runs); 1
    hands each game back as it ends, for runs of slow games written down to be resumed."""
    total = len(specs)
    done = 0
    results: list[dict[str, Any]] = []

    def tick(k: int) -> None:
        nonlocal done
        done += k
        if on_results is not None and k:
            on_results(results[-k:])
        if progress is not None:
            progress(done, total)

    if dask_address:
        from distributed import Client
        from distributed import as_completed as dask_completed
        with Client(dask_address) as client:  # type: ignore[no-untyped-call]  # distributed is untyped
            chunks = _chunks(specs, chunk_size or _chunk_size(total, max(1, len(client.scheduler_info().get("workers", {})))))
            futures = client.map(play_chunk, chunks, pure=False)
            for fut in dask_completed(futures):  # type: ignore[no-untyped-call]
                part = fut.result()
                results.extend(part)
                tick(len(part))
    elif workers <= 1:
        for spec in specs:
            results.append(play_game(spec))
            tick(1)
    else:
        _warm(specs)      # forked workers inherit the imported engine and ruleset
        with ProcessPoolExecutor(max_workers=workers) as pool:
            futs = [pool.submit(play_chunk, c) for c in _chunks(specs, chunk_size or _chunk_size(total, workers))]
            for fut in as_completed(futs):
                part = fut.result()
                results.extend(part)
                tick(len(part))
    results.sort(key=lambda r: r["index"])
    return results


def run(players: int, games: int, bots: Any = None, seed: int = 0, workers: int = 1,
        dask_address: str | None = None, progress: Progress | None = None, *,
        rotate: bool = True, api: str = DEFAULT_API, log_explanations: bool = False,
        max_decisions: int = MAX_DECISIONS, nations: Any = None,
        ruleset: str = "reference", params: Any = None) -> list[dict[str, Any]]:
    """Play ``games`` games of ``players`` seats and return one result dict
    per game, in game order.  ``bots``: a comma list or list of bot specs
    ("random", "heuristic", "ismcts:iterations=100"), padded with random.
    ``nations``: None (the ruleset's order by seat), "shuffle", or a list.
    ``ruleset``: a ruleset name or folder; ``params``: a variant's overridden
    numbers (PRJ-31), a dict or ``["name=value", ...]``."""
    specs = make_specs(players, games, bots, seed, rotate=rotate, api=api,
                       log_explanations=log_explanations, max_decisions=max_decisions, nations=nations,
                       ruleset=ruleset, params=params)
    return execute(specs, workers=workers, dask_address=dask_address, progress=progress)
