"""Ladders with real bot processes: determinism across concurrency, changed bots, faults,
the demo, and the commands that read a ladder back. (Stopping a run: test_ladder_resume.)"""

from __future__ import annotations

import io
import json
import re
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from arena.records import files as records
from ladder.config.ladder_file import load_ladder
from ladder.rating.standings import compute_standings
from ladder.run.play import run_ladder
from ladder.store.database import Store
from tests.helpers import ROOT, misbehaving_bot, no_bot_left, twins_apart

# A bot whose files a test may change (a copy of no sample bot, so nothing is touched in
# the checkout): random, seeded from the game id and its seat.
SEEDED_BOT = '''\
import os
import random

from arena.wire.server import BotHandler, BotIdentity, serve


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
# every test runs ladders of real bots
pytestmark = [pytest.mark.processes, pytest.mark.usefixtures("no_bot_left")]
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
    # 512 MiB a bot: up to 4 games at once of 6 seats fit the machine (a run whose bots
    # could together hold more memory than it has is refused)
    lines += ["[limits]", "memory_mb = 512"]
    path = tmp_path / name
    path.write_text("\n".join(lines) + "\n")
    return path


def ladder_cli(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "ladder.cli.main", *map(str, args)],
                          capture_output=True, text=True, timeout=timeout, cwd=ROOT)


def stored(db: Path) -> dict[str, tuple]:
    conn = sqlite3.connect(db)
    try:
        return {r[0]: r[1:] for r in conn.execute(
            "SELECT game_id, score_a, points_a, points_b, hands, record FROM games")}
    finally:
        conn.close()


def moves(blob: bytes) -> list:
    log = records.decode(blob)
    return [(h.dealt, [(a.seat, a.action) for a in h.actions]) for h in log.hands]


def test_same_ladder_and_seed_give_the_same_results_at_concurrency_1_and_4(tmp_path):
    """The sample bots are deterministic per game (the random one seeds itself from the game
    id and its seat), so every game must come out the same whichever slot and process
    plays it, and Elo, replayed in schedule order, must not depend on finishing order."""
    path = write_ladder(tmp_path, ['"heuristic"', '"random"',
                                   '{ name = "random-b", bot = "random" }'], games=2, seed=11)
    cfg = load_ladder(path)
    results = []
    for concurrency in (1, 4):
        db = tmp_path / f"c{concurrency}.sqlite"
        summary = run_ladder(cfg.with_overrides(concurrency=concurrency, database=db))
        assert summary.complete and summary.played == 6 and summary.faults == 0
        with Store.open(db) as store:
            st = compute_standings(store.games())
            runs = store.runs()
            twins_apart([store.record(g) for g in store.finished_ids()])
        assert runs[0][-1] == concurrency
        results.append((stored(db), st))
    (games1, st1), (games4, st4) = results
    assert games1.keys() == games4.keys()
    for gid in games1:
        assert games1[gid][:4] == games4[gid][:4], gid
        assert moves(games1[gid][4]) == moves(games4[gid][4]), gid  # every card, every bid
    assert [(ln.name, ln.elo, ln.rating, ln.low, ln.high) for ln in st1.lines] == \
        [(ln.name, ln.elo, ln.rating, ln.low, ln.high) for ln in st4.lines]


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
    # however narrow the output, every game id is whole: it is what arena replay is given
    from rich.console import Console

    from ladder.report.tables import games_table

    with Store.open(path.with_suffix(".sqlite")) as store:
        rows = store.games()
    narrow = Console(width=60, file=io.StringIO(), color_system=None)
    narrow.print(games_table(rows, "games"))
    listed = narrow.file.getvalue()
    assert rows and all(r.game_id in listed for r in rows), listed
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


def test_a_six_seat_league_ladder_stores_verifies_and_rates(tmp_path):
    """Almonte league play: three processes of one bot a team, exactly twelve hands a
    game, each record replays under the rules and the standings count every game."""
    path = write_ladder(tmp_path, ['"random"', '"heuristic"'], games=2, concurrency=2,
                        seed=5, rules="almonte-league")
    proc = ladder_cli("run", path, "--quiet")
    assert proc.returncode == 0, proc.stderr + proc.stdout
    db = load_ladder(path).database
    with Store.open(db) as store:
        rows = store.games()
        assert len(rows) == 2 and all(len(r.seats) == 6 for r in rows)
        for r in rows:
            log = store.record(r.game_id)
            assert log.rules.seats == 6 and len(log.hands) == 12 and not log.faults
            assert r.score_a == log.points_of_team(r.a_team)
            assert {s.name for s in log.seats if s.seat % 2 == r.a_team} == {r.bot_a}
        st = compute_standings(rows)
    assert st.line("heuristic").games == st.line("random").games == 2
    verify = subprocess.run([sys.executable, "-m", "ladder.cli.main", "verify", str(db)],
                            capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert verify.returncode == 0 and "2 record(s)" in verify.stdout, verify.stdout


def test_a_bot_that_cannot_start_loses_with_every_seat_on_record(tmp_path):
    """A forfeit while the bots start: the record still names all four seats (the runner's
    may stop at the failing one), so the win is credited and the game replays."""
    bad = misbehaving_bot(tmp_path, "exit-at-once")
    path = write_ladder(tmp_path, [f'"{bad.source.parent}"', '"random"'], games=2,
                        concurrency=1)
    proc = ladder_cli("run", path, "--quiet")
    assert proc.returncode == 0, proc.stderr
    db = load_ladder(path).database
    with Store.open(db) as store:
        rows = store.games()
        assert [r.outcome for r in rows] == ["forfeit", "forfeit"]
        for r in rows:
            log = store.record(r.game_id)
            assert [s.name for s in log.seats] == list(r.seats)
            assert log.faults[0].kind.value == "start_failed"
        st = compute_standings(rows)
    assert st.line("random").wins == 2 and st.line("exit-at-once").faults >= 2
    verify = subprocess.run([sys.executable, "-m", "ladder.cli.main", "verify", str(db)],
                            capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert verify.returncode == 0, verify.stdout + verify.stderr


def test_ladder_says_its_version():
    from arena import __version__

    proc = ladder_cli("--version")
    assert proc.returncode == 0 and proc.stdout.strip() == f"ladder {__version__}"


def test_a_plain_run_after_a_longer_one_says_what_the_database_holds(tmp_path):
    path = write_ladder(tmp_path, ['"random"', '"heuristic"'], games=2, concurrency=2)
    longer = ladder_cli("run", path, "--quiet", "--games", "4")
    assert longer.returncode == 0, longer.stderr
    assert "4 of 4 planned games stored: complete" in " ".join(longer.stdout.split())
    plain = ladder_cli("run", path, "--quiet")
    assert plain.returncode == 0, plain.stderr
    said = " ".join(plain.stdout.split())
    assert "0 games played" in said
    assert ("4 games stored; the ladder plans 2 per pairing, 2 in all, 2 of them stored "
            "(the other 2 come from runs that planned more") in said, said


def test_a_ladder_kept_in_the_bots_folder_does_not_change_the_bot(tmp_path):
    """Its database, SQLite's files and the bot logs land in the bot's folder; the bot is
    the same bot on the next run. A real change is refused naming the file."""
    bot = seeded_bot(tmp_path)
    path = write_ladder(bot, ['"random"', '"."'], games=2, concurrency=2)
    first = ladder_cli("run", path, "--quiet")
    assert first.returncode == 0, first.stdout + first.stderr
    assert (bot / "ladder.sqlite").is_file() and any((bot / "ladder-logs").iterdir())
    again = ladder_cli("run", path, "--quiet", "--games", "4")
    assert again.returncode == 0, again.stdout + again.stderr
    (bot / "helper.py").write_text("x = 1\n")
    with open(bot / "bot.py", "a") as f:
        f.write("# a change\n")
    refused = ladder_cli("run", path, "--quiet")
    assert refused.returncode == 2
    said = " ".join(refused.stderr.split())
    assert "seeded (stored as seeded" in said and "changed bot.py; added helper.py" in said, said


def test_a_bot_that_keeps_failing_to_start_is_suspended_not_forfeited_all_night(tmp_path):
    """A bot that never listens fails its start in three games in a row (each after its
    own restarts): the ladder says once that it is suspended and plays no more of its
    games this run, leaving them to a later one; the other bots' games go on."""
    broken = misbehaving_bot(tmp_path, "never-listen")
    broken.source.write_text(broken.source.read_text() + "startup_timeout = 0.2\n")
    path = write_ladder(tmp_path, [f'{{ name = "never-listen", bot = "{broken.cwd}" }}',
                                   '"random"', '{ name = "random-b", bot = "random" }'],
                        games=4, concurrency=1, seed=739104857362910)
    proc = ladder_cli("run", path, "--quiet")
    assert "never-listen suspended for the rest of this run" in proc.stderr, proc.stderr
    assert proc.stderr.count("suspended for the rest") == 1
    with Store.open(load_ladder(path).database) as store:
        rows = store.games()
    theirs = [r for r in rows if "never-listen" in (r.bot_a, r.bot_b)]
    others = [r for r in rows if "never-listen" not in (r.bot_a, r.bot_b)]
    assert len(theirs) == 3 and len(others) == 4, (len(theirs), len(others))


def test_grace_and_start_limit_reach_the_games_from_the_file_and_the_command_line(tmp_path):
    """The ladder file's start_limit and grace, and `ladder run --start-limit --grace`
    over them, reach the bots: a bot that never listens is given the start limit (doubled
    on each of its three starts, as its fault says), and one that takes a second to exit
    after SIGTERM exits within a grace of 5 s and is killed within one of 0.2 s."""
    never = misbehaving_bot(tmp_path, "never-listen")
    slow = misbehaving_bot(tmp_path, "slow-term")
    path = write_ladder(tmp_path, [f'"{never.cwd}"', f'"{slow.cwd}"', '"random"'], games=2,
                        concurrency=2, seed=5, start_limit=0.3, grace=5.0)

    def run(db: str, *flags: str) -> tuple[set[str], set[str]]:
        """What the never-listening bot's faults say of its last start, and how each of
        the slow bot's processes ended (its log's last line)."""
        proc = ladder_cli("run", path, "--quiet", "--db", tmp_path / db, *flags)
        assert proc.returncode == 0, proc.stdout + proc.stderr
        with Store.open(tmp_path / db) as store:
            starts = {re.search(r"the last with \S+ s to listen", f.detail).group(0)
                      for r in store.games() for f in store.record(r.game_id).faults
                      if f.kind.value == "start_failed"}
        logs = sorted((tmp_path / f"{Path(db).stem}-logs").glob("slow-term-*.log"))
        # each run of a process in its log, from its header; those stopped before they
        # could handle SIGTERM (a start cut short by a forfeit) say nothing of the grace
        runs = [run for p in logs for run in p.read_text().split("===== [arena]")[1:]
                if "SIGTERM handled from now on" in run]
        assert runs
        ends = {run.rstrip().splitlines()[-1].split(" ", 2)[-1] for run in runs}
        return starts, ends

    assert run("file.sqlite") == ({"the last with 1.2 s to listen"},
                                  {"slow-term exited with code 0"})
    assert run("flags.sqlite", "--start-limit", "0.2", "--grace", "0.2") == (
        {"the last with 0.8 s to listen"}, {"slow-term was killed by signal SIGKILL"})
