"""A tiny arena: starts spawns_grandchild.py through arena.procs.processes, says so, then waits.

The test kills this process (SIGKILL or SIGINT) and checks what is left behind.
argv[1] is a JSON object: {"log_path": ..., "env": {...}}.
"""

import json
import sys
from pathlib import Path

import trio

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))

from arena.procs.processes import LaunchSpec, open_bot_pool  # noqa: E402


async def main() -> None:
    config = json.loads(sys.argv[1])
    spec = LaunchSpec(
        name="kid",
        argv=(sys.executable, str(HERE / "spawns_grandchild.py")),
        cwd=HERE,
        env=config["env"],
    )
    async with open_bot_pool() as pool:
        bot = await pool.start(spec, log_path=Path(config["log_path"]), grace=0.3)
        print(json.dumps({"pid": bot.pid, "address": bot.address}), flush=True)
        await trio.sleep_forever()


trio.run(main)
