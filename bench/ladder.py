"""Ladder throughput and memory: the sample bots in a round robin, with real processes.

    python bench/ladder.py [--games 5000] [--concurrency N] [--keep DIR]

Plays random, heuristic and a second heuristic in a duplicate round robin of about
--games games at concurrency = the number of cores (unless told otherwise), exactly as
`ladder run` does, into a database in a temporary folder, and prints:

- games/s, overall and between the two memory checkpoints (steady state);
- CPU use: CPU seconds of the arena process and of the bot processes, as a share of
  wall time x cores, so "is the machine used fully?" has a number;
- the time the writer thread spends storing each game (encode the record,
  count the figures, commit with fsync), and that share of the run;
- the arena's resident memory after 1/5 of the games and after all of them (1,000 and
  5,000 with the default), and their ratio: a ladder left running overnight must not
  grow. The target is a ratio within 1.10;
- the cost of the sandbox: the same ladder played sealed (a cgroup per bot, frozen
  between calls), sealed as before the cgroups (ARENA_CGROUPS=off) and unsealed, in
  alternating blocks (--sandbox-games each way), as `ratio sealed/before` (target at
  least 0.95) and `ratio sandbox/none` of games/s (target at least 0.90 with the default
  process reuse); the microseconds a decision adds by thawing and freezing its bot; and
  the time to start one bot process until it listens, sealed against bare, alternating,
  as medians and their difference (target at most 50 ms added), with bwrap's own cost on
  /bin/true beside it.

    python bench/ladder.py --games 0 --sandbox-games 400   # only the sandbox's cost

The machine may be shared and noisy, so compare the ratios printed within one run rather
than absolute figures across runs.
"""

from __future__ import annotations

import argparse
import math
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import trio

if __package__ in (None, ""):  # run as a script from a checkout: make the packages importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ladder.config.ladder_file import default_concurrency, parse_ladder
from ladder.run.play import run_ladder
from ladder.store.database import Store

BOTS = ["random", "heuristic", "heuristic-copy"]
LADDER = """\
name = "bench"
bots = ["random", "heuristic", {{ name = "heuristic-copy", bot = "heuristic" }}]
games_per_pairing = {games}
concurrency = {concurrency}
seed = 2024
sandbox = {sandbox}
"""

_TICKS = os.sysconf("SC_CLK_TCK")


def rss_mb() -> float:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")  # pragma: no cover - not Linux


def children_cpu() -> float:
    """CPU seconds of this process's descendants: live ones from /proc (a sealed bot is a
    grandchild, under bwrap), reaped ones from getrusage (a restarted bot is reaped)."""
    me = os.getpid()
    parent: dict[int, int] = {}
    ticks: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        parent[int(entry)] = int(fields[1])
        ticks[int(entry)] = int(fields[11]) + int(fields[12])  # utime + stime

    def descends(pid: int) -> bool:
        for _ in range(64):
            pid = parent.get(pid, 0)
            if pid == me:
                return True
            if pid <= 1:
                return False
        return False

    total = sum(t for pid, t in ticks.items() if descends(pid)) / _TICKS
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return total + usage.ru_utime + usage.ru_stime


def self_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


class Probe:
    def __init__(self, checkpoints: list[int]) -> None:
        self.checkpoints = checkpoints
        self.samples: dict[int, tuple[float, float, float, float]] = {}
        self.start = (time.monotonic(), self_cpu(), children_cpu())
        self.store_seconds = 0.0
        self.done = 0

    def on_game(self, row, log) -> None:
        self.done += 1
        if self.done in self.checkpoints:
            self.samples[self.done] = (time.monotonic(), self_cpu(), children_cpu(), rss_mb())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=5000,
                        help="games in all (default 5000; memory is sampled after 1/5 of them "
                        "and at the end)")
    parser.add_argument("--concurrency", type=int, default=default_concurrency(),
                        help="games at once (default: the number of cores)")
    parser.add_argument("--keep", type=Path, default=None, metavar="DIR",
                        help="write the database there and keep it")
    parser.add_argument("--sandbox-games", type=int, default=400,
                        help="games played each way, sealed and unsealed, for the sandbox's "
                        "cost (default 400; 0 skips it)")
    parser.add_argument("--starts", type=int, default=20,
                        help="bot process starts timed each way (default 20)")
    args = parser.parse_args(argv)
    if args.games > 0 and main_run(args) != 0:
        return 1
    if args.sandbox_games > 0:
        sandbox_cost(args)
    return 0


def main_run(args: argparse.Namespace) -> int:
    per_pairing = max(2, 2 * math.ceil(args.games / len(BOTS) / 2))
    total = per_pairing * len(BOTS)
    early = max(1, total // 5)
    folder = args.keep or Path(tempfile.mkdtemp(prefix="ladder-bench-"))
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "bench.toml"
    path.write_text(LADDER.format(games=per_pairing, concurrency=args.concurrency,
                                  sandbox="true"))
    cfg = parse_ladder(path.read_text(), path)
    cores = default_concurrency()
    print(f"ladder bench: {total} games ({per_pairing} per pairing of {', '.join(BOTS)}), "
          f"concurrency {cfg.concurrency}, {cores} cores; database {cfg.database}",
          flush=True)

    probe = Probe([early, total])
    original = Store.record_game

    def timed_record(self, *a, **kw):
        t0 = time.perf_counter()
        try:
            return original(self, *a, **kw)
        finally:
            probe.store_seconds += time.perf_counter() - t0

    Store.record_game = timed_record  # type: ignore[method-assign]
    try:
        summary = run_ladder(cfg, fresh=True, on_game=probe.on_game)
    finally:
        Store.record_game = original  # type: ignore[method-assign]
    end = (time.monotonic(), self_cpu(), children_cpu(), rss_mb())
    if not summary.complete:
        print(f"stopped early: {summary.played} games", file=sys.stderr)
        return 1

    t0, arena0, bots0 = probe.start
    wall = end[0] - t0
    arena_cpu, bots_cpu = end[1] - arena0, end[2] - bots0
    print(f"games/s:      {summary.played / wall:.2f} overall ({summary.played} games in "
          f"{wall:.1f} s), {summary.faults} faults")
    if early in probe.samples and total in probe.samples and total > early:
        (ta, _, _, rss_a), (tb, _, _, rss_b) = probe.samples[early], probe.samples[total]
        print(f"              {(total - early) / (tb - ta):.2f} between game {early} and "
              f"game {total}")
    capacity = wall * cores
    print(f"CPU use:      {100 * (arena_cpu + bots_cpu) / capacity:.0f}% of {cores} cores "
          f"(arena process {100 * arena_cpu / capacity:.0f}%, bots "
          f"{100 * bots_cpu / capacity:.0f}%); the arena process used "
          f"{100 * arena_cpu / wall:.0f}% of one core")
    print(f"store:        {1000 * probe.store_seconds / summary.played:.2f} ms per game "
          f"(record, figures, commit with fsync): {100 * probe.store_seconds / wall:.1f}% "
          "of the run's wall time, in the writer thread (not trio's)")
    if early in probe.samples and total in probe.samples:
        rss_a, rss_b = probe.samples[early][3], probe.samples[total][3]
        verdict = "flat" if rss_b / rss_a <= 1.10 else "GROWING"
        print(f"memory (RSS): {rss_a:.1f} MB after {early} games, {rss_b:.1f} MB after "
              f"{total}: ratio {rss_b / rss_a:.3f} ({verdict}; target within 1.10)")
    db_mb = cfg.database.stat().st_size / 2**20
    print(f"database:     {db_mb:.1f} MB, {1024 * db_mb / summary.played:.1f} KB per game")
    if args.keep is None:
        shutil.rmtree(folder)
    return 0


def sandbox_cost(args: argparse.Namespace) -> None:
    """Games/s sealed with everything (seccomp, a cgroup per bot, frozen between calls),
    sealed as before the cgroups (ARENA_CGROUPS=off: per-process limits only, never
    frozen) and unsealed, in alternating blocks so that drift in the machine's load falls
    on all three; then the cost of freezing and thawing, and process starts."""
    from arena.procs import cgroups

    detected = cgroups._get()
    arms = {"sealed": (True, detected), "before": (True, cgroups._off),
            "unsealed": (False, detected)}
    blocks = 4
    per_pairing = max(2, 2 * math.ceil(args.sandbox_games / blocks / len(BOTS) / 2))
    folder = Path(tempfile.mkdtemp(prefix="ladder-bench-sandbox-"))
    totals = {name: [0, 0.0] for name in arms}
    try:
        for block in range(blocks):
            order = list(arms) if block % 2 == 0 else list(reversed(arms))
            for name in order:
                sealed, tree = arms[name]
                cgroups._tree = tree
                path = folder / f"b{block}-{name}.toml"
                path.write_text(LADDER.format(games=per_pairing, concurrency=args.concurrency,
                                              sandbox=str(sealed).lower()))
                cfg = parse_ladder(path.read_text(), path)
                t0 = time.monotonic()
                summary = run_ladder(cfg, fresh=True)
                totals[name][0] += summary.played
                totals[name][1] += time.monotonic() - t0
    finally:
        cgroups._tree = detected
        shutil.rmtree(folder, ignore_errors=True)
    rate = {k: n / t for k, (n, t) in totals.items()}
    print(f"sandbox:      {rate['sealed']:.2f} games/s sealed ({detected.hold().text()}), "
          f"{rate['before']:.2f} sealed without cgroups or freezing, {rate['unsealed']:.2f} "
          f"unsealed ({totals['sealed'][0]} games each way, {blocks} alternating blocks, "
          f"concurrency {args.concurrency})")
    ratio = rate["sealed"] / rate["before"]
    verdict = "ok" if ratio >= 0.95 else "OVER"
    print(f"ratio sealed/before: {ratio:.2f} ({verdict}; target at least 0.95)")
    verdict = "ok" if rate["sealed"] / rate["unsealed"] >= 0.90 else "OVER"
    print(f"ratio sandbox/none: {rate['sealed'] / rate['unsealed']:.2f} ({verdict}; target at "
          f"least 0.90)")
    freeze_us = trio.run(_freeze_cost, 2000)
    print(f"freezing:     {freeze_us:.0f} us per decision (thaw before the call and freeze "
          f"after it, {detected.hold().kind}; median of 2000)")
    starts = trio.run(_start_times, args.starts)
    sealed_s, bare = statistics.median(starts[True]), statistics.median(starts[False])
    print(f"process start: median {1000 * sealed_s:.0f} ms sealed, {1000 * bare:.0f} ms bare "
          f"(random bot, until it listens, {args.starts} each): {1000 * (sealed_s - bare):+.0f} "
          f"ms added (target at most 50)")
    bw = _bwrap_alone(args.starts)
    print(f"              bwrap alone: {1000 * bw[True]:.1f} ms sealed /bin/true, "
          f"{1000 * bw[False]:.1f} ms bare: {1000 * (bw[True] - bw[False]):+.1f} ms")


async def _freeze_cost(n: int) -> float:
    """Median microseconds of one thaw and one freeze of a live sealed bot."""
    from arena.procs.processes import LaunchSpec, open_bot_pool
    from arena.settings.limits import DEFAULT_CAPS
    from arena.settings.manifest import load_manifest

    m = load_manifest("random")
    times = []
    with tempfile.TemporaryDirectory() as tmp:
        async with open_bot_pool() as pool:
            proc = await pool.start(LaunchSpec(m.name, m.command, m.cwd, m.env,
                                               m.sandbox(DEFAULT_CAPS)),
                                    log_path=Path(tmp) / "freeze.log")
            proc.freeze()
            for _ in range(n):
                t0 = time.perf_counter()
                proc.thaw()
                proc.freeze()
                times.append(time.perf_counter() - t0)
            await proc.stop()
    return 1e6 * statistics.median(times)


async def _start_times(n: int) -> dict[bool, list[float]]:
    from arena.procs.processes import LaunchSpec, open_bot_pool
    from arena.settings.limits import DEFAULT_CAPS
    from arena.settings.manifest import load_manifest

    m = load_manifest("random")
    times: dict[bool, list[float]] = {True: [], False: []}
    with tempfile.TemporaryDirectory() as tmp:
        async with open_bot_pool() as pool:
            for i in range(n):
                for sealed in ((True, False) if i % 2 == 0 else (False, True)):
                    spec = LaunchSpec(m.name, m.command, m.cwd, m.env,
                                      m.sandbox(DEFAULT_CAPS) if sealed else None)
                    t0 = time.perf_counter()
                    proc = await pool.start(spec, log_path=Path(tmp) / "start.log")
                    times[sealed].append(time.perf_counter() - t0)
                    await proc.stop()
    return times


def _bwrap_alone(n: int) -> dict[bool, float]:
    """Median wall time of /bin/true run bare and through the sandbox's command line."""
    from arena.procs.sandbox import find_bwrap, find_prlimit, sandbox_argv
    from arena.settings.limits import Sandbox

    cmd = sandbox_argv(find_bwrap(), find_prlimit(), Sandbox(), argv=["/bin/true"],
                       cwd=Path("/usr"), env={}, seccomp_fd=None)
    as_user = [] if cmd.uid is None else ["setpriv", f"--reuid={cmd.uid}", f"--regid={cmd.uid}",
                                          "--clear-groups", "--"]
    times: dict[bool, list[float]] = {True: [], False: []}
    for _ in range(n):
        options = os.memfd_create("bwrap-args")
        os.write(options, cmd.options)
        os.lseek(options, 0, os.SEEK_SET)
        sealed = [*as_user, *cmd.argv(options)]
        for flag, argv in ((True, sealed), (False, ["/bin/true"])):
            t0 = time.perf_counter()
            subprocess.run(argv, check=True, pass_fds=(options,) if flag else ())
            times[flag].append(time.perf_counter() - t0)
        os.close(options)
    return {k: statistics.median(v) for k, v in times.items()}


if __name__ == "__main__":
    sys.exit(main())
