"""The README keeps its promise: the bot it shows really plays."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

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
