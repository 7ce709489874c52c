"""Shared helpers for tests that start real bot processes."""

from __future__ import annotations

import os
import sys
from pathlib import Path

from arena.manifest import load_manifest

TESTS = Path(__file__).resolve().parent
MISBEHAVE = TESTS / "bots" / "misbehave.py"
ROOT = TESTS.parent


def misbehaving_bot(tmp_path: Path, mode: str, env: dict[str, str] | None = None):
    """A manifest for tests/bots/misbehave.py in the given mode."""
    folder = tmp_path / f"bot-{mode}"
    folder.mkdir(exist_ok=True)
    lines = [
        f'name = "{mode}"',
        'version = "1"',
        f'command = ["{sys.executable}", "{MISBEHAVE}", "{mode}"]',
    ]
    if env:
        lines.append("env = { " + ", ".join(f'{k} = "{v}"' for k, v in env.items()) + " }")
    (folder / "bot.toml").write_text("\n".join(lines) + "\n")
    return load_manifest(str(folder))


def leftover_bot_processes(marker: str = str(ROOT)) -> list[str]:
    """Command lines of live processes started from this checkout's bots."""
    found = []
    me = os.getpid()
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == me:
            continue
        try:
            with open(f"/proc/{entry}/cmdline", "rb") as f:
                cmd = f.read().replace(b"\0", b" ").decode(errors="replace")
            with open(f"/proc/{entry}/stat") as f:
                state = f.read().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if state == "Z":
            continue
        if ("misbehave.py" in cmd or "sample_bots" in cmd or "bot.py" in cmd) and marker in cmd:
            found.append(f"{entry}: {cmd}")
        elif "bot.py" in cmd and "pytest" not in cmd:
            cwd = ""
            try:
                cwd = os.readlink(f"/proc/{entry}/cwd")
            except OSError:
                pass
            if marker in cwd:
                found.append(f"{entry}: {cmd} (in {cwd})")
    return found
