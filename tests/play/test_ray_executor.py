"""Ladders on a Ray cluster (arena.play.ray_executor): two nodes on this machine, started
with Ray's own cluster utilities, each running real arena worker processes that play
sealed sample bots; the ladder itself runs as the `ladder` command in another process."""

from __future__ import annotations

import re
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from arena.play.ray_executor import _mismatch
from arena.settings.errors import ConfigError, MachineError
from arena.settings.manifest import load_manifest
from ladder.store.database import Store
from tests.helpers import twins_apart

pytest.importorskip("ray")

# One after another, in one pytest-xdist process: each starts a Ray cluster of its own (a
# dozen processes), and two at once on a small machine starve the bots they start. The group
# also holds the test of the tightest time limit (test_match.py), which a cluster
# starting beside it would starve in the same way.
pytestmark = pytest.mark.xdist_group("ray")

LADDER = Path(sys.executable).with_name("ladder")
ARENA = Path(sys.executable).with_name("arena")


@pytest.fixture
def cluster():
    """A head node and one more, one CPU each: a worker per node."""
    from ray.cluster_utils import Cluster

    c = Cluster(initialize_head=True, head_node_args={"num_cpus": 1})
    node = c.add_node(num_cpus=1)
    c.wait_for_nodes()
    try:
        yield c, node
    finally:
        c.shutdown()


def write_ladder(folder: Path, games: int) -> Path:
    path = folder / "lad.toml"
    path.write_text(
        'name = "ray"\nbots = ["random", "heuristic"]\n'
        f"games_per_pairing = {games}\nseed = 11\nconcurrency = 2\n"
        'executor = "ray"\n[ray]\nworkers = 2\n'
        # Generous: on a loaded machine a slow answer would make a fault, and another game.
        "[time_control]\nper_decision = 30.0\nbank = 600.0\n"
    )
    return path


def run_ladder(args: list[str]) -> subprocess.Popen[str]:
    return subprocess.Popen([str(LADDER), "run", *args, "--quiet"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def play_log(store: Store, game_id: str) -> tuple[object, ...]:
    """What a game was, leaving out how long each move took."""
    log = store.record(game_id)
    hands = tuple((h.dealer, h.dealt, h.kitty, tuple((a.seat, a.action) for a in h.actions),
                   tuple(h.trick_winners), h.scores_after) for h in log.hands)
    return (log.seed, log.first_dealer, hands, log.final_scores, log.winning_team,
            tuple(log.faults), tuple((s.name, s.digest, s.sandboxed) for s in log.seats))


@pytest.mark.timeout(300)
def test_a_ladder_on_two_nodes_stores_the_same_games_as_a_local_run(tmp_path, cluster):
    c, _ = cluster
    ladder = write_ladder(tmp_path, games=8)
    ray_run = run_ladder([str(ladder), "--ray-address", c.address])
    out, err = ray_run.communicate(timeout=240)
    assert ray_run.returncode == 0, err
    assert "8 of 8 planned games stored: complete" in out
    nodes = set(re.findall(r"ready on node (\w+)", err))
    assert len(nodes) == 2, err  # a worker on each node

    local = run_ladder([str(ladder), "--executor", "local", "--db", str(tmp_path / "local.sqlite")])
    out, err = local.communicate(timeout=240)
    assert local.returncode == 0, err

    with Store.open(tmp_path / "lad.sqlite") as on_ray, \
            Store.open(tmp_path / "local.sqlite") as here:
        ids = on_ray.finished_ids()
        assert ids == here.finished_ids() and len(ids) == 8
        for game_id in sorted(ids):
            faults = on_ray.record(game_id).faults, here.record(game_id).faults
            assert play_log(on_ray, game_id) == play_log(here, game_id), (game_id, faults)
        # the same dispatcher as a local run's: a pair's two games never at once
        twins_apart([on_ray.record(g) for g in ids])

    verify = subprocess.run([str(ARENA.with_name("ladder")), "verify", str(tmp_path / "lad.sqlite")],
                            capture_output=True, text=True, timeout=120)
    assert verify.returncode == 0, verify.stdout + verify.stderr


@pytest.mark.timeout(300)
def test_a_node_lost_mid_run_loses_and_doubles_nothing(tmp_path, cluster):
    c, node = cluster
    ladder = write_ladder(tmp_path, games=16)
    run = run_ladder([str(ladder), "--ray-address", c.address])
    db = tmp_path / "lad.sqlite"
    deadline = time.monotonic() + 200
    stored = 0
    while stored < 3:
        assert run.poll() is None, run.communicate()
        assert time.monotonic() < deadline, "no games stored"
        time.sleep(0.3)
        try:
            with sqlite3.connect(db) as conn:
                stored = conn.execute("SELECT count(*) FROM games").fetchone()[0]
        except sqlite3.Error:
            stored = 0
    assert stored < 16, "the ladder ended before the node could be lost"
    c.remove_node(node, allow_graceful=False)
    out, err = run.communicate(timeout=240)
    assert run.returncode == 0, err
    assert "played again" in err  # the lost worker had a game in play
    assert "16 of 16 planned games stored: complete" in out
    with sqlite3.connect(db) as conn:
        rows, distinct, faults = conn.execute(
            "SELECT count(*), count(DISTINCT game_id), sum(faults) FROM games").fetchone()
    assert (rows, distinct, faults) == (16, 16, 0)


def test_a_worker_refuses_a_bot_whose_files_are_not_the_registered_ones(tmp_path):
    folder = tmp_path / "bot"
    folder.mkdir()
    (folder / "bot.py").write_text("print('one')\n")
    (folder / "bot.toml").write_text('name = "b"\nversion = "1"\ncommand = ["{python}", "bot.py"]\n')
    registered = load_manifest(str(folder))
    assert _mismatch(registered) is None
    (folder / "bot.py").write_text("print('another')\n")  # this node's copy differs
    problem = _mismatch(registered)
    assert problem is not None and "another version" in problem
    (folder / "bot.toml").unlink()
    problem = _mismatch(registered)
    assert problem is not None and "cannot be read" in problem


def test_ray_settings_in_a_ladder_file_are_checked(tmp_path):
    from ladder.config.ladder_file import load_ladder

    def load(extra: str):
        (tmp_path / "l.toml").write_text('bots = ["random", "heuristic"]\ngames_per_pairing = 2\n'
                                         + extra)
        return load_ladder(tmp_path / "l.toml")

    cfg = load('executor = "ray"\n[ray]\naddress = "127.0.0.1:6379"\nworkers = 3\n')
    assert (cfg.executor.kind, cfg.executor.address, cfg.executor.workers) == (
        "ray", "127.0.0.1:6379", 3)
    assert "executor" not in cfg.settings()  # a database resumes under either executor
    with pytest.raises(ConfigError, match=r"l.toml:3: executor: 'cloud': expected one of"):
        load('executor = "cloud"\n')
    with pytest.raises(ConfigError, match=r"l.toml:5: ray.adress: .*did you mean 'address'"):
        load('executor = "ray"\n[ray]\nadress = "x"\n')
    with pytest.raises(ConfigError, match=r"set executor = \"ray\""):
        load('[ray]\nworkers = 2\n')
    with pytest.raises(ConfigError, match="workers: 0: expected a whole number"):
        load('executor = "ray"\n[ray]\nworkers = 0\n')
    with pytest.raises(ConfigError, match=r"--ray-address: .*only with --executor ray"):
        load("").with_overrides(executor="local", ray_address="127.0.0.1:1")
    assert load("").with_overrides(ray_address="auto").executor.kind == "ray"


@pytest.mark.timeout(300)
def test_a_match_runs_on_a_cluster_it_starts_and_stops(tmp_path):
    out = tmp_path / "m"
    done = subprocess.run([str(ARENA), "match", "random", "heuristic", "--games", "2",
                           "--executor", "ray", "--seed", "4", "--out", str(out)],
                          capture_output=True, text=True, timeout=240)
    assert done.returncode == 0, done.stderr
    assert "worker 0 ready on node" in done.stderr
    assert len(list((out / "games").glob("*.pb"))) == 2


def test_a_ray_address_without_the_ray_executor_is_refused(tmp_path):
    done = subprocess.run([str(ARENA), "match", "random", "random", "--executor", "local",
                           "--ray-address", "127.0.0.1:1", "--out", str(tmp_path / "m")],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert "--ray-address: the games run on Ray only with --executor ray" in done.stderr
    assert "Traceback" not in done.stderr


def test_the_actor_has_no_coroutine_method():
    """Ray runs an actor with any coroutine method on an asyncio loop, where its plain
    methods run one at a time: a worker's games would be played one after another."""
    import inspect

    from arena.play.ray_executor import RayWorker

    assert not [name for name, m in inspect.getmembers(RayWorker, inspect.isfunction)
                if inspect.iscoroutinefunction(m)]


@pytest.mark.timeout(180)
def test_a_worker_that_cannot_start_stops_the_run_with_a_message(tmp_path):
    """A node that cannot write the bots' logs (or seal them, or import the arena) plays
    no game: the run stops at once, naming it, instead of waiting for ever or storing
    forfeits."""
    import trio

    from arena.core.rules import preset
    from arena.play.runner import run_games
    from arena.settings.process import ProcessSettings
    from arena.settings.spec import Executor

    blocker = tmp_path / "a-file"
    blocker.write_text("")
    processes = ProcessSettings(blocker / "logs", sandbox=False)
    done: list[object] = []
    with pytest.raises(MachineError, match=r"worker 0 could not start: .*cannot write bot logs"):
        trio.run(lambda: run_games(
            iter(()), rules=preset("standard"), concurrency=1, processes=processes,
            executor=Executor("ray"), on_done=lambda spec, log: done.append(log),
            notice=lambda line: None))
    assert done == []
