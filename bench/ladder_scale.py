"""A ladder's own cost per game and its memory, with 1,000, 10,000 and 100,000 games stored.

    python bench/ladder_scale.py [--games 200] [--rounds 3] [--sizes 1000,10000,100000]

For each size, a database of that many synthetic games (rows written in one transaction,
with empty records: a running ladder reads rows, never records) is extended by a real
`ladder run` of --games more games (random against random copies, unsealed, concurrency
2) with the live view drawing to /dev/null as on a terminal, and a rating snapshot every
100 games. Each run is a process of its own, the sizes taking turns round after round so
that drift in the machine's load falls on all of them. It prints, per size (the median
over rounds):

- per game: the ladder's own work for each stored game, in the writer thread: the commit
  (with its fsync), counting it in the standings, the live view's refresh and the
  snapshots' share; the games themselves are not counted. As wall time, and as the
  writer thread's CPU time (which leaves out waiting for the disk: on a shared machine
  the fsync's wait is most of the wall time, and most of its noise);
- RSS: the run's resident memory after its last game (and its peak, which includes
  reading the plan and the stored games at the start);
- start: the time from the run's start to its first game handed out, which reads every
  stored game once (the only part that grows with them),

and the ratios 100k/1k of the per-game cost (wall and CPU) and of the RSS (target at most
1.10 each).
The machine may be shared and noisy: compare the ratios within one run.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

if __package__ in (None, ""):  # run as a script from a checkout: make the packages importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ladder.config.ladder_file import LadderConfig, parse_ladder

BOTS = 3  # random and two copies: three pairings
LADDER = """\
name = "scale"
bots = ["random", {{ name = "random-b", bot = "random" }}, {{ name = "random-c", bot = "random" }}]
games_per_pairing = {games}
concurrency = 2
seed = 2024
sandbox = false
"""
SNAPSHOT_EVERY = 100


def per_pairing(total: int) -> int:
    return max(2, 2 * -(-total // BOTS // 2))


def ladder_file(folder: Path, total: int) -> LadderConfig:
    path = folder / "scale.toml"
    path.write_text(LADDER.format(games=per_pairing(total)))
    return parse_ladder(path.read_text(), path)


def rss_mb(field: str = "VmRSS") -> float:
    """Resident memory now, or at its peak with "VmHWM" (which, unlike getrusage's, an
    exec resets: a run does not inherit the bench's own peak)."""
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith(f"{field}:"):
                return int(line.split()[1]) / 1024
    return float("nan")  # pragma: no cover - not Linux


def make_store(folder: Path, size: int) -> int:
    """A database of `size` synthetic games (rounded to whole rounds of the schedule):
    real bots, settings and plan, results drawn at random, empty records."""
    from ladder.schedule.pairings import plan_ladder
    from ladder.store.database import Store

    cfg = ladder_file(folder, size)
    rng = random.Random(size)
    with Store.open(cfg.database, write=True, fresh=True) as store:
        key = store.bind_settings(cfg.name, cfg.settings())
        versions = store.register_bots([b.manifest for b in cfg.bots])
        labels = [versions[b.name].label for b in cfg.bots]
        ids = store.bot_ids()
        planned = plan_ladder(cfg, key, labels)
        run = store.start_run(planned=len(planned), to_play=len(planned), concurrency=2)
        values = []
        for g in planned:
            roll = rng.random()
            winner = None if roll < 0.02 else int(roll < 0.51)  # a few draws
            score_a = 0.5 if winner is None else float(winner == g.a_team)
            values.append((g.game_id, g.seq, ids[g.bot_a], ids[g.bot_b], g.number, g.deal,
                           g.seed, g.first_dealer, g.a_team, ",".join(g.seats), "completed",
                           winner, score_a, 10, 7, 9, 0, 0, 0, "", 1, 2, run, 0, b""))
        store.conn.execute("BEGIN IMMEDIATE")
        store.conn.executemany(
            "INSERT INTO games (game_id, seq, bot_a, bot_b, number, deal, seed, first_dealer, "
            "a_team, seats, outcome, winning_team, score_a, points_a, points_b, hands, "
            "faults, faults_a, faults_b, fault_kinds, started_ms, finished_ms, run, "
            "sandboxed, record) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, "
            "?, ?, ?, ?, ?, ?, ?, ?)", values)
        store.conn.execute("COMMIT")
        store.finish_run(run, "complete")
        return len(planned)


def child(folder: Path, total: int) -> None:
    """One `ladder run` extending the database to `total` games; prints its figures."""
    from rich.console import Console

    import ladder.run.play as play
    from ladder.rating.running import RunningStandings
    from ladder.run.live import LiveView
    from ladder.store.database import Store

    started = time.monotonic()
    spent = {"seconds": 0.0, "cpu": 0.0, "first": 0.0}
    measuring = [False]

    def timed(fn):  # the writer thread's work while games are played
        def wrapper(*args, **kwargs):
            if not measuring[0]:
                return fn(*args, **kwargs)
            t0, c0 = time.perf_counter(), time.thread_time()
            try:
                return fn(*args, **kwargs)
            finally:
                spent["seconds"] += time.perf_counter() - t0
                spent["cpu"] += time.thread_time() - c0
        return wrapper

    Store.record_game = timed(Store.record_game)  # type: ignore[method-assign]
    RunningStandings.add = timed(RunningStandings.add)  # type: ignore[method-assign]
    RunningStandings.settle = timed(RunningStandings.settle)  # type: ignore[method-assign]
    LiveView.game_stored = timed(LiveView.game_stored)  # type: ignore[method-assign]
    play._snapshot = timed(play._snapshot)

    class View(LiveView):
        def started(self, **kw) -> None:  # type: ignore[no-untyped-def]
            super().started(**kw)
            spent["first"] = time.monotonic() - started
            measuring[0] = True

        def finished(self) -> None:  # the final snapshot and table are not per game
            measuring[0] = False
            super().finished()

    end_rss = [0.0]
    cfg = ladder_file(folder, total)
    with open(os.devnull, "w") as sink:
        console = Console(file=sink, force_terminal=True, width=120)
        summary = play.run_ladder(
            cfg, observer=View(console), checkpoint_every=SNAPSHOT_EVERY,
            on_game=lambda row, log: end_rss.__setitem__(0, rss_mb()),
        )
    peak = rss_mb("VmHWM")
    print(json.dumps({"played": summary.played, "stored": summary.already,
                      "complete": summary.complete, "seconds": spent["seconds"], "cpu": spent["cpu"],
                      "start": spent["first"], "rss": end_rss[0], "peak": peak}))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200,
                        help="games each run plays (default 200)")
    parser.add_argument("--rounds", type=int, default=3,
                        help="runs per size, taking turns (default 3)")
    parser.add_argument("--sizes", default="1000,10000,100000",
                        help="stored games before the runs, comma-separated (default "
                        "1000,10000,100000; the ratios compare the last with the first)")
    parser.add_argument("--child", nargs=2, metavar=("FOLDER", "TOTAL"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        child(Path(args.child[0]), int(args.child[1]))
        return 0
    sizes = [int(s) for s in args.sizes.split(",")]
    games = per_pairing(args.games) * BOTS
    root = Path(tempfile.mkdtemp(prefix="ladder-scale-"))
    try:
        stored: dict[int, int] = {}
        for size in sizes:
            t0 = time.monotonic()
            (root / str(size)).mkdir()
            stored[size] = make_store(root / str(size), size)
            print(f"{stored[size]:>7} synthetic games stored in {time.monotonic() - t0:.1f} s",
                  flush=True)
        results: dict[int, list[dict[str, float]]] = {s: [] for s in sizes}
        for r in range(args.rounds):
            for size in (sizes if r % 2 == 0 else sizes[::-1]):
                total = stored[size] + (r + 1) * games
                out = subprocess.run(
                    [sys.executable, __file__, "--child", str(root / str(size)), str(total)],
                    capture_output=True, text=True, check=False)
                if out.returncode != 0:
                    print(out.stdout + out.stderr, file=sys.stderr)
                    return 1
                got = json.loads(out.stdout.strip().splitlines()[-1])
                if not got["complete"] or not got["played"]:
                    print(f"the run at {size} stopped early: {got}", file=sys.stderr)
                    return 1
                results[size].append(got)
                print(f"round {r + 1}, {got['stored']:>7} stored: "
                      f"{1000 * got['seconds'] / got['played']:.2f} ms a game "
                      f"({1000 * got['cpu'] / got['played']:.2f} ms CPU), "
                      f"RSS {got['rss']:.1f} MB", flush=True)
        print(f"\nper size, median of {args.rounds} runs of {games} games "
              "(the ladder's own work per game: commit, standings, live view, snapshots):")
        figures = {}
        for size in sizes:
            rs = results[size]
            cost = statistics.median(g["seconds"] / g["played"] for g in rs)
            cpu = statistics.median(g["cpu"] / g["played"] for g in rs)
            rss = statistics.median(g["rss"] for g in rs)
            peak = statistics.median(g["peak"] for g in rs)
            start = statistics.median(g["start"] for g in rs)
            figures[size] = (cost, cpu, rss)
            print(f"{stored[size]:>7} stored: per game {1000 * cost:6.2f} ms "
                  f"({1000 * cpu:5.2f} ms CPU)   RSS {rss:6.1f} MB (peak {peak:6.1f})   "
                  f"start {start:5.1f} s")
        first, last = sizes[0], sizes[-1]
        name = f"{_short(last)}/{_short(first)}"
        # Wall time includes the commit's fsync, which waits on a disk other work shares;
        # CPU time is the writer thread's own work.
        for what, i in (("per-game", 0), ("per-game CPU", 1), ("rss", 2)):
            ratio = figures[last][i] / figures[first][i]
            verdict = "flat" if ratio <= 1.10 else "GROWING"
            print(f"{what} ratio {name}: {ratio:.2f} ({verdict}; target at most 1.10)")
    finally:
        shutil.rmtree(root, ignore_errors=True)
    return 0


def _short(n: int) -> str:
    return f"{n // 1000}k" if n >= 1000 and n % 1000 == 0 else str(n)


if __name__ == "__main__":
    sys.exit(main())
