"""Results that cannot be forged: a ladder database whose columns were changed by hand
(winner, points, faults, seats, per-bot figures, bot versions) is caught by the audit,
fails `ladder verify`, and is left out of `ladder standings` and `ladder report`, which say
so. Games are played in-process (random legal moves, no bot processes) and stored with
Store.record_game, as a ladder run stores them."""

from __future__ import annotations

import json
import sqlite3
from dataclasses import replace
from pathlib import Path
from random import Random

import pytest

from arena.core.game import GameState
from arena.core.rules import preset
from arena.records.gamelog import GameEnd, GameLog, Recorder, SeatBot
from arena.records.stats import collect_stats
from arena.settings.faults import Fault, FaultKind
from arena.settings.manifest import BotManifest
from arena.settings.plan import PlannedGame
from ladder.cli import main as ladder_cli
from ladder.config.ladder_file import ROUND_ROBIN
from ladder.rating.standings import compute_standings
from ladder.report.audit import audit_database, audit_game
from ladder.schedule.pairings import plan
from ladder.store.database import Store

BOTS = ("alpha", "bravo", "charlie")
SETTINGS = {"seed": 3, "duplicate": True, "rules": {"target": 10}}
FAULTY = 1  # the game (by schedule position) that carries faults


def play(game: PlannedGame, digests: dict[str, str], faults: bool) -> GameLog:
    """A complete record of the planned game, random legal moves, as the runner writes it
    (seats named by label, with version and digest)."""
    rules = preset("standard")
    state = GameState(rules, game.seed, game.first_dealer)
    rng = Random(game.seed * 7 + game.number)
    log = GameLog(
        game_id=game.game_id, rules=rules, seed=game.seed, first_dealer=game.first_dealer,
        seats=tuple(SeatBot(s, name, "1", digests[name], name, "1", True)
                    for s, name in enumerate(game.seats)),
        started_ms=1, finished_ms=2,
    )
    recorder = Recorder(state, log)
    while not state.over:
        action = rng.choice(state.legal_actions())
        recorder.apply(state.apply, action, state.turn, think_us=rng.randrange(1, 1000))
    recorder.finish(GameEnd.COMPLETED, state.winner)
    if faults:  # substituted faults: the game played on, one for bot_a, two for bot_b
        a, b = game.a_team, 1 - game.a_team
        log.faults = [Fault(FaultKind.TIMEOUT, a, 0, 1, "slow", True),
                      Fault(FaultKind.TIMEOUT, b, 0, 2, "slow", True),
                      Fault(FaultKind.ILLEGAL_ACTION, b + 2, 1, 0, "no", True)]
    return log


@pytest.fixture
def ladder_db(tmp_path) -> tuple[Path, list[GameLog]]:
    """A database of 6 games (3 bots, 2 games a pairing); game FAULTY has 3 faults."""
    path = tmp_path / "audit.sqlite"
    digests = {name: f"digest-{name}" for name in BOTS}
    logs = []
    with Store.open(path, write=True) as store:
        key = store.bind_settings("audit", SETTINGS)
        games = plan(list(BOTS), fmt=ROUND_ROBIN, games_per_pairing=2, key=key,
                     duplicate=True)
        versions = store.register_bots([
            BotManifest(name=n, version="1", command=("true",), cwd=Path("."),
                        digest=digests[n]) for n in BOTS
        ])
        ids = {v.label: v.id for v in versions.values()}
        run = store.start_run(planned=len(games), to_play=len(games), concurrency=1)
        for game in games:
            log = play(game, digests, faults=game.seq == FAULTY)
            assert store.record_game(game, log, ids, run) is not None
            logs.append(log)
        store.finish_run(run, "complete")
    return path, logs


def game_ids(path: Path) -> list[str]:
    with sqlite3.connect(path) as conn:
        return [r[0] for r in conn.execute("SELECT game_id FROM games ORDER BY seq, game_id")]


def tamper(path: Path, sql: str, *args) -> None:
    conn = sqlite3.connect(path)
    with conn:
        changed = conn.execute(sql, args).rowcount
    conn.close()
    assert changed >= 1, sql


def audit(path: Path) -> dict[str, list[str]]:
    with Store.open(path) as store:
        return dict(audit_database(store))


def run_ladder(capsys, *args: str) -> tuple[int, str]:
    code = ladder_cli.main(list(args))
    out = capsys.readouterr()
    return code, out.out + out.err


# --- an honest database -------------------------------------------------------------------


def test_an_untampered_database_passes_everything(ladder_db, capsys):
    path, _ = ladder_db
    assert len(game_ids(path)) == 6
    with Store.open(path) as store:
        assert audit_database(store) == []
        row = store.games()[FAULTY]
        assert (row.faults, row.faults_a, row.faults_b) == (3, 1, 2)  # the fixture's faults
        assert row.fault_kinds == "illegal_action,timeout"
    code, out = run_ladder(capsys, "verify", str(path))
    assert code == 0, out
    assert "ok" in out and "6 record(s)" in out and "columns stored with them match" in out
    assert ladder_cli.main(["standings", str(path), "--json"]) == 0
    captured = capsys.readouterr()
    data = json.loads(captured.out)
    assert data["unverified"] == [] and data["games"] == 6
    assert "warning" not in captured.err


# --- the audit names the game and the column ----------------------------------------------

# (what is changed, the SQL, the column the audit must name). Each lie is consistent
# within the row (a flipped winner flips score_a too), so only the record can tell.
TAMPERINGS = [
    ("winner", "UPDATE games SET winning_team = 1 - winning_team, score_a = 1 - score_a "
     "WHERE game_id = ?", "winning_team"),
    ("score_a", "UPDATE games SET score_a = 1 - score_a WHERE game_id = ?", "score_a"),
    ("outcome", "UPDATE games SET outcome = 'forfeit' WHERE game_id = ?", "outcome"),
    ("points", "UPDATE games SET points_a = points_b, points_b = points_a WHERE game_id = ?",
     "points_a"),
    ("hands", "UPDATE games SET hands = hands + 1 WHERE game_id = ?", "hands"),
    ("faults wiped", "UPDATE games SET faults = 0, faults_a = 0, faults_b = 0, "
     "fault_kinds = '' WHERE game_id = ?", "faults"),
    ("faults moved", "UPDATE games SET faults_a = faults_b, faults_b = faults_a "
     "WHERE game_id = ?", "faults_a"),
    ("fault kinds", "UPDATE games SET fault_kinds = 'timeout' WHERE game_id = ?",
     "fault_kinds"),
    ("seats", "UPDATE games SET seats = 'alpha,bravo,alpha,bravo' WHERE game_id = ?",
     "seats"),
    ("bots swapped", "UPDATE games SET bot_a = bot_b, bot_b = bot_a WHERE game_id = ?",
     "bot_a"),
    ("a_team", "UPDATE games SET a_team = 1 - a_team WHERE game_id = ?", "a_team"),
    ("seed", "UPDATE games SET seed = seed + 1 WHERE game_id = ?", "seed"),
    ("first dealer", "UPDATE games SET first_dealer = (first_dealer + 1) % 4 "
     "WHERE game_id = ?", "first_dealer"),
    ("number", "UPDATE games SET number = number + 6 WHERE game_id = ?", "number"),
    ("game_bots makes", "UPDATE game_bots SET makes = makes + 3 WHERE game = "
     "(SELECT id FROM games WHERE game_id = ?)", "game_bots.makes"),
    ("game_bots won", "UPDATE game_bots SET won = 1 - won WHERE game = "
     "(SELECT id FROM games WHERE game_id = ?)", "game_bots.won"),
    ("game_bots faults", "UPDATE game_bots SET faults = 0, fault_kinds = '{}' WHERE game = "
     "(SELECT id FROM games WHERE game_id = ?)", "game_bots.faults"),
    ("game_bots deleted", "DELETE FROM game_bots WHERE game = "
     "(SELECT id FROM games WHERE game_id = ?) AND team = 0", "game_bots"),
]


@pytest.mark.parametrize(("sql", "column"), [t[1:] for t in TAMPERINGS],
                         ids=[t[0] for t in TAMPERINGS])
def test_a_tampered_column_is_named_by_the_audit_and_verify(ladder_db, capsys, sql, column):
    path, _ = ladder_db
    victim = game_ids(path)[FAULTY]
    tamper(path, sql, victim)

    found = audit(path)
    assert list(found) == [victim]
    assert any(column in p.split(":")[0] for p in found[victim]), found[victim]

    code, out = run_ladder(capsys, "verify", str(path))
    assert code == 1, out
    (line,) = [ln for ln in out.splitlines() if victim in ln]  # one line for the game
    assert "FAIL" in line and column in line
    for other in game_ids(path):
        if other != victim:
            assert other not in out


def test_the_pure_audit_compares_a_row_with_a_record(ladder_db):
    path, _ = ladder_db
    with Store.open(path) as store:
        row = store.games()[FAULTY]
        log = store.record(row.game_id)
    assert audit_game(row, log) == []
    lied = replace(row, points_a=row.points_a + 5, faults_b=0, seats=tuple(reversed(row.seats)))
    problems = audit_game(lied, log)
    assert [p.split(":")[0] for p in problems] == ["seats", "points_a", "faults_b"]
    assert f"stored {row.points_a + 5}" in problems[1]
    assert f"the record says {log.final_scores[row.a_team]}" in problems[1]


def test_a_changed_bot_digest_fails_every_game_of_that_bot(ladder_db, capsys):
    path, _ = ladder_db
    tamper(path, "UPDATE bots SET digest = 'forged' WHERE label = 'alpha'")
    found = audit(path)
    alpha_games = [g for g in game_ids(path) if "alpha" in g.split("~")[:2]]
    assert sorted(found) == sorted(alpha_games) and len(alpha_games) == 4
    assert all(any(p.startswith("bots.digest of alpha") for p in ps) for ps in found.values())
    code, out = run_ladder(capsys, "verify", str(path))
    assert code == 1 and "bots.digest of alpha" in out


def test_a_game_whose_bot_id_names_no_bot_is_not_dropped_silently(ladder_db, capsys):
    path, _ = ladder_db
    victim = game_ids(path)[0]
    tamper(path, "UPDATE games SET bot_a = 999 WHERE game_id = ?", victim)
    with Store.open(path) as store:
        assert victim not in {r.game_id for r in store.games()}  # the listing loses it
    assert list(audit(path)) == [victim]
    code, out = run_ladder(capsys, "verify", str(path))
    assert code == 1 and victim in out


# --- standings and the report leave a tampered game out, and say so ---------------------


def test_standings_leave_out_a_tampered_game_and_say_so(ladder_db, capsys):
    path, _ = ladder_db
    with Store.open(path) as store:
        honest = store.games()
    victim = honest[FAULTY]
    # The lie: the losing team is recorded as the winner.
    tamper(path, "UPDATE games SET winning_team = 1 - winning_team, score_a = 1 - score_a "
           "WHERE game_id = ?", victim.game_id)
    expected = compute_standings([r for r in honest if r.game_id != victim.game_id])

    assert ladder_cli.main(["standings", str(path), "--json"]) == 0
    captured = capsys.readouterr()
    data = json.loads(captured.out)
    assert data["unverified"] == [victim.game_id]
    assert data["games"] == 5
    by_name = {b["name"]: b for b in data["bots"]}
    for line in expected.lines:
        assert (by_name[line.name]["games"], by_name[line.name]["wins"]) == \
            (line.games, line.wins)
        assert by_name[line.name]["elo_running"] == round(line.elo, 3)
    assert victim.game_id in captured.err and "warning" in captured.err

    assert ladder_cli.main(["standings", str(path)]) == 0
    captured = capsys.readouterr()
    assert "standings" in captured.out and victim.game_id not in captured.out
    warnings = [ln for ln in captured.err.splitlines() if "warning" in ln]
    assert len(warnings) == 1 and victim.game_id in warnings[0]
    assert "1 stored game(s)" in warnings[0]


def test_the_report_leaves_a_tampered_game_out_of_every_figure(ladder_db, capsys):
    path, logs = ladder_db
    victim = game_ids(path)[FAULTY]
    tamper(path, "UPDATE game_bots SET makes = makes + 40 WHERE game = "
           "(SELECT id FROM games WHERE game_id = ?)", victim)
    honest = collect_stats(log for log in logs if log.game_id != victim)
    with Store.open(path) as store:
        # what a plain sum over game_bots would report
        assert store.bot_stats()["alpha"].makes == collect_stats(logs)["alpha"].makes + 40
        figures = store.bot_stats([g for g in game_ids(path) if g != victim])
    for name in BOTS:
        assert figures[name].makes == honest[name].makes
        assert figures[name].games == honest[name].games

    assert ladder_cli.main(["report", str(path)]) == 0
    captured = capsys.readouterr()
    assert "crosstable" in captured.out
    assert victim in captured.err
    assert "warning" in captured.err and "left out" in captured.err


def test_an_honest_report_has_no_warning(ladder_db, capsys):
    path, _ = ladder_db
    assert ladder_cli.main(["report", str(path)]) == 0
    captured = capsys.readouterr()
    assert "crosstable" in captured.out and "warning" not in captured.err
