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

ROOT = Path(__file__).resolve().parents[2]
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
        [sys.executable, "-m", "arena.cli.main", "check-bot", str(tmp_path), "--games", "1",
         "--rules", "standard"],
        capture_output=True, text=True, timeout=120,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "PASS" in proc.stdout


def demo_commands() -> list[str]:
    """The README's shell lines about the demo ladder, in the order a reader meets them."""
    return [line for block in code_blocks("sh") for line in block.splitlines()
            if line.startswith(".venv/bin/") and "demo" in line
            # a watcher needs a ladder playing beside it: tests/views/test_watch.py runs both
            and " watch " not in line]


@pytest.mark.timeout(600)  # some fifteen commands one after the other, each a new process
def test_the_readme_commands_after_the_demo_work(tmp_path):
    """Walk the README as a new user after scripts/demo: every command about the demo
    ladder runs as written (from a folder holding only the demo's ladder file, with fewer
    games played), and none fails."""
    commands = demo_commands()
    assert commands[0].startswith(".venv/bin/ladder demo")
    assert any("ladder replay" in c and "--seat" in c for c in commands)
    assert any("ladder verify" in c for c in commands)
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


def test_the_prior_paragraph_states_what_bench_prior_prints():
    """The figures of "The prior" are bench/prior.py's at its defaults, and they show what
    the paragraph says: a twin with fewer games ends nearer the mean, by the rule's
    N / (n + N) of the challenger's distance, and only because of the prior."""
    from ladder.rating.ratings import fit_tallies, gap
    from ladder.rating.simulate import twin_gaps, twin_gauntlet

    paragraph = " ".join(README.split("**The prior.**")[1].split("\n\n")[0].split())
    fit = fit_tallies(twin_gauntlet(6, 4, 3))
    g = gap(fit, "c", "twin")
    distance = fit.get("c").rating - fit.anchor
    assert (fit.get("twin").games, fit.get("c").games) == (12, 48)
    assert g.elo == pytest.approx(distance * 2 / (12 + 2), rel=0.05)
    assert f"rated {distance:.0f} Elo above the mean and {g.elo:.0f} above the copy" in paragraph
    assert f"played 12 games to its 48: {g.text()}" in paragraph
    more = [gap(fit_tallies(twin_gauntlet(n, 2 * n // 3, 3)), "c", "twin").elo for n in (24, 96)]
    assert f"at 24 pairs per pairing, {more[0]:.0f} Elo; at 96, {more[1]:.0f})" in paragraph

    drawn = twin_gaps(above=200, opponents=3, pairs=6, ladders=2000, seed=1)
    plain = twin_gaps(above=200, opponents=3, pairs=6, ladders=2000, seed=1, prior=0)
    assert drawn.mean > 5 * drawn.stderr and abs(plain.mean) < 2 * plain.stderr
    assert f"the copy is rated {drawn.mean:.1f} Elo below the challenger" in paragraph
    assert f"and {abs(plain.mean):.0f} with `--prior 0`" in paragraph


def test_the_exit_status_table_is_arena_errors():
    """The README's table of exit statuses says each kind's status and meaning as
    arena/settings/errors.py writes them (which every command's --help prints)."""
    from arena.settings.errors import EXIT_INTERRUPTED, EXIT_NO, EXIT_OK, EXIT_TERMINATED, Kind

    section = README.split("### Exit status", 1)[1].split("\n#", 1)[0]
    rows = {line.split("|")[1].strip(): line.split("|")[2].strip()
            for line in section.splitlines() if re.match(r"\| \d", line)}
    assert set(rows) == {str(EXIT_OK), str(EXIT_NO), *(str(k.status) for k in Kind),
                         f"{EXIT_INTERRUPTED}, {EXIT_TERMINATED}"}
    for kind in Kind:
        assert rows[str(kind.status)].startswith(kind.means.split(" (")[0]), kind
