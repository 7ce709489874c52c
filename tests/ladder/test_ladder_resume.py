"""Stopping a real `ladder run` every way it can stop: kill -9 in the middle (nothing
committed is lost, nothing is played twice, no bot survives), Ctrl-C and SIGTERM (exit
130 and 143, the run marked interrupted), and a database that cannot be written."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from arena.play.live_files import live_files
from arena.settings.errors import Kind
from ladder.config.ladder_file import live_folder, load_ladder
from ladder.schedule.pairings import plan_ladder
from ladder.store.database import Store
from tests.helpers import ROOT, no_bot_left, processes_with_mark
from tests.ladder.test_ladder_run import ladder_cli, stored, write_ladder

# every test runs ladders of real bots
pytestmark = [pytest.mark.processes, pytest.mark.usefixtures("no_bot_left")]
__all__ = ["no_bot_left"]


def test_kill_9_mid_run_loses_nothing_and_doubles_nothing(tmp_path, no_bot_left):
    path = write_ladder(tmp_path, ['"random"', '{ name = "random-b", bot = "random" }'],
                        games=10, concurrency=2)
    cfg = load_ladder(path)
    db = cfg.database
    log = open(tmp_path / "first.log", "w")  # noqa: SIM115 - closed below
    proc = subprocess.Popen([sys.executable, "-m", "ladder.cli.main", "run", str(path), "--quiet"],
                            cwd=ROOT, stdout=log, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 90
        while True:
            assert proc.poll() is None, (tmp_path / "first.log").read_text()
            assert time.monotonic() < deadline, "no games stored in time"
            if db.exists():
                try:
                    # mid-game: some games stored, and one in play (its live file there)
                    if len(stored(db)) >= 3 and live_files(live_folder(db)):
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
    # sealed bots carry no mark (their environment is their own): look in their groups,
    # where a bot frozen between calls would linger unkilled unless it is thawed
    groups = [*Path("/sys/fs/cgroup").glob(f"*/euchre-arena-{proc.pid}/bot-*/cgroup.procs"),
              *Path("/sys/fs/cgroup").glob(f"*/*/*/euchre-arena-{proc.pid}/bot-*/cgroup.procs")]
    deadline = time.monotonic() + 5
    while (alive := [g for g in groups if g.exists() and g.read_text().strip()]) \
            and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not alive, f"sealed bots outlived a killed arena in {alive}"

    conn = sqlite3.connect(db)
    assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    assert conn.execute("SELECT status FROM runs").fetchall() == [("running",)]
    conn.close()
    before = stored(db)
    assert 3 <= len(before) < 10
    # the games cut off left their live files (nothing could remove them)...
    assert live_files(live_folder(db)), "a run killed mid-game leaves its games' live files"

    proc2 = ladder_cli("run", path, "--quiet")
    assert proc2.returncode == 0, proc2.stderr + proc2.stdout
    assert not live_folder(db).exists()  # ...which the next run swept away
    after = stored(db)
    with Store.open(db) as store:
        key = store.deal_key()
    planned = {g.game_id for g in plan_ladder(cfg, key)}
    assert set(after) == planned  # every planned game...
    conn = sqlite3.connect(db)
    (count,) = conn.execute("SELECT count(*) FROM games").fetchone()
    runs = conn.execute("SELECT status, to_play, played FROM runs ORDER BY id").fetchall()
    conn.close()
    assert count == len(planned) == 10  # ...exactly once
    for gid, row in before.items():  # and what was committed before the kill is untouched
        assert after[gid] == row
    assert runs[0] == ("killed", 10, len(before))
    assert runs[1] == ("complete", 10 - len(before), 10 - len(before))
    assert "10 of 10 planned games stored: complete" in proc2.stdout

    # every stored record replays exactly under the rules, including those cut short
    verify = subprocess.run([sys.executable, "-m", "ladder.cli.main", "verify", str(db)],
                            capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert verify.returncode == 0 and "10 record(s)" in verify.stdout, verify.stdout

    # nothing left to play: a third run plays nothing and changes nothing
    proc3 = ladder_cli("run", path, "--quiet")
    assert proc3.returncode == 0 and "0 games played" in proc3.stdout
    assert stored(db) == after


@pytest.mark.parametrize(("sig", "status"), [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_a_stopped_run_keeps_its_games_and_says_so(tmp_path, sig, status):
    path = write_ladder(tmp_path, ['"random"', '{ name = "random-b", bot = "random" }'],
                        games=40, concurrency=2)
    db = load_ladder(path).database
    proc = subprocess.Popen([sys.executable, "-m", "ladder.cli.main", "run", str(path), "--quiet"],
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


def test_a_database_error_stops_the_run_with_a_message(tmp_path, monkeypatch, capsys):
    """Say a disk fills up: the run stops at once, says why, and keeps what it stored."""
    from ladder.cli import main as cli
    from ladder.store.database import Store

    path = write_ladder(tmp_path, ['"random"', '{ name = "random-b", bot = "random" }'],
                        games=8, concurrency=2)
    original = Store.record_game
    calls = []

    def failing(self, *args, **kwargs):
        calls.append(1)
        if len(calls) > 2:
            full = sqlite3.OperationalError("database or disk is full")
            full.sqlite_errorcode = 13  # SQLITE_FULL, as SQLite says it
            raise full
        return original(self, *args, **kwargs)

    monkeypatch.setattr(Store, "record_game", failing)
    assert cli.main(["run", str(path), "--quiet"]) == Kind.MACHINE.status
    err = capsys.readouterr().err
    assert "machine error: database error: database or disk is full" in err
    assert "Traceback" not in err
    assert len(stored(load_ladder(path).database)) == 2


class _Watching:
    """An observer that keeps what a run tells it: the standings it started from, and in
    which thread each stored game reached it."""

    def __init__(self, stop_after: int | None = None) -> None:
        self.stop_after = stop_after
        self.start: object = None
        self.standings = None
        self.stored_in: list[int] = []
        self.done: list[str] = []

    def started(self, *, title, total, done, standings, bots) -> None:
        self.standings = standings
        self.start = standings.standings(bots=bots)

    def game_stored(self, row) -> None:
        self.stored_in.append(threading.get_ident())

    def game_done(self, row) -> None:
        self.done.append(row.game_id)
        if len(self.done) == self.stop_after:
            os.kill(os.getpid(), signal.SIGTERM)

    def finished(self) -> None:
        pass


def test_a_run_stopped_with_games_waiting_to_be_stored_stores_each_once(tmp_path,
                                                                         monkeypatch):
    """Storing and the standings run in the writer thread, behind a queue: a stop with
    finished games still queued stores every one of them, once, and counts a game as done
    only once it is stored; the resumed run starts from standings equal to a full
    recomputation of what was stored, and plays exactly the rest."""
    from ladder.rating.standings import compute_standings
    from ladder.run.play import run_ladder

    path = write_ladder(tmp_path, ['"random"', '{ name = "random-b", bot = "random" }',
                                   '{ name = "random-c", bot = "random" }'],
                        games=4, concurrency=3)
    cfg = load_ladder(path)
    original = Store.record_game
    committed: list[str] = []

    def slow(self, game, *args, **kwargs):  # a slow disk: finished games queue up
        time.sleep(0.3)
        row = original(self, game, *args, **kwargs)
        committed.append(game.game_id)
        return row

    monkeypatch.setattr(Store, "record_game", slow)
    first = _Watching(stop_after=3)
    on_game: list[str] = []
    summary = run_ladder(cfg, observer=first, checkpoint_every=2,
                         on_game=lambda row, log: on_game.append(row.game_id))
    monkeypatch.setattr(Store, "record_game", original)
    assert summary.stopped_by == "SIGTERM" and summary.status == "interrupted"
    in_db = stored(cfg.database)
    # Every game that finished was stored, and counted as done only after its commit.
    assert sorted(committed) == sorted(in_db) == sorted(on_game) == sorted(first.done)
    assert summary.played == len(in_db) >= 3
    assert len(first.stored_in) == len(in_db)
    assert threading.get_ident() not in first.stored_in  # never trio's (the main) thread

    with Store.open(cfg.database) as store:
        before = store.games()
    again = _Watching()
    second = run_ladder(cfg, observer=again)
    assert second.complete and second.already == len(before)
    assert second.played == second.planned - len(before) == len(again.done)
    assert again.start == compute_standings(before, bots=list(second.labels.values()))
    with Store.open(cfg.database) as store:
        key = store.deal_key()
        rows = store.games()
        last = store.rating_history()[-3:]
    planned = [g.game_id for g in plan_ladder(cfg, key)]
    assert sorted(r.game_id for r in rows) == sorted(planned)  # each game once
    assert again.standings is not None
    final = compute_standings(rows)
    assert again.standings.standings() == final
    assert {(label, elo, rating) for _, games, label, elo, rating in last} == {
        (ln.name, ln.elo, ln.rating) for ln in final.lines}
    assert {games for _, games, *_ in last} == {len(rows)}
