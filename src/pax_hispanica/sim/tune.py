"""``paxh tune``: search ruleset numbers (PRJ-31 parameters, within their documented
ranges) for a game that meets the designer's targets (sim/objectives.py), with Optuna.

One trial = one variant (``params`` as with ``--set``) played through the existing
runner (sim/runner.py) on every table of the targets file, plus the skill-depth tables.
Reproducible: the sampler is seeded with ``--seed``, trials run one after another
(each trial's games spread over the workers or the Dask cluster), and trial k's games
are seeded from ``(seed, k, table)`` through the runner's ``game_seed``, so the same
command gives the same study.  Pruning (single objective): after the first half of a
trial's games its score is reported and Optuna's MedianPruner may stop it; the pruned
trial stays in the study with its intermediate value.  The study lives in SQLite when
``--study`` is given, so a run can stop and resume (``load_if_exists``).
"""
from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..bots.base import DEFAULT_API, load_api, stable_seed
from . import objectives as ob
from .engagement import card_names
from .runner import execute, make_specs
from .stats import report

Echo = Callable[[str], None]
SAMPLERS = ("tpe", "cmaes", "nsga2")


def search_space(ruleset: str = "reference", names: list[str] | None = None,
                 ranges: dict[str, tuple[int, int]] | None = None, api: str = DEFAULT_API) -> dict[str, dict[str, Any]]:
    """{name: {"low", "high", "value"}} for the chosen int parameters (all of them by default);
    ``ranges`` narrows a parameter's documented range (never widens it: the engine refuses)."""
    engine = load_api(api)
    if not hasattr(engine, "parameters"):         # beyond the core contract
        raise TypeError(f"{api}: tuning needs an engine with a ruleset's parameters (parameters)")
    table = engine.parameters(ruleset, extended=True)
    ints = {k: v for k, v in table.items() if v["type"] == "int" and v.get("range")}
    # PRJ-67, PRJ-68, PRJ-75: the cards' costs (card_cost.<id>), the per-count King's share and the
    # per-count Crown colonies (crown_colonies.<N>) are searched only when named
    chosen = [k for k in ints if "." not in k] if not names or names == ["all"] else names
    out = {}
    for name in chosen:
        if name not in ints:
            raise ValueError(f"--params: {name!r} is not an int parameter with a range; `paxh rules --params` lists them")
        lo, hi = ints[name]["range"]
        if ranges and name in ranges:
            nlo, nhi = ranges[name]
            if nlo < lo or nhi > hi or nlo > nhi:
                raise ValueError(f"--range {name}={nlo}..{nhi} is outside its documented range {lo}..{hi}")
            lo, hi = nlo, nhi
        out[name] = {"low": int(lo), "high": int(hi), "value": int(ints[name]["value"])}
    for name in ranges or {}:
        if name not in out:
            raise ValueError(f"--range {name}: not among the searched parameters")
    return out


def parse_ranges(items: list[str] | None) -> dict[str, tuple[int, int]]:
    """``["start_money=0..20"]`` -> {"start_money": (0, 20)}."""
    out = {}
    for item in items or []:
        name, _, span = item.partition("=")
        lo, sep, hi = span.partition("..")
        try:
            if not sep:
                raise ValueError
            out[name.strip()] = (int(lo), int(hi))
        except ValueError:
            raise ValueError(f"--range {item!r}: use NAME=LOW..HIGH, e.g. --range start_money=0..20") from None
    return out


def table_bots(bots: str, players: int) -> list[str]:
    """A table's bots, its list repeated over the seats ("heuristic" = heuristic self-play)."""
    items = [b.strip() for b in bots.split(",") if b.strip()]
    return [items[s % len(items)] for s in range(players)]


def skill_tables(players: int, mode: str, targets: dict[str, Any]) -> dict[str, list[str]]:
    """Head-to-head tables "stronger>weaker": the stronger in the even seats (the runner
    rotates the seats game by game)."""
    if mode == "off":
        return {}
    it = int((targets.get("skill") or {}).get("iterations", 200))
    bots = {"heuristic": "heuristic", "random": "random",
            "ismcts": f"ismcts:iterations={it}", "ismcts_half": f"ismcts:iterations={max(1, it // 2)}"}
    pairs = ["heuristic>random"]
    if mode == "ismcts":          # the chain of neighbours in strength
        pairs += ["ismcts>ismcts_half", "ismcts_half>heuristic"]
    elif mode == "matrix":        # every pair of the four, as the 2025 TAG balancing competition
        order = ["ismcts", "ismcts_half", "heuristic", "random"]
        pairs = [f"{a}>{b}" for i, a in enumerate(order) for b in order[i + 1:]]
    return {p: [bots[p.split(">")[s % 2]] for s in range(players)] for p in pairs}


def parse_player_counts(text: str) -> tuple[int, ...]:
    """``--players``: "4" or "3,4,5" (each 2-5, no repeats), in the order given."""
    try:
        counts = tuple(int(p) for p in text.split(",") if p.strip())
    except ValueError:
        raise ValueError(f"--players {text!r}: a count 2-5 or a comma list such as 3,4,5") from None
    if not counts or any(not 2 <= c <= 5 for c in counts) or len(set(counts)) != len(counts):
        raise ValueError(f"--players {text!r}: a count 2-5 or a comma list such as 3,4,5, each once")
    return counts


@dataclass
class TuneConfig:
    space: dict[str, dict[str, Any]]
    # one count, or several: every table is then played at each count (its weight shared
    # between them), so that numbers balanced for four players only are not chosen
    players: int | tuple[int, ...] = 4
    games: int = 20                 # per table per trial (per player count)
    seed: int = 0
    workers: int = 1
    dask: str | None = None
    ruleset: str = "reference"
    base_params: dict[str, Any] = field(default_factory=dict)
    targets: dict[str, Any] = field(default_factory=ob.load_targets)
    skill: str = "heuristic"        # off | heuristic | ismcts | matrix
    sampler: str = "tpe"
    prune: bool = True
    nations: str = "default"        # or "shuffle": separates a nation's balance from its seat's
    api: str = DEFAULT_API

    @property
    def player_counts(self) -> tuple[int, ...]:
        return (self.players,) if isinstance(self.players, int) else tuple(self.players)

    def table_name(self, table: str, players: int) -> str:
        """A table's name in a trial's results: the targets file's name, with "@Np" when a
        trial plays several player counts."""
        return table if len(self.player_counts) == 1 else f"{table}@{players}p"

    def groups(self) -> list[str]:
        """The objectives of a multi-objective study: the groups with a weight."""
        gs = []
        for name, spec in self.targets["objectives"].items():
            if spec["weight"] > 0 and spec["group"] not in gs and (name != "skill" or self.skill != "off"):
                gs.append(spec["group"])
        return gs


class Evaluation:
    """Plays one trial's variant in two batches (first half, then the rest) and scores it."""

    def __init__(self, cfg: TuneConfig, params: dict[str, Any], number: int) -> None:
        self.cfg, self.params, self.number = cfg, params, number
        skill_games = max(1, round(cfg.games * float(cfg.targets["skill"].get("games_fraction", 0.5))))
        counts = cfg.player_counts
        self.specs: dict[str, list[dict[str, Any]]] = {}
        self.weights: dict[str, float] = {}
        self.skill: dict[str, list[str]] = {}
        for players in counts:
            for table, spec in cfg.targets["tables"].items():
                name = cfg.table_name(table, players)
                self.specs[name] = self._specs(name, players, table_bots(spec["bots"], players), cfg.games,
                                               spec.get("nations") or cfg.nations)
                self.weights[name] = spec["weight"] / len(counts)
            for pair, bots in skill_tables(players, cfg.skill, cfg.targets).items():
                name = cfg.table_name(pair, players)
                self.skill[name] = bots
                self.specs[f"skill:{name}"] = self._specs(f"skill:{name}", players, bots, skill_games)
        self.results: dict[str, list[dict[str, Any]]] = {k: [] for k in self.specs}
        self.cards = card_names(load_api(cfg.api), cfg.ruleset, {**cfg.base_params, **params})

    def _specs(self, table: str, players: int, bots: list[str], games: int, nations: str | None = None) -> list[dict[str, Any]]:
        # one player count keeps the seeds of a one-count study (table names without "@Np")
        seed = stable_seed("tune", self.cfg.seed, self.number, table)   # games: game_seed(seed, i)
        return make_specs(players, games, ",".join(bots), seed, api=self.cfg.api, nations=nations or self.cfg.nations,
                          ruleset=self.cfg.ruleset, params={**self.cfg.base_params, **self.params})

    def play(self, part: int) -> None:
        """part 0: the first half of every table's games; part 1: the rest."""
        batch = []
        for name, specs in self.specs.items():
            half = math.ceil(len(specs) / 2)
            batch += [(name, s) for s in (specs[:half] if part == 0 else specs[half:])]
        if not batch:
            return
        done = execute([s for _n, s in batch], workers=self.cfg.workers, dask_address=self.cfg.dask)
        # indices repeat across tables (each starts at 0) but seeds do not: match by (seed, index)
        lookup = {(r["seed"], r["index"]): r for r in done}
        for name, spec in batch:
            self.results[name].append(lookup[(spec["seed"], spec["index"])])

    def score(self) -> dict[str, Any]:
        """Figures, losses, the groups' values and the scalar score of the games played so far."""
        cfg = self.cfg
        per_table, figs, errors, games = {}, {}, 0, 0
        for name in self.weights:
            res = self.results[name]
            summary = report(res, self.cards)
            errors += summary["errors"]
            games += summary["games"]
            figs[name], per_table[name] = ob.table_losses(summary, res, cfg.targets)
        pair_rates = {}
        for pair, bots in self.skill.items():
            res = [r for r in self.results[f"skill:{pair}"] if not r.get("error")]
            errors += sum(1 for r in self.results[f"skill:{pair}"] if r.get("error"))
            games += len(self.results[f"skill:{pair}"])
            strong = bots[0]
            pair_rates[pair] = (sum(1 for r in res if r["bots"][r["winner"]] == strong) / len(res)) if res else None
        skill_loss, gaps = ob.skill_figure(pair_rates, cfg.targets) if pair_rates else (None, {})
        losses, groups = ob.combine(per_table, self.weights, skill_loss, cfg.targets)
        return {"figures": figs, "skill_rates": pair_rates, "skill_gaps": gaps, "losses": losses,
                "groups": groups, "score": round(sum(groups.values()), 6), "errors": errors, "games": games}


def replay_table(cfg: TuneConfig, params: dict[str, Any], number: int, table: str | None = None) -> list[dict[str, Any]]:
    """The games trial ``number`` played on one table (the first of the targets by default),
    played again from the same seeds: a full simulator report for a suggestion."""
    ev = Evaluation(cfg, params, number)
    name = table or cfg.table_name(next(iter(cfg.targets["tables"])), cfg.player_counts[0])
    return execute(ev.specs[name], workers=cfg.workers, dask_address=cfg.dask)


def _sampler(cfg: TuneConfig, seed: int) -> Any:
    import optuna

    seed = seed % 2**32
    if cfg.sampler == "tpe":
        return optuna.samplers.TPESampler(seed=seed)
    if cfg.sampler == "cmaes":
        # CMA-ES starts from the ruleset's current numbers; TPE samples what CMA-ES cannot
        return optuna.samplers.CmaEsSampler(seed=seed, x0={k: v["value"] for k, v in cfg.space.items()},
                                            independent_sampler=optuna.samplers.TPESampler(seed=seed))
    if cfg.sampler == "nsga2":
        return optuna.samplers.NSGAIISampler(seed=seed)
    raise ValueError(f"--sampler {cfg.sampler!r}: use {', '.join(SAMPLERS)}")


def make_study(cfg: TuneConfig, storage: str | None = None, name: str | None = None) -> Any:
    import optuna

    multi = cfg.sampler == "nsga2"
    sampler = _sampler(cfg, cfg.seed)
    # 5 full trials before any pruning: a first half of a few games is noisy, and a pruned
    # trial teaches the sampler less than a finished one
    pruner = optuna.pruners.MedianPruner(n_startup_trials=5, n_warmup_steps=0) if (cfg.prune and not multi) \
        else optuna.pruners.NopPruner()
    kw: dict[str, Any] = {"directions": ["minimize"] * len(cfg.groups())} if multi else {"direction": "minimize"}
    study = optuna.create_study(storage=storage, study_name=name or "paxh-tune", sampler=sampler, pruner=pruner,
                                load_if_exists=True, **kw)
    meta = {"players": cfg.players if isinstance(cfg.players, int) else list(cfg.players), "games": cfg.games, "ruleset": cfg.ruleset, "params": sorted(cfg.space),
            "sampler": cfg.sampler, "skill": cfg.skill, "groups": cfg.groups() if multi else ["score"],
            "base_params": cfg.base_params, "seed": cfg.seed, "nations": cfg.nations}
    if study.trials:
        # resumed: reseed from the number of trials so far, or the sampler would replay the
        # random start of the first run and propose the same variants again
        study.sampler = _sampler(cfg, stable_seed("resume", cfg.seed, len(study.trials)))
    old = study.user_attrs.get("config")
    if old is None:
        study.set_user_attr("config", meta)
        # the first trial is the ruleset as it is: the baseline every suggestion is compared with
        study.enqueue_trial({k: v["value"] for k, v in cfg.space.items()})
    elif old != meta:
        diff = sorted(k for k in meta if old.get(k) != meta.get(k))
        raise ValueError(f"study {study.study_name!r} was run with other settings ({', '.join(diff)}); "
                         "use another --study-name")
    return study


def house_rules_of(cfg: TuneConfig, params: dict[str, Any]) -> list[str]:
    """The [SEED] rules a trial's numbers would change (PRJ-81, `api.house_rules`), in words;
    [] when the trial plays the seeds as written."""
    api = load_api(cfg.api)
    named = getattr(api, "house_rules", None)
    if named is None:           # an engine before PRJ-81 knows no house rules
        return []
    return [f"{h.rule} ({h.param}): {h.change}" for h in named(cfg.ruleset, {**cfg.base_params, **params})]


def objective_fn(cfg: TuneConfig, echo: Echo | None = None) -> Callable[[Any], Any]:
    import optuna

    multi = cfg.sampler == "nsga2"

    def objective(trial: Any) -> Any:
        try:
            return evaluate(trial)
        except optuna.TrialPruned:
            raise
        except Exception as exc:
            # Optuna marks the trial FAIL and goes on (catch=Exception); the reason is kept with it
            trial.set_user_attr("error", f"{type(exc).__name__}: {exc}")
            raise

    def evaluate(trial: Any) -> Any:
        params = {k: trial.suggest_int(k, v["low"], v["high"]) for k, v in cfg.space.items()}
        changed = house_rules_of(cfg, params)
        if changed:
            # PRJ-81: the tuner moves only the numbers the seeds leave open; numbers that would
            # change a seed sentence (two legalities scoring alike, TRS-1) are a house rule,
            # never a candidate for the reference: refused without playing a game
            trial.set_user_attr("house_rules", changed)
            raise optuna.TrialPruned("a house rule (PRJ-81): " + "; ".join(changed))
        ev = Evaluation(cfg, params, trial.number)
        ev.play(0)
        first = ev.score()
        trial.set_user_attr("first_batch", first)
        if first["games"] and first["errors"] == first["games"]:
            raise RuntimeError(f"every game failed: {params}")
        if not multi:
            trial.report(first["score"], step=1)
            if trial.should_prune():
                raise optuna.TrialPruned(f"score {first['score']:.3f} after {first['games']} games")
        ev.play(1)
        final = ev.score()
        trial.set_user_attr("result", final)
        if final["games"] and final["errors"] == final["games"]:
            raise RuntimeError(f"every game failed: {params}")
        if multi:
            return tuple(final["groups"].get(g, 0.0) for g in cfg.groups())
        trial.report(final["score"], step=2)
        return final["score"]

    return objective


def run_study(cfg: TuneConfig, trials: int, storage: str | None = None, name: str | None = None,
              echo: Echo | None = None) -> Any:
    """Run ``trials`` more trials of the study (creating or resuming it) and return it."""
    import optuna

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    study = make_study(cfg, storage, name)

    def line(study: Any, trial: Any) -> None:
        if echo is None:
            return
        ps = " ".join(f"{k}={v}" for k, v in trial.params.items())
        state = trial.state.name.lower()
        if trial.values is not None:
            val = ", ".join(f"{v:.3f}" for v in trial.values)
        else:
            inter = list(trial.intermediate_values.values())
            val = f"{inter[-1]:.3f} (first half)" if inter else "-"
        done = len(study.trials)
        echo(f"trial {trial.number} ({done} in study): {state}, score {val}: {ps}")

    study.optimize(objective_fn(cfg, echo), n_trials=trials, catch=(Exception,), callbacks=[line])
    return study
