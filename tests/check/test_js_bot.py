"""The JavaScript sample bot (sample_bots/js), built from proto/ alone, plays as any bot:
real node processes sealed in the sandbox, over real gRPC, checked by check-bot, in
matches against the Python sample bots, and its records read back from JavaScript.

Where node is not installed these tests skip, saying so. Where it is, the bot's packages
must be installed (scripts/test runs scripts/install_js_bot.sh): a missing install fails.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys

import pytest

from arena.records import files as arena_records
from arena.records.gamelog import GameEnd
from arena.settings.manifest import SAMPLE_BOTS
from tests.check.test_checkbot import failed_rows
from tests.helpers import no_bot_left  # noqa: F401 - a fixture

JS = SAMPLE_BOTS / "js"
NODE = shutil.which("node")

pytestmark = [
    pytest.mark.skipif(NODE is None, reason="node is not installed: the JavaScript sample "
                       "bot (sample_bots/js) needs Node 18 or later"),
    pytest.mark.usefixtures("no_bot_left", "js_packages"),
]


@pytest.fixture
def js_packages() -> None:
    if not (JS / "node_modules" / "@grpc" / "grpc-js").is_dir():
        pytest.fail("sample_bots/js/node_modules is missing: run sh scripts/install_js_bot.sh "
                    "(scripts/test does)")


def arena_cli(*args: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    """An arena command with long limits for starting and deciding: a machine busy with
    other work has taken over 10 s to start node and Python processes, and 2 s for a
    decision the bot makes in 3 ms on average. The check is of conformance and play;
    check-bot still reports the decision times."""
    return subprocess.run([sys.executable, "-m", "arena.cli.main", *args, "--start-limit", "120",
                           "--per-decision", "10"],
                          capture_output=True, text=True, timeout=timeout,
                          env={**os.environ, "COLUMNS": "200"})


def test_the_strategy_keeps_its_rules_of_thumb():
    proc = subprocess.run([NODE or "node", "--test", "test/"], cwd=JS, capture_output=True,
                          text=True, timeout=60)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert re.search(r"^# pass [1-9]", proc.stdout, re.M), proc.stdout


@pytest.mark.timeout(300)
def test_check_bot_passes_the_js_bot_sealed():
    # Two rule sets that open most phases beyond the standard game, at about 10 s each
    # (every rule set takes over a minute on a busy machine): six seats, the joker turned
    # up and Cornwall's card given to a lone partner (six-player); a card passed face down
    # and the loner's blind exchange (railroading).
    proc = arena_cli("check-bot", "js", "--games", "1", "--rules", "six-player",
                     "--rules", "railroading")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert not failed_rows(proc.stdout), proc.stdout
    assert "in the arena's sandbox" in proc.stdout and "PASS" in proc.stdout
    assert "not reached" not in proc.stdout, proc.stdout
    for phase in ("dealer_names_trump", "partner_gives", "loner_exchanges", "going_alone"):
        assert phase in proc.stdout, phase


@pytest.mark.timeout(300)
def test_js_bot_beats_random_without_a_fault_and_its_records_read_in_javascript(tmp_path):
    out = tmp_path / "run"
    proc = arena_cli("match", "js", "random", "--games", "8", "--seed", "11",
                     "--concurrency", "2", "--out", str(out), "--fail-on-fault")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    files = sorted((out / "games").glob("*.pb"))
    assert len(files) == 8
    logs = [arena_records.read(p) for p in files]
    for log in logs:
        assert log.end is GameEnd.COMPLETED and not log.faults
        js_seats = [s for s in log.seats if s.name == "js"]
        assert len(js_seats) == 2
        assert all(s.sandboxed and s.reported_name == "js" for s in js_seats)
    wins = sum(1 for g in logs if g.winning_team is not None and g.seats[g.winning_team].name == "js")
    assert wins >= 7, f"js won {wins} of 8 against random"

    # The same records, read by read_record.js with protobufjs from proto/ alone.
    proc = subprocess.run([NODE or "node", "read_record.js", *map(str, files)], cwd=JS,
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    read = [json.loads(line) for line in proc.stdout.splitlines()]
    assert [(r["game_id"], int(r["seed"]), r["final_scores"], r["winning_team"], r["hands"])
            for r in read] == [
        (g.game_id, g.seed, list(g.final_scores), g.winning_team, len(g.hands)) for g in logs
    ]
    assert all(r["end"] == "GAME_END_COMPLETED" and r["faults"] == 0 for r in read)


def test_read_record_refuses_what_is_not_a_record(tmp_path):
    bad = tmp_path / "bad.pb"
    bad.write_bytes(b"not a record\n")
    proc = subprocess.run([NODE or "node", "read_record.js", str(bad)], cwd=JS,
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 1
    assert "not a game record" in proc.stderr
