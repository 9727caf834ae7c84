"""The corpus of recorded games that pins the engine's behaviour (tests/corpus/, issue 13).

Each entry is one finished game: its record (`api.Game.record`, format paxh-record-2), its
final result (`api.result`) and a hash of its final state, ``state_sha256`` =
SHA-256 of ``api.snapshot(final state)`` (the compact JSON of ``State.to_dict``) in hex.
`tests/engine/test_corpus.py` replays every record and checks both, so any change in the
rules, the randomness or the state's serialisation shows up.

Entries live in JSON-lines files, one entry per line, grouped by where the games come from:

- ``bots_{2..5}p.jsonl``: seeded bot games (random, heuristic, ISMCTS at a small iteration
  budget, in mixes), all four player counts, a few with variants (PRJ-31);
- ``scenarios.jsonl``: every scenario file of ``docs/scenarios/`` applied, then played to the
  end by seeded heuristic bots;
- ``web.jsonl``: games played through the web server's JSON API by its own bots and a
  client, fetched from ``/api/record/{token}`` after the end. Their seeds are the server's
  128-bit secrets, so they cannot be regenerated: ``scripts/make_corpus.py`` keeps them as
  recorded (only their result and hash are recomputed) unless asked for new ones (``--web``).

Everything but the web games is a pure function of this file's seeds, so regenerating
(``scripts/make_corpus.py``) twice gives byte-identical files.
"""
from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from .. import api
from ..bots import make_agent
from ..bots.base import SeatLogs, stable_seed
from ..contract import SearchEngine

ENGINE: SearchEngine[api.State] = api
"""The engine the games are played through, typed against the contract (issue 39): its
operations, and the log helpers (Logs) the bots' own logs are kept with."""

ROOT = Path(__file__).resolve().parents[3]
CORPUS = ROOT / "tests" / "corpus"
SCENARIOS = ROOT / "docs" / "scenarios"
MAX_ACTIONS = 20_000
ISMCTS = {"iterations": 24, "cutoff": 6}     # small budget: generation stays minutes, not hours


def state_hash(state: api.State) -> str:
    """The corpus's hash of a state: SHA-256 of api.snapshot(state), hex."""
    return hashlib.sha256(api.snapshot(state)).hexdigest()


def entry(game: api.Game, **meta: Any) -> dict[str, Any]:
    """A corpus entry of a finished (or stopped) game."""
    return {**meta, "actions": len(game.record["actions"]), "result": ENGINE.result(game.state),
            "state_sha256": state_hash(game.state), "record": game.record}


def play_out(game: api.Game, kinds: list[str], seed: int, options: dict[str, Any] | None = None) -> api.Game:
    """Play `game` to its end with one bot per seat, each seeded from `seed` and its seat; a
    bot that reads its own log (ISMCTS) gets it, as in `paxh simulate` (bots.base.SeatLogs)."""
    agents = [make_agent(k, stable_seed("corpus-bot", seed, s), **(options or {}).get(k, {}))
              for s, k in enumerate(kinds)]
    logs = SeatLogs(ENGINE, agents, game.events)
    while not ENGINE.is_over(game.state):
        seats = ENGINE.acting(game.state)
        if not seats:
            raise RuntimeError("nobody acts but the game is not over")
        seat = seats[0]
        view = ENGINE.view(game.state, seat)
        if getattr(agents[seat], "uses_information_state", False):      # what view(..., include_state=True) adds
            view["state"] = ENGINE.information_state(game.state, seat)
        action = logs.decide(agents[seat], seat, view, ENGINE.legal_actions(game.state, seat))
        logs.add(game.act(action))
        if len(game.record["actions"]) > MAX_ACTIONS:
            raise RuntimeError(f"game not over after {MAX_ACTIONS} actions")
    return game


# The bot games: players -> [(seat bots, number of games, config extras)]; the extras are a
# variant's "params" (PRJ-31) or "nations" (without the Spanish, the Crown decides its own
# colonies: PRJ-14). Each game's seed is stable_seed("corpus", players, mix, game): append new
# mixes at the end of a list, so that the games already in the corpus keep their seeds.
P = "params"
_REFERENCE = api.load_ruleset("reference")
_NOT_SPANISH = [n for n in _REFERENCE.nation_order if not _REFERENCE.nations[n].get("crown")]   # all but the Spanish
NO_SPAIN = {3: _NOT_SPANISH[:3], 4: _NOT_SPANISH[:4]}
MIXES: dict[int, list[tuple[list[str], int, dict[str, Any]]]] = {
    2: [(["random", "random"], 7, {}), (["heuristic", "heuristic"], 5, {}), (["heuristic", "random"], 3, {}),
        (["ismcts", "heuristic"], 3, {}), (["random", "random"], 2, {P: {"auctions_per_player": 2}}),
        (["heuristic", "heuristic"], 1, {P: {"supply_chests": 6, "employ_range": "anywhere"}}),
        (["heuristic", "random"], 2, {"nations": ["english", "dutch"]})],
    3: [(["random", "random", "random"], 7, {}), (["heuristic", "heuristic", "heuristic"], 5, {}),
        (["random", "heuristic", "random"], 3, {}), (["ismcts", "heuristic", "random"], 3, {}),
        (["random", "random", "random"], 2, {P: {"cycles": 2, "auctions_per_player": 3}}),
        (["heuristic", "heuristic", "random"], 2, {"nations": NO_SPAIN[3]}),
        (["random", "random", "random"], 2, {P: {"employ_range": "anywhere"}}),
        (["heuristic", "heuristic", "random"], 4, {P: {"house_rules": "reference-7"}})],      # PRJ-83 (4: a multiple of
                                                                     # 4 keeps the later games at their place in every 4th, test_strict_actions)
    4: [(["random"] * 4, 7, {}), (["heuristic"] * 4, 5, {}), (["heuristic", "random", "heuristic", "random"], 3, {}),
        (["ismcts", "heuristic", "heuristic", "random"], 3, {}),
        (["heuristic"] * 4, 2, {P: {"prestige_to_win": 8}}), (["random"] * 4, 1, {P: {"supply_chests": 8}}),
        (["random", "heuristic", "random", "heuristic"], 2, {"nations": NO_SPAIN[4]})],
    5: [(["random"] * 5, 7, {}), (["heuristic"] * 5, 5, {}), (["random", "heuristic"] * 2 + ["random"], 3, {}),
        (["ismcts", "heuristic", "random", "heuristic", "random"], 2, {}),
        (["heuristic"] * 5, 2, {P: {"slave_revolt": 3, "slave_death": 2}})],
}


def bot_entry(players: int, m: int, i: int) -> dict[str, Any]:
    """Game `i` of mix `m` of MIXES[players]."""
    kinds, _games, extra = MIXES[players][m]
    seed = stable_seed("corpus", players, m, i)
    cfg = api.Config(players=players, params=dict(extra.get(P, {})), nations=extra.get("nations"))
    game = play_out(api.Game.new(cfg, seed), kinds, seed, {"ismcts": ISMCTS})
    return entry(game, id=f"bots-{players}p-{m}-{i}", source="bots", bots=kinds,
                 **({"ismcts": ISMCTS} if "ismcts" in kinds else {}))


def bot_entries(players: int) -> Iterator[dict[str, Any]]:
    for m, (_kinds, games, _extra) in enumerate(MIXES[players]):
        for i in range(games):
            yield bot_entry(players, m, i)


def scenario_files() -> list[Path]:
    return sorted(SCENARIOS.glob("*.json"))


def scenario_entries() -> Iterator[dict[str, Any]]:
    """Each scenario file applied, then played to the end by heuristic bots (two seeds each:
    the scenario's own position is pinned by the first actions of both)."""
    for path in scenario_files():
        scenario = json.loads(path.read_text())
        for k in range(2):
            game = api.from_scenario(scenario)
            n = scenario["config"]["players"]
            seed = stable_seed("corpus-scenario", path.name, k)
            kinds = ["heuristic" if (s + k) % 2 == 0 else "random" for s in range(n)]
            play_out(game, kinds, seed)
            yield entry(game, id=f"scenario-{path.stem}-{k}", source="scenario", scenario=path.name, bots=kinds)


def refresh(e: dict[str, Any]) -> dict[str, Any]:
    """An entry (e.g. a web game, which cannot be replayed with new seeds) with its result and
    hash recomputed by replaying its record."""
    game = api.replay(e["record"])
    meta = {k: v for k, v in e.items() if k not in ("actions", "result", "state_sha256", "record")}
    return {**entry(game, **meta), "record": e["record"]}     # the record itself kept as recorded


def dumps(e: dict[str, Any]) -> str:
    return json.dumps(e, ensure_ascii=False, separators=(",", ":"), sort_keys=False)


def write(path: Path, entries: Iterable[dict[str, Any]]) -> int:
    lines = [dumps(e) for e in entries]
    path.write_text("".join(line + "\n" for line in lines))
    return len(lines)


def load_file(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def load(corpus: Path = CORPUS) -> list[tuple[str, dict[str, Any]]]:
    """Every entry of the corpus as (file name, entry), files in name order."""
    return [(path.name, e) for path in sorted(corpus.glob("*.jsonl")) for e in load_file(path)]
