"""Shared helpers for tests that start real bot processes."""

from __future__ import annotations

import os
import sys
import time
import uuid
from pathlib import Path

import pytest

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


def processes_with_mark(mark: str) -> list[str]:
    """Live (not zombie) processes whose environment holds EUCHRE_TEST_MARK=mark."""
    needle = f"EUCHRE_TEST_MARK={mark}".encode()
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            environ = Path(f"/proc/{entry}/environ").read_bytes()
            stat = Path(f"/proc/{entry}/stat").read_text()
            cmd = Path(f"/proc/{entry}/cmdline").read_bytes().replace(b"\0", b" ").decode()
        except OSError:
            continue
        if stat.rsplit(")", 1)[1].split()[0] == "Z" or int(entry) == os.getpid():
            continue
        if needle in environ.split(b"\0"):
            found.append(f"{entry}: {cmd}")
    return found


@pytest.fixture
def no_bot_left(monkeypatch):
    """Marks every process this test starts (through the environment they inherit) and
    fails the test if any of them is still alive at its end. Unlike a scan by command
    line, it is not fooled by other test runs on the same machine."""
    mark = uuid.uuid4().hex
    monkeypatch.setenv("EUCHRE_TEST_MARK", mark)
    yield mark
    deadline = time.monotonic() + 3.0
    left = processes_with_mark(mark)
    while left and time.monotonic() < deadline:  # an orphan may take a moment to be reaped
        time.sleep(0.1)
        left = processes_with_mark(mark)
    assert not left, f"processes left running: {left}"
