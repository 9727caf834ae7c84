"""Tune the heuristic bot's hand-set constants against three default heuristic bots (a script; issue 17).

    nice -n 10 .venv/bin/python benchmarks/tune_heuristic.py tune \\
        --storage sqlite:///out/tune_heuristic.db --trials 40 --deals 50 --seed 1
    nice -n 10 .venv/bin/python benchmarks/tune_heuristic.py validate \\
        --storage sqlite:///out/tune_heuristic.db --deals 100 --seed 2 \\
        --out out/issue17_round4_validate.jsonl --write-data

`tune`: an Optuna TPE study (seeded sampler, kept in SQLite, so a stopped run resumes with
the same --storage and --study) over the options of bots/heuristic.py's DEFAULTS. A trial
plays `--deals` deals, each four times with `heuristic:<params>` in seat 0, 1, 2 and 3 and
default heuristic bots in the other seats (4 players, the current default ruleset): the same
deals for every trial, so trials are compared on paired games. The objective is the
candidate's win rate (its mean rank and the games are kept as user attributes). The first
trial of a new study is today's defaults, the baseline on those deals.

`validate`: the study's best parameters (or `--params FILE`) on fresh deals (`--seed`, not the
tuning seed), both the default and the tuned bot in every seat of every deal against three
default bots; each game a JSON line of `--out`; the summary gives each side's wins with a
Wilson 95% interval and the paired sign test. `--write-data` writes
src/pax_hispanica/data/tuned_heuristic.json: the parameters, the commands and seeds that made
them, and the validation's figures.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from pax_hispanica.bots.heuristic import DEFAULTS
from pax_hispanica.sim.runner import make_specs, play_game
from pax_hispanica.sim.stats import wilson

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "src" / "pax_hispanica" / "data" / "tuned_heuristic.json"
PLAYERS = 4

# (low, high, kind): the search space around today's values
SPACE: dict[str, tuple[float, float, str]] = {
    "employ_reserve": (0, 3, "int"),
    "bid_share": (0.3, 1.0, "float"),
    "bid_rival": (0.5, 1.1, "float"),
    "bid_reserve": (0, 3, "int"),
    "bid_reserve_cost": (0.0, 1.0, "float"),
    "bid_unaffordable": (0.0, 0.8, "float"),
    "galleon_value": (1.0, 6.0, "float"),
    "colony_value": (2.0, 9.0, "float"),
    "colony_per_cycle": (0.3, 2.0, "float"),
    "income_weight": (0.5, 1.6, "float"),
    "legality_weight": (0.4, 1.8, "float"),
    "haven_value": (0.5, 3.0, "float"),
    "bespoke_value": (1.0, 5.0, "float"),
    "situational_weight": (0.4, 1.8, "float"),
    "buried_discount": (-0.5, 2.0, "float"),
    "play_threshold": (-0.5, 1.5, "float"),
    "home_fill": (0.5, 1.0, "float"),
    "home_slack": (0, 2, "int"),
    "attack_margin": (0, 1, "int"),
}
assert set(SPACE) == set(DEFAULTS)


def label(params: dict) -> str:
    """The bot configuration string of `params` (only the options that differ from DEFAULTS)."""
    opts = [f"{k}={_fmt(v)}" for k, v in sorted(params.items()) if v != DEFAULTS[k]]
    return ":".join(["heuristic", *opts])


def _fmt(v: float) -> str:
    return str(v) if isinstance(v, int) else repr(round(float(v), 4))


def rounded(params: dict) -> dict:
    return {k: (int(v) if SPACE[k][2] == "int" else round(float(v), 4)) for k, v in params.items()}


def play(bot: str, deals: int, seed: int, start: int = 0, on_game=None) -> list[dict]:
    """`bot` in every seat of deals start..start+deals-1 (seed `seed`), default heuristic bots elsewhere."""
    rows = []
    per_seat = []
    for seat in range(PLAYERS):
        bots = ["heuristic"] * PLAYERS
        bots[seat] = bot
        per_seat.append(make_specs(PLAYERS, start + deals, ",".join(bots), seed, rotate=False))
    for i in range(start, start + deals):
        for seat in range(PLAYERS):
            s = per_seat[seat][i]
            r = play_game(s)
            row = {"deal": i, "seat": seat, "bot": bot, "seed": s["seed"], "won": r["winner"] == seat,
                   "rank": (r["ranking"] or []).index(seat) if r["ranking"] else None, "error": r["error"]}
            rows.append(row)
            if on_game:
                on_game(row)
    return rows


def score(rows: list[dict]) -> dict:
    n = len(rows)
    wins = sum(r["won"] for r in rows)
    ranks = [r["rank"] for r in rows if r["rank"] is not None]
    return {"games": n, "wins": wins, "rate": round(wins / n, 4) if n else None, "ci95": wilson(wins, n),
            "mean_rank": round(1 + sum(ranks) / len(ranks), 4) if ranks else None,
            "errors": sum(1 for r in rows if r["error"])}


def _study(args: argparse.Namespace):
    import optuna
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    sampler = optuna.samplers.TPESampler(seed=args.seed, n_startup_trials=args.startup, multivariate=True)
    return optuna.create_study(study_name=args.study, storage=args.storage, direction="maximize",
                               sampler=sampler, load_if_exists=True)


def space(args: argparse.Namespace) -> dict[str, tuple[float, float, str]]:
    """SPACE with `--range NAME=LO,HI` overrides (a study resumed must be given the same ones)."""
    out = dict(SPACE)
    for item in getattr(args, "range", None) or []:
        name, _, bounds = item.partition("=")
        if name not in out:
            raise SystemExit(f"--range: unknown option {name!r}")
        lo, hi = (float(x) for x in bounds.split(","))
        kind = out[name][2]
        out[name] = (int(lo), int(hi), kind) if kind == "int" else (lo, hi, kind)
    return out


def tune(args: argparse.Namespace) -> int:
    study = _study(args)
    ranges = space(args)
    if not study.trials:
        study.enqueue_trial(dict(DEFAULTS))
        for f in args.enqueue or []:         # known good points (a preset file), played next
            data = json.loads(Path(f).read_text())
            params = {**DEFAULTS, **data.get("params", data)}
            study.enqueue_trial({k: min(max(v, ranges[k][0]), ranges[k][1]) for k, v in params.items()})
    t0 = time.perf_counter()

    def objective(trial) -> float:
        params = {}
        for k, (lo, hi, kind) in ranges.items():
            params[k] = trial.suggest_int(k, int(lo), int(hi)) if kind == "int" else trial.suggest_float(k, lo, hi)
        rows = play(label(params), args.deals, args.seed)
        s = score(rows)
        for k in ("games", "wins", "mean_rank", "errors"):
            trial.set_user_attr(k, s[k])
        print(f"[{time.perf_counter() - t0:6.0f}s] trial {trial.number}: {s['wins']}/{s['games']} "
              f"rank {s['mean_rank']} best {max([s['rate']] + [t.value for t in study.trials if t.value is not None]):.4f}",
              file=sys.stderr, flush=True)
        return s["rate"]

    done = sum(1 for t in study.trials if t.state.name == "COMPLETE")
    study.optimize(objective, n_trials=max(0, args.trials - done))
    best = study.best_trial
    if args.trials_out:
        args.trials_out.parent.mkdir(parents=True, exist_ok=True)
        with args.trials_out.open("w") as fh:
            for t in study.trials:
                if t.value is not None:
                    fh.write(json.dumps({"trial": t.number, "rate": t.value, **t.user_attrs,
                                         "params": rounded(t.params)}) + "\n")
    print(json.dumps({"best_trial": best.number, "rate": best.value, **best.user_attrs,
                      "params": rounded(best.params), "label": label(rounded(best.params)),
                      "trials": len(study.trials)}, indent=1))
    return 0


def validate(args: argparse.Namespace) -> int:
    if args.params:
        params = json.loads(Path(args.params).read_text())
        params = params.get("params", params)
        source = {"params_file": args.params}
    else:
        study = _study(args)
        best = study.best_trial
        params = rounded(best.params)
        source = {"study": args.study, "best_trial": best.number, "tuning_rate": best.value,
                  "tuning_games": best.user_attrs.get("games"), "tuning_mean_rank": best.user_attrs.get("mean_rank"),
                  "trials": len(study.trials)}
    params = {**DEFAULTS, **params}
    tuned = label(params)
    rows: dict[str, list[dict]] = {"default": [], "tuned": []}
    args.out.parent.mkdir(parents=True, exist_ok=True)
    t0 = time.perf_counter()
    with args.out.open("w") as fh:
        for side, bot in (("default", "heuristic"), ("tuned", tuned)):
            def keep(row, side=side):
                row = {"side": side, **row}
                fh.write(json.dumps(row) + "\n")
                fh.flush()
            rows[side] = play(bot, args.deals, args.seed, on_game=keep)
            print(f"[{time.perf_counter() - t0:6.0f}s] {side}: {json.dumps(score(rows[side]))}", file=sys.stderr)
    pairs = {(r["deal"], r["seat"]): r["won"] for r in rows["default"]}
    only_d = sum(1 for r in rows["tuned"] if pairs[(r["deal"], r["seat"])] and not r["won"])
    only_t = sum(1 for r in rows["tuned"] if r["won"] and not pairs[(r["deal"], r["seat"])])
    from strength_ab import sign_test
    out = {"label": tuned, "seed": args.seed, "deals": args.deals,
           "default": score(rows["default"]), "tuned": score(rows["tuned"]),
           "only_default": only_d, "only_tuned": only_t, "sign_test_p": round(sign_test(only_d, only_t), 4)}
    print(json.dumps(out, indent=1))
    if args.write_data:
        data = {"comment": "The heuristic bot's tuned options (bots/heuristic.py DEFAULTS; `heuristic:preset=tuned`, "
                           "`ismcts:prior_bot=tuned`), docs/bots.md 'Fourth round'.",
                "params": {k: v for k, v in rounded(params).items()},
                "label": tuned,
                "made_by": {"tune": args.tune_command or None, "validate": " ".join(["benchmarks/tune_heuristic.py",
                                                                                     *sys.argv[1:]]),
                            **source},
                "validation": out}
        if args.comment:
            data["comment"] = args.comment
        args.data_out.write_text(json.dumps(data, indent=1) + "\n")
        print(f"wrote {args.data_out}", file=sys.stderr)
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    for name in ("tune", "validate"):
        p = sub.add_parser(name)
        p.add_argument("--storage", default="sqlite:///out/tune_heuristic.db")
        p.add_argument("--study", default="heuristic-vs-3-default-narrow")
        p.add_argument("--seed", type=int, default=1)
        p.add_argument("--deals", type=int, default=50, help="deals, each played once per seat (4 games)")
        p.add_argument("--startup", type=int, default=6, help="TPE's random trials first")
    sub.choices["tune"].add_argument("--trials", type=int, default=40, help="complete trials wanted in the study")
    sub.choices["tune"].add_argument("--trials-out", type=Path, help="every complete trial as a JSON line")
    sub.choices["tune"].add_argument("--enqueue", action="append", help="a preset JSON file whose params a new "
                                                                         "study plays after the defaults")
    sub.choices["tune"].add_argument("--range", action="append", help="NAME=LO,HI: another search range for "
                                                                       "one option (give the same to resume)")
    v = sub.choices["validate"]
    v.add_argument("--params", help="a JSON file of options instead of the study's best")
    v.add_argument("--out", type=Path, required=True)
    v.add_argument("--write-data", action="store_true")
    v.add_argument("--data-out", type=Path, default=DATA, help="where --write-data writes (default: the shipped "
                                                                "tuned preset, data/tuned_heuristic.json)")
    v.add_argument("--comment", default="", help="the data file's comment (default: the fourth round's)")
    v.add_argument("--tune-command", default="", help="the tune command line, recorded in the data file")
    args = ap.parse_args(argv)
    return tune(args) if args.cmd == "tune" else validate(args)


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    sys.exit(main())
