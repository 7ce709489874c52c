"""The README keeps its promises: the bot it shows really plays, and its commands run as
written."""

from __future__ import annotations

import json
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text()


def code_blocks(lang: str) -> list[str]:
    return re.findall(rf"```{lang}\n(.*?)```", README, flags=re.S)


def test_the_readme_bot_passes_check_bot(tmp_path):
    bot_py = next(b for b in code_blocks("python") if "run(" in b)
    bot_toml = next(b for b in code_blocks("toml") if "command" in b)
    assert len(bot_py.strip().splitlines()) <= 25
    (tmp_path / "bot.py").write_text(bot_py)
    (tmp_path / "bot.toml").write_text(bot_toml)
    proc = subprocess.run(
        [sys.executable, "-m", "arena.cli", "check-bot", str(tmp_path), "--games", "1",
         "--rules", "standard"],
        capture_output=True, text=True, timeout=120,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "PASS" in proc.stdout


def demo_commands() -> list[str]:
    """The README's shell lines about the demo ladder, in the order a reader meets them."""
    return [line for block in code_blocks("sh") for line in block.splitlines()
            if line.startswith(".venv/bin/") and "demo" in line
            # a watcher needs a ladder playing beside it: tests/test_watch.py runs both
            and " watch " not in line]


@pytest.mark.timeout(600)  # some fifteen commands one after the other, each a new process
def test_the_readme_commands_after_the_demo_work(tmp_path):
    """Walk the README as a new user after scripts/demo: every command about the demo
    ladder runs as written (from a folder holding only the demo's ladder file, with fewer
    games played), and none fails."""
    commands = demo_commands()
    assert commands[0].startswith(".venv/bin/ladder demo")
    assert any("arena replay" in c and "--seat" in c for c in commands)
    assert any("arena verify" in c for c in commands)
    (tmp_path / "ladders").mkdir()
    shutil.copy(ROOT / "ladders" / "demo.toml", tmp_path / "ladders" / "demo.toml")
    bin_dir = Path(sys.executable).parent
    for line in commands:
        words = shlex.split(line, comments=True)
        out = None
        if ">" in words:
            at = words.index(">")
            words, out = words[:at], tmp_path / words[at + 1]
        program = bin_dir / Path(words[0]).name
        words = [str(program), *words[1:]]
        if words[1:2] in (["demo"], ["run"]):
            words += ["--games", "2", "--quiet"]  # the README's ladders, shorter
        proc = subprocess.run(words, cwd=tmp_path, capture_output=True, text=True, timeout=300)
        assert proc.returncode == 0, (line, proc.stdout[-2000:], proc.stderr[-2000:])
        assert "Traceback" not in proc.stderr, line
        if out is not None:
            out.write_text(proc.stdout)
    assert (tmp_path / "runs" / "demo" / "demo.sqlite").exists()
    assert (tmp_path / "seat1.html").stat().st_size > 10_000
    seat1 = json.loads((tmp_path / "seat1.json").read_text())
    assert seat1["seat"] == 1 and "seed" not in seat1
