"""What waiting for each freeze costs a match: the arena as it ships against the same
arena that does not wait for the kernel to finish freezing a bot.

    python bench/freeze.py [--games 40] [--rounds 3]

After every call a sealed bot is frozen, and the call's block ends only once the kernel
says every process of it is frozen (arena.procs.processes.BotProcess.settle, at most
FREEZE_WAIT), so that no busy process of a bot runs into its partner's turn. The wait is
on trio's clock, so other games go on meanwhile. This plays the same match of random
against random, alternating the two arenas (FREEZE_WAIT as shipped, and 0) round after
round on this shared, noisy machine, and prints each one's wall time, their ratio, and
how long the waits took.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

ONE_MATCH = r"""
import json, sys, time
import arena.procs.processes as P
wait = float(sys.argv[1])
if wait >= 0:
    P.FREEZE_WAIT = wait
settles = []
settle = P.BotProcess.settle
async def timed(self):
    t = time.perf_counter()
    await settle(self)
    settles.append(time.perf_counter() - t)
P.BotProcess.settle = timed
sys.argv = ["arena", "match", "random", "random", "--games", sys.argv[2], "--concurrency",
            "2", "--out", sys.argv[3]]
from arena.cli.main import main
started = time.monotonic()
try:
    main()
except SystemExit:
    pass
print("RESULT " + json.dumps({"wall": time.monotonic() - started, "settles": settles}),
      file=sys.stderr)
"""


def one(wait: float, games: int, out: Path) -> dict:
    done = subprocess.run([sys.executable, "-c", ONE_MATCH, str(wait), str(games), str(out)],
                          capture_output=True, text=True, cwd=ROOT, timeout=900)
    found = [ln for ln in done.stderr.splitlines() if ln.startswith("RESULT ")]
    if not found:
        raise SystemExit(f"the match failed:\n{done.stderr}")
    return json.loads(found[-1].removeprefix("RESULT "))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=40, help="games a match (default 40)")
    parser.add_argument("--rounds", type=int, default=3, help="matches each way (default 3)")
    args = parser.parse_args(argv)
    walls: dict[str, list[float]] = {"waits": [], "no wait": []}
    settles: list[float] = []
    with tempfile.TemporaryDirectory(prefix="freeze-bench-") as tmp:
        for r in range(args.rounds):
            for name, wait in (("waits", -1.0), ("no wait", 0.0)):
                got = one(wait, args.games, Path(tmp) / f"{name.replace(' ', '-')}-{r}")
                walls[name].append(got["wall"])
                if name == "waits":
                    settles += got["settles"]
    for name, times in walls.items():
        print(f"{name:8} {' '.join(f'{t:6.1f} s' for t in times)}   best {min(times):.1f} s")
    print(f"ratio of the best: {min(walls['waits']) / min(walls['no wait']):.2f} x")
    if settles:
        settles.sort()
        n = len(settles)
        print(f"waits: {n}, median {settles[n // 2] * 1e3:.2f} ms, 99th percentile "
              f"{settles[int(n * 0.99)] * 1e3:.2f} ms, longest {settles[-1] * 1e3:.2f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
