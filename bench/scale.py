"""How the arena's throughput grows with its worker processes (the Ray executor).

    python bench/scale.py [--seconds S] [--games-per-worker G] [--sleep-ms MS]

Bots that sleep a fixed time per decision (bench/trivial_bot.py with SLEEP_MS) and serve
every game from one process (two processes, one per team, given to the arena by
address): they cost the machine little, so the arena, not the bots, bounds the rate.
For 1, 2, ... up to the core count of arena worker processes (Ray actors on a cluster
of this machine, started once), each playing G games at once, it prints the decisions
per second in the steady state (from the first finished game to the last) and the arena
workers' CPU per decision (their own processes' CPU time, from /proc), then
`scaling ratio: X.XX`: decisions/s with 2 workers over 1 (target at least 1.7 on 2
cores).
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import trio  # noqa: E402

from arena.core.rules import preset  # noqa: E402
from arena.play.runner import run_games  # noqa: E402
from arena.procs.processes import LaunchSpec, open_bot_pool  # noqa: E402
from arena.settings.manifest import BotManifest  # noqa: E402
from arena.settings.match import MatchConfig, match_specs  # noqa: E402
from arena.settings.process import ProcessSettings  # noqa: E402
from arena.settings.spec import Executor, FaultPolicy, TimeControl  # noqa: E402

TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


async def measure(workers: int, per_worker: int, seconds: float, addresses: list[str],
                  log_dir: Path) -> tuple[float, float]:
    """(decisions/s, arena CPU ms per decision) with `workers` arena workers."""
    a = BotManifest("sleepy-a", "1", None, ROOT, address=addresses[0])
    b = replace(a, name="sleepy-b", address=addresses[1])
    concurrency = workers * per_worker
    cfg = MatchConfig(bot_a=a, bot_b=b, games=100_000, rules=preset("standard"), seed=1,
                      concurrency=concurrency, time_control=TimeControl(per_decision=10),
                      fault_policy=FaultPolicy.FORFEIT, out_dir=log_dir,
                      processes=ProcessSettings(log_dir=log_dir, sandbox=False))
    pids: list[int] = []
    marks: list[tuple[float, int, float]] = []  # (time, decisions so far, worker CPU)
    decisions = 0
    stop_at = [0.0]

    def worker_cpu() -> float:
        return sum(cpu_seconds(p) for p in pids)

    def on_done(spec, log) -> None:
        nonlocal decisions
        decisions += sum(len(h.actions) for h in log.hands)
        now = time.perf_counter()
        if not marks:
            stop_at[0] = now + seconds
        marks.append((now, decisions, worker_cpu()))

    def notice(line: str) -> None:
        m = re.search(r"pid (\d+)", line)
        if m:
            pids.append(int(m.group(1)))

    def specs():
        for spec in match_specs(cfg):
            if stop_at[0] and time.perf_counter() > stop_at[0]:
                return
            yield spec

    await run_games(specs(), rules=cfg.rules, concurrency=concurrency, processes=cfg.processes,
                    on_done=on_done, notice=notice, executor=Executor("ray", workers=workers))
    (t0, d0, c0), (t1, d1, c1) = marks[0], marks[-1]
    n = d1 - d0
    return n / (t1 - t0), 1000 * (c1 - c0) / n


async def main_async(args: argparse.Namespace) -> None:
    log_dir = Path(tempfile.mkdtemp(prefix="bench-scale-"))
    cores = len(os.sched_getaffinity(0))
    rates: dict[int, float] = {}
    async with open_bot_pool() as pool:
        addresses = []
        for team in "ab":
            spec = LaunchSpec(f"sleepy-{team}", (sys.executable, str(ROOT / "bench" / "trivial_bot.py")),
                              ROOT, {"PYTHONPATH": str(ROOT), "SLEEP_MS": str(args.sleep_ms)})
            proc = await pool.start(spec, log_path=log_dir / f"sleepy-{team}.log")
            addresses.append(proc.address)
        print(f"{cores} cores; bots sleep {args.sleep_ms} ms a decision; "
              f"{args.games_per_worker} games at once per worker; {args.seconds:.0f} s each")
        for workers in range(1, cores + 1):
            rate, cpu_ms = await measure(workers, args.games_per_worker, args.seconds,
                                         addresses, log_dir)
            rates[workers] = rate
            print(f"  {workers} worker{'s' if workers > 1 else ' '}   {rate:8,.0f} decisions/s   "
                  f"arena CPU {cpu_ms:.3f} ms per decision", flush=True)
    if 2 in rates:
        print(f"scaling ratio: {rates[2] / rates[1]:.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=20.0,
                        help="steady-state seconds measured per worker count")
    parser.add_argument("--games-per-worker", type=int, default=12)
    parser.add_argument("--sleep-ms", type=float, default=5.0)
    args = parser.parse_args()
    import logging

    import ray

    ray.init(address="local", num_cpus=len(os.sched_getaffinity(0)), include_dashboard=False,
             logging_level=logging.ERROR, log_to_driver=False)
    try:
        trio.run(main_async, args)
    finally:
        ray.shutdown()


if __name__ == "__main__":
    main()
