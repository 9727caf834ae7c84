"""--dask: a scheduler and two workers on loopback give the local run's results."""
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from pax_hispanica import sim

distributed = pytest.importorskip("distributed")

DASK = str(Path(sys.executable).with_name("dask"))


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    """The scheduler binds a port of its own choice (port 0) and writes its address to a
    scheduler file, which the workers read: no port is chosen first and taken by another
    process meanwhile (a shared, loaded machine)."""
    work = tmp_path_factory.mktemp("dask")
    sched = work / "scheduler.json"
    env = {**os.environ, "DASK_DISTRIBUTED__WORKER__DAEMON": "False"}
    procs = [subprocess.Popen([DASK, "scheduler", "--host", "127.0.0.1", "--port", "0", "--scheduler-file",
                               str(sched), "--no-dashboard", "--no-show"],
                              cwd=work, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)]
    try:
        deadline = time.time() + 120
        address = None
        while address is None:
            if procs[0].poll() is not None:
                raise RuntimeError(f"the dask scheduler exited ({procs[0].returncode})")
            try:
                address = json.loads(sched.read_text())["address"]
            except (OSError, ValueError, KeyError):
                if time.time() > deadline:
                    raise
                time.sleep(0.2)
        for i in range(2):
            procs.append(subprocess.Popen(
                [DASK, "worker", "--scheduler-file", str(sched), "--host", "127.0.0.1", "--nthreads", "1",
                 "--nworkers", "1", "--no-dashboard", "--name", f"w{i}", "--local-directory", str(work / f"w{i}")],
                cwd=work, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        while True:
            try:
                with distributed.Client(address, timeout=10, set_as_default=False) as client:
                    client.wait_for_workers(2, timeout=max(1, deadline - time.time()))
                break
            except Exception:
                if time.time() > deadline:
                    raise
                time.sleep(0.5)
        yield address
    finally:
        for p in reversed(procs):
            p.terminate()
        for p in reversed(procs):
            try:
                p.wait(timeout=15)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()


def _api():
    try:
        import pax_hispanica.api  # noqa: F401
        return "pax_hispanica.api"
    except ImportError:
        return "pax_hispanica.bots.toygame"


def _strip(results):
    return [{k: v for k, v in r.items() if k != "seconds"} for r in results]


def test_dask_results_equal_local_results(cluster):
    api = _api()
    bots = "heuristic,random" if api == "pax_hispanica.api" else "ismcts:iterations=5,random"
    local = sim.run(3, 10, bots, seed=11, api=api)
    remote = sim.run(3, 10, bots, seed=11, dask_address=cluster, api=api)
    assert not any(r["error"] for r in local)
    assert _strip(remote) == _strip(local)


def test_simulate_command_through_dask(cluster):
    from pax_hispanica.sim.command import simulate_command
    app = typer.Typer()
    app.command("simulate")(simulate_command)
    app.command("other")(lambda: None)
    args = ["simulate", "--players", "2", "--games", "8", "--seed", "4", "--api", _api(), "--json"]
    local = CliRunner().invoke(app, args)
    remote = CliRunner().invoke(app, args + ["--dask", cluster])
    assert local.exit_code == 0 and remote.exit_code == 0, remote.output
    timing = ("seconds_per_game", "total_seconds", "games_per_second", "wall_seconds")
    a, b = json.loads(local.stdout), json.loads(remote.stdout)
    assert {k: v for k, v in a.items() if k not in timing} == {k: v for k, v in b.items() if k not in timing}


def test_tune_trials_on_dask_equal_the_local_ones(cluster, tmp_path):
    """paxh tune --dask: each trial's games spread over the cluster, the same study as locally."""
    pytest.importorskip("optuna")
    from pax_hispanica.sim import objectives as ob
    from pax_hispanica.sim import tune
    (tmp_path / "t.toml").write_text('[objectives.money_unspent]\nkind = "max"\ntarget = 0\nweight = 1.0\n'
                                     '[tables.selfplay]\nbots = "random"\n')
    space = tune.search_space(names=["start_money"], ranges={"start_money": (0, 20)})
    kw = {"space": space, "players": 2, "games": 4, "seed": 2, "skill": "off",
          "targets": ob.load_targets(tmp_path / "t.toml")}
    local = tune.run_study(tune.TuneConfig(**kw), 2)
    remote = tune.run_study(tune.TuneConfig(**kw, dask=cluster), 2)
    assert [(t.params, t.value) for t in local.trials] == [(t.params, t.value) for t in remote.trials]
