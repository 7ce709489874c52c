"""Ladders with real bot processes: determinism across concurrency, a kill -9 in the middle
of a real `ladder run`, clean stops, changed bots, faults, and the commands that read a
ladder back."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from arena.wire.codec import gamelog_from_pb
from arena.wire.gen.euchre.v1 import record_pb2
from ladder.config import load_ladder
from ladder.play import run_ladder
from ladder.schedule import plan_ladder
from ladder.standings import compute_standings
from ladder.store import Store
from tests.helpers import ROOT, misbehaving_bot, no_bot_left, processes_with_mark

# A random bot that seeds itself from the game id and its seat, so a game is a pure
# function of its deal whichever process plays it and whatever it played before.
SEEDED_BOT = '''\
import os
import random

from arena.wire.transport import BotHandler, BotIdentity, serve


class Seeded(BotHandler):
    def __init__(self):
        self.rngs = {}

    def hello(self, rules):
        return BotIdentity("seeded", "1", "", None)

    def start_game(self, game_id, seat, seat_bots):
        self.rngs[game_id] = random.Random(f"{game_id}:{seat}")

    def decide(self, game_id, view, events, time_left):
        return self.rngs[game_id].choice(view.legal_actions)

    def end_game(self, game_id, events):
        self.rngs.pop(game_id, None)


serve(Seeded(), os.environ["EUCHRE_BOT_ADDRESS"])
'''


# Every process a test starts is marked; any still alive at the end fails the test.
pytestmark = pytest.mark.usefixtures("no_bot_left")
__all__ = ["no_bot_left"]


def seeded_bot(tmp_path: Path) -> Path:
    folder = tmp_path / "seeded"
    folder.mkdir(exist_ok=True)
    (folder / "bot.py").write_text(SEEDED_BOT)
    (folder / "bot.toml").write_text('name = "seeded"\nversion = "1"\n'
                                     'command = ["{python}", "bot.py"]\n')
    return folder


def write_ladder(tmp_path: Path, bots: list[str], games: int, name: str = "ladder.toml",
                 **extra) -> Path:
    lines = [f"bots = [{', '.join(bots)}]", f"games_per_pairing = {games}"]
    lines += [f"{k} = {json.dumps(v)}" for k, v in extra.items()]
    lines += ["[time_control]", "per_decision = 2.0", "bank = 30.0"]
    path = tmp_path / name
    path.write_text("\n".join(lines) + "\n")
    return path


def ladder_cli(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "ladder.cli", *map(str, args)],
                          capture_output=True, text=True, timeout=timeout, cwd=ROOT)


def stored(db: Path) -> dict[str, tuple]:
    conn = sqlite3.connect(db)
    try:
        return {r[0]: r[1:] for r in conn.execute(
            "SELECT game_id, score_a, points_a, points_b, hands, record FROM games")}
    finally:
        conn.close()


def moves(blob: bytes) -> list:
    log = gamelog_from_pb(record_pb2.GameRecord.FromString(blob))
    return [(h.dealt, [(a.seat, a.action) for a in h.actions]) for h in log.hands]


def test_same_ladder_and_seed_give_the_same_results_at_concurrency_1_and_4(tmp_path):
    bot = seeded_bot(tmp_path)
    path = write_ladder(tmp_path, ['"heuristic"', f'"{bot}"',
                                   f'{{ name = "seeded-b", bot = "{bot}" }}'], games=4, seed=11)
    cfg = load_ladder(path)
    results = []
    for concurrency in (1, 4):
        db = tmp_path / f"c{concurrency}.sqlite"
        summary = run_ladder(cfg.with_overrides(concurrency=concurrency, database=db))
        assert summary.complete and summary.played == 12 and summary.faults == 0
        with Store.open(db) as store:
            st = compute_standings(store.games())
            runs = store.runs()
        assert runs[0][-1] == min(concurrency, 12)
        results.append((stored(db), st))
    (games1, st1), (games4, st4) = results
    assert games1.keys() == games4.keys()
    for gid in games1:
        assert games1[gid][:4] == games4[gid][:4], gid
        assert moves(games1[gid][4]) == moves(games4[gid][4]), gid  # every card, every bid
    assert [(ln.name, ln.elo, ln.rating, ln.low, ln.high) for ln in st1.lines] == \
        [(ln.name, ln.elo, ln.rating, ln.low, ln.high) for ln in st4.lines]


def test_kill_9_mid_run_loses_nothing_and_doubles_nothing(tmp_path, no_bot_left):
    path = write_ladder(tmp_path, ['"random"', '{ name = "random-b", bot = "random" }'],
                        games=16, concurrency=2)
    cfg = load_ladder(path)
    db = cfg.database
    log = open(tmp_path / "first.log", "w")  # noqa: SIM115 - closed below
    proc = subprocess.Popen([sys.executable, "-m", "ladder.cli", "run", str(path), "--quiet"],
                            cwd=ROOT, stdout=log, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 90
        while True:
            assert proc.poll() is None, (tmp_path / "first.log").read_text()
            assert time.monotonic() < deadline, "no games stored in time"
            if db.exists():
                try:
                    if len(stored(db)) >= 3:
                        break
                except sqlite3.OperationalError:  # schema not created yet
                    pass
            time.sleep(0.05)
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)
    finally:
        if proc.poll() is None:  # pragma: no cover - only when an assertion failed above
            proc.kill()
            proc.wait()
        log.close()
    assert proc.returncode == -signal.SIGKILL
    # the bots died with the arena
    deadline = time.monotonic() + 5
    while (left := processes_with_mark(no_bot_left)) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not left, f"bots outlived a killed arena: {left}"

    conn = sqlite3.connect(db)
    assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    assert conn.execute("SELECT status FROM runs").fetchall() == [("running",)]
    conn.close()
    before = stored(db)
    assert 3 <= len(before) < 16

    proc2 = ladder_cli("run", path, "--quiet")
    assert proc2.returncode == 0, proc2.stderr + proc2.stdout
    after = stored(db)
    planned = {g.game_id for g in plan_ladder(cfg)}
    assert set(after) == planned  # every planned game...
    conn = sqlite3.connect(db)
    (count,) = conn.execute("SELECT count(*) FROM games").fetchone()
    runs = conn.execute("SELECT status, to_play, played FROM runs ORDER BY id").fetchall()
    conn.close()
    assert count == len(planned) == 16  # ...exactly once
    for gid, row in before.items():  # and what was committed before the kill is untouched
        assert after[gid] == row
    assert runs[0][0] == "running" and runs[1] == ("complete", 16 - len(before), 16 - len(before))
    assert "16 of 16 planned games stored: complete" in proc2.stdout

    # nothing left to play: a third run plays nothing and changes nothing
    proc3 = ladder_cli("run", path, "--quiet")
    assert proc3.returncode == 0 and "0 games played" in proc3.stdout
    assert stored(db) == after


@pytest.mark.parametrize(("sig", "status"), [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_a_stopped_run_keeps_its_games_and_says_so(tmp_path, sig, status):
    path = write_ladder(tmp_path, ['"random"', '{ name = "random-b", bot = "random" }'],
                        games=40, concurrency=2)
    db = load_ladder(path).database
    proc = subprocess.Popen([sys.executable, "-m", "ladder.cli", "run", str(path), "--quiet"],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 90
    while not (db.exists() and _count(db) >= 1):
        assert proc.poll() is None and time.monotonic() < deadline
        time.sleep(0.05)
    proc.send_signal(sig)
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == status, err
    assert "Traceback" not in err
    conn = sqlite3.connect(db)
    (run_status,) = conn.execute("SELECT status FROM runs").fetchone()
    conn.close()
    assert run_status == "interrupted"
    assert 1 <= _count(db) < 40


def _count(db: Path) -> int:
    try:
        conn = sqlite3.connect(db)
        try:
            return conn.execute("SELECT count(*) FROM games").fetchone()[0]
        finally:
            conn.close()
    except sqlite3.OperationalError:
        return 0


def test_a_changed_bot_is_refused_then_rated_as_a_new_version(tmp_path):
    bot = seeded_bot(tmp_path)
    path = write_ladder(tmp_path, ['"heuristic"', f'"{bot}"'], games=2, concurrency=2)
    assert ladder_cli("run", path, "--quiet").returncode == 0
    with open(bot / "bot.py", "a") as f:
        f.write("# a change\n")
    proc = ladder_cli("run", path, "--quiet")
    assert proc.returncode == 2
    assert "seeded" in proc.stderr and "--new-version" in proc.stderr
    assert "Traceback" not in proc.stderr
    proc = ladder_cli("run", path, "--quiet", "--new-version")
    assert proc.returncode == 0, proc.stderr
    data = json.loads(ladder_cli("standings", path, "--json").stdout)
    games = {b["name"]: b["games"] for b in data["bots"]}
    assert games == {"heuristic": 4, "seeded": 2, "seeded@v2": 2}
    listing = ladder_cli("games", path, "--bot", "seeded", "--json").stdout.splitlines()
    assert {json.loads(line)["bot_b"] for line in listing} == {"seeded", "seeded@v2"}


def test_faults_are_stored_listed_and_reported(tmp_path):
    bad = misbehaving_bot(tmp_path, "garbage")
    path = write_ladder(tmp_path, ['"random"', f'"{bad.source.parent}"'], games=2,
                        concurrency=1)
    proc = ladder_cli("run", path, "--quiet")
    assert proc.returncode == 0, proc.stderr
    data = json.loads(ladder_cli("standings", path, "--json").stdout)
    by_name = {b["name"]: b for b in data["bots"]}
    assert by_name["garbage"]["faults"] >= 2 and by_name["random"]["faults"] == 0
    assert by_name["random"]["wins"] == 2
    listing = ladder_cli("games", path, "--faults")
    assert listing.returncode == 0 and "malformed" in listing.stdout
    assert ladder_cli("games", path, "--faults", "--bot", "nobody").returncode == 2
    report = ladder_cli("report", path)
    assert report.returncode == 0, report.stderr
    for word in ("standings", "crosstable", "make %", "euchred %", "march %", "alone",
                 "mean ms", "malformed"):
        assert word in report.stdout, word


def test_the_demo_finishes_and_prints_standings(tmp_path):
    proc = ladder_cli("demo", "--games", "2", "--out", tmp_path / "demo", "--quiet")
    assert proc.returncode == 0, proc.stderr
    assert "standings" in proc.stdout and "95% CI" in proc.stdout
    assert "heuristic" in proc.stdout and "complete" in proc.stdout
    assert (tmp_path / "demo" / "demo.sqlite").is_file()
