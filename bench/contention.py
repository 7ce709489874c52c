"""What is left of a contention channel between partners, frozen and not.

    python bench/contention.py [--games 8]

Plays tests/bots/channels.py in its `contend` mode against the random bot with
`arena match` (one game at a time, sealed): the lower seat of the team leaves two busy
processes running after its answer for a 1 and none for a 0, and its partner times a
busy loop of 20 ms at each of its own turns. It plays the match twice, as the arena does
(a bot frozen between the arena's calls) and with ARENA_CGROUPS=off (never frozen: the
control, where the channel works), and prints the share of bits the partner decodes
wrong in each: 0.5 is a coin, i.e. no channel; the target is 0.40 or more when frozen.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CHANNELS = ROOT / "tests" / "bots" / "channels.py"


def decode(texts: Iterable[str]) -> tuple[float, int]:
    """From the bot's logs: each RECV read as 1 when its loop got less far than the
    median of the RECVs around it (WINDOW of them: the machine's other load drifts, and a
    median of the whole run would read the drift), against the bit of the latest SEND
    before it (by the monotonic clock, which every sandbox shares). Returns the share
    decoded wrong and the number of bits."""
    lines = [ln for t in texts for ln in t.splitlines()]
    sends = sorted((int(ln.split()[1]), int(ln.split()[2]))
                   for ln in lines if ln.startswith("SEND "))
    recvs = sorted((int(ln.split()[1]), int(ln.split()[2]))
                   for ln in lines if ln.startswith("RECV "))
    pairs = []
    for at, n in recvs:
        before = [bit for t, bit in sends if t < at]
        if before:
            pairs.append((n, before[-1]))
    if not pairs:
        return float("nan"), 0
    wrong = 0
    for i, (n, bit) in enumerate(pairs):
        lo = max(0, min(i - WINDOW // 2, len(pairs) - WINDOW))
        around = sorted(m for m, _ in pairs[lo:lo + WINDOW])
        wrong += (n < around[len(around) // 2]) != bool(bit)
    return wrong / len(pairs), len(pairs)


WINDOW = 21
"""RECVs a reading is compared with: enough for a steady median, few enough that the
load of the rest of the machine is about the same over them."""


def bot_folder(where: Path) -> Path:
    folder = where / "contend"
    folder.mkdir()
    shutil.copy(CHANNELS, folder / CHANNELS.name)
    (folder / "bot.toml").write_text(
        'name = "contend"\nversion = "1"\n'
        f'command = ["{{python}}", "{CHANNELS.name}", "contend"]\n')
    if os.geteuid() == 0:  # sealed bots run as nobody: the folder must be readable
        for path in (where, folder):
            path.chmod(0o755)
    return folder


def measure(where: Path, games: int, *, frozen: bool) -> tuple[float, int]:
    out = where / ("frozen" if frozen else "off")
    env = dict(os.environ)
    if not frozen:
        env["ARENA_CGROUPS"] = "off"
    done = subprocess.run(
        [sys.executable, "-m", "arena.cli.main", "match", str(where / "contend"), "random",
         "--games", str(games), "--concurrency", "1", "--out", str(out)],
        capture_output=True, text=True, cwd=ROOT, env=env, timeout=600)
    if done.returncode != 0:
        raise SystemExit(f"the match failed:\n{done.stderr}")
    logs = [p.read_text(errors="replace") for p in (out / "logs").glob("contend-*.log")]
    return decode(logs)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=8, help="games each way (default 8)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="contention-") as tmp:
        where = Path(tmp)
        bot_folder(where)
        frozen, bits = measure(where, args.games, frozen=True)
        off, off_bits = measure(where, args.games, frozen=False)
    verdict = "ok" if frozen >= 0.40 else "OVER"
    print(f"contention channel: error {frozen:.2f} over {bits} bits frozen ({verdict}; target "
          f"0.40 or more), {off:.2f} over {off_bits} bits without freezing (the control)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
