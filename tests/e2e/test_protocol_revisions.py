"""Bots of any revision of the protocol: one built from the first revision's proto files
is seated only where it can play and refused, with what it lacks, elsewhere (check-bot,
matches, ladders); a bot may answer by the index of a legal action."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from arena.core.features import Feature, features_needed
from arena.settings.rule_sets import NAMED_RULES
from tests.helpers import ROOT, TESTS, misbehaving_bot, no_bot_left, rev1_bot  # noqa: F401

pytestmark = pytest.mark.usefixtures("no_bot_left")

BY_INDEX = TESTS / "bots" / "by_index.py"


def arena(*args: str, cwd: Path, timeout: float = 240) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "COLUMNS": "300", "TMPDIR": str(cwd)}
    return subprocess.run([sys.executable, "-m", "arena.cli.main", *args], cwd=cwd,
                          capture_output=True, text=True, timeout=timeout, env=env)


def test_a_first_revision_bot_plays_its_tables_and_is_refused_the_others(tmp_path):
    bot = rev1_bot(tmp_path)
    later = ["seven-card", "six-player-double", "29-card", "railroading"]
    proc = arena("check-bot", str(bot.source), "--games", "1", "--rules", "standard",
                 *(a for name in later for a in ("--rules", name)), cwd=tmp_path)
    out = proc.stdout
    assert proc.returncode == 0, out + proc.stderr
    assert "FAIL" not in out
    assert "standard: games" in out and "completed without a fault" in out
    for name in later:
        # the row, whatever its wrapping: from its name to the next row's result cell
        start = out.index(f"{name}: rules")
        end = min((i for i in (out.find(m, start + 1) for m in ("│ note", "│ pass", "│ FAIL"))
                   if i > out.index("│ note", start)), default=len(out))
        row = " ".join(out[start:end].replace("│", " ").split())
        assert "note refused: the bot does not declare" in row, row
        for feature in features_needed(NAMED_RULES[name]):
            assert f"FEATURE_{feature.name}" in row, (feature, row)


def test_a_match_the_old_bot_cannot_play_stops_with_what_it_lacks(tmp_path):
    bot = rev1_bot(tmp_path)
    out = tmp_path / "run"
    proc = arena("match", str(bot.source), "random", "--rules", "six-player", "--games", "4",
                 "--concurrency", "1", "--out", str(out), cwd=tmp_path)
    assert proc.returncode == 3, proc.stdout + proc.stderr
    assert "rev1 cannot play 'six-player' rules" in proc.stderr
    assert "FEATURE_SIX_SEATS" in proc.stderr and "FEATURE_CORNWALL_ASK" in proc.stderr
    assert not list((out / "games").glob("*.pb"))  # nothing recorded as a forfeit


def test_a_ladder_suspends_the_old_bot_and_stores_none_of_its_games(tmp_path):
    bot = rev1_bot(tmp_path)
    ladder = tmp_path / "ladder.toml"
    ladder.write_text("\n".join([
        f'bots = ["{bot.source.parent}", "random", "heuristic"]', "games_per_pairing = 2",
        "[rules]", 'preset = "six-player"', "[time_control]", "per_decision = 2.0",
        "bank = 30.0", "[limits]", "memory_mb = 512", ""]))
    proc = subprocess.run([sys.executable, "-m", "ladder.cli.main", "run", str(ladder)],
                          capture_output=True, text=True, timeout=240, cwd=ROOT,
                          env={**os.environ, "COLUMNS": "300"})
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "rev1 suspended for the rest of this run: it cannot play these rules" in proc.stderr
    assert "FEATURE_SIX_SEATS" in proc.stderr
    assert "but for the games of rev1" in proc.stdout
    conn = sqlite3.connect(tmp_path / "ladder.sqlite")
    try:
        rows = conn.execute("SELECT bot_a, bot_b FROM games").fetchall()
    finally:
        conn.close()
    assert len(rows) == 2 and all("rev1" not in r for r in rows), rows


def test_answers_by_index_play_every_table(tmp_path):
    bot = misbehaving_bot(tmp_path, "random", script=BY_INDEX)
    rules = [a for name in NAMED_RULES for a in ("--rules", name)]
    proc = arena("check-bot", str(bot.source), "--games", "1", *rules, cwd=tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "PASS" in proc.stdout and "refused" not in proc.stdout
    # every feature's table was played, so an index reached every kind of decision
    assert set().union(*(features_needed(r) for r in NAMED_RULES.values())) == set(Feature)


def test_an_index_past_the_end_is_a_malformed_answer(tmp_path):
    bot = misbehaving_bot(tmp_path, "past-end", script=BY_INDEX)
    proc = arena("check-bot", str(bot.source), "--games", "1", "--rules", "standard",
                 cwd=tmp_path)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    out = " ".join(proc.stdout.replace("│", " ").split())
    assert "malformed" in out and "past the end of legal_actions" in out, out
    assert "fix: answer with action_index, the position of one of" in out, out


def test_a_check_only_of_tables_the_bot_cannot_play_says_so(tmp_path):
    """Offered none of the first revision's tables, the old bot is told to be checked on
    one (or to learn these), not to accept a rule set it was never offered."""
    bot = rev1_bot(tmp_path)
    proc = arena("check-bot", str(bot.source), "--games", "1", "--rules", "six-player",
                 cwd=tmp_path)
    out = " ".join(proc.stdout.replace("│", " ").split())
    assert proc.returncode == 1, out
    assert "refused every rule set checked: check it on rules it plays" in out, out
    assert "accept at least 'standard'" not in out, out
