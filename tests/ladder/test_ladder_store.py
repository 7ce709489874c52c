"""The ladder database without bot processes: one row per game and never two, versions of
changed bots, settings that may not change under stored games, the writer lock, and
standings that do not depend on the order games finished in."""

from __future__ import annotations

import random
import sqlite3
from dataclasses import replace
from pathlib import Path

import pytest

from arena.core.rules import RuleSet, preset
from arena.records.gamelog import GameEnd, GameLog, SeatBot
from arena.settings.deals import key_from_seed
from arena.settings.faults import Fault, FaultKind
from arena.settings.manifest import BotManifest
from arena.settings.plan import PlannedGame
from ladder.config.ladder_file import ROUND_ROBIN
from ladder.rating.pairs import pair_units
from ladder.rating.ratings import EloTable, fit_ratings
from ladder.rating.standings import compute_standings
from ladder.schedule.pairings import plan
from ladder.store import migrations
from ladder.store.database import SCHEMA_VERSION, Store, StoreError

SETTINGS = {"seed": 1, "duplicate": True, "rules": {"target": 10}}
KEY = key_from_seed(1)


def manifest(name: str, digest: str = "d1") -> BotManifest:
    return BotManifest(name=name, version="1", command=("true",), cwd=Path("."), digest=digest)


def fake_log(game: PlannedGame, a_wins: bool, faults: int = 0, seats: int = 4) -> GameLog:
    """A record with no hands: enough for the store, which never looks inside a game."""
    winner = game.a_team if a_wins else 1 - game.a_team
    log = GameLog(
        game_id=game.game_id, rules=preset("standard" if seats == 4 else "six-player"),
        seed=game.seed,
        first_dealer=game.first_dealer,
        seats=tuple(SeatBot(s, game.seats[s], "1") for s in range(seats)),
        final_scores=(10, 4) if winner == 0 else (4, 10), winning_team=winner,
        end=GameEnd.FORFEIT if faults else GameEnd.COMPLETED, started_ms=1, finished_ms=2,
    )
    loser_seat = 1 - winner  # a seat of the losing team
    log.faults = [Fault(FaultKind.TIMEOUT, loser_seat, 0, 0, "slow", False)] * faults
    return log


def open_store(tmp_path: Path, bots=("alpha", "bravo", "charlie")):
    store = Store.open(tmp_path / "l.sqlite", write=True)
    store.bind_settings("test", SETTINGS)
    versions = store.register_bots([manifest(b) for b in bots])
    return store, {v.label: v.id for v in versions.values()}


def test_schema_is_created_with_its_version_and_wal(tmp_path):
    store, _ = open_store(tmp_path)
    assert store.conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    assert store.conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    tables = {r[0] for r in store.conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert tables == {"ladder", "bots", "runs", "games", "game_bots", "rating_history", "sprt"}
    store.close()


def test_a_version_2_database_is_read_as_is_and_upgraded_by_a_writer(tmp_path):
    path = tmp_path / "old.sqlite"
    old_database(path, 2)
    with Store.open(path) as reader:  # a reader changes nothing and sees no decision
        assert reader.sprt_decision("alpha") is None
    assert sqlite3.connect(path).execute("PRAGMA user_version").fetchone()[0] == 2
    with Store.open(path, write=True) as writer:
        assert writer.conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 6
        assert writer.sprt_decision("alpha") is None
    assert set(migrations.STEPS) == {2, 3, 4, 5}


def old_database(path: Path, version: int, rows_of: Path | None = None) -> None:
    """A database created by `version`'s own schema (ladder.store.migrations, as that version
    wrote it), holding the rows of the database `rows_of` in the columns it has. (Databases
    written by the old arenas themselves: tests/ladder/test_ladder_migrations.py.)"""
    conn = sqlite3.connect(path, isolation_level=None)
    conn.executescript(f"BEGIN; {migrations.SCHEMAS[version]}; "
                       f"PRAGMA user_version = {version}; COMMIT;")
    if rows_of is not None:
        conn.execute("ATTACH DATABASE ? AS new", (str(rows_of),))
        for table in ("ladder", "bots", "runs", "games", "game_bots", "rating_history"):
            cols = ", ".join(r[1] for r in conn.execute(f"PRAGMA main.table_info({table})"))
            conn.execute(f"INSERT INTO main.{table} ({cols}) SELECT {cols} FROM new.{table}")
        conn.execute("DETACH DATABASE new")
    conn.close()


def test_a_game_is_stored_once_with_its_record(tmp_path):
    store, ids = open_store(tmp_path)
    run = store.start_run(planned=3, to_play=3, concurrency=1)
    game = plan(["alpha", "bravo"], fmt=ROUND_ROBIN, games_per_pairing=2, key=KEY,
                duplicate=True)[1]
    row = store.record_game(game, fake_log(game, a_wins=True, faults=2), ids, run)
    assert row is not None and row.score_a == 1.0 and row.faults == 2
    assert row.faults_a == 0 and row.faults_b == 2
    # the second attempt is refused and the first result stands
    assert store.record_game(game, fake_log(game, a_wins=False), ids, run) is None
    assert store.game_count() == 1
    cols = ", ".join(r[1] for r in store.conn.execute("PRAGMA table_info(games)") if r[1] != "id")
    with pytest.raises(sqlite3.IntegrityError, match="game_id"):  # not even by hand
        store.conn.execute(f"INSERT INTO games ({cols}) SELECT {cols} FROM games")
    back = store.record(game.game_id)
    assert back.game_id == game.game_id and back.winning_team == row.winning_team
    assert len(back.faults) == 2
    (stored,) = store.games()
    assert stored == row
    assert store.bot_stats()["bravo"].faults == 2
    assert store.bot_stats()["alpha"].wins == 1
    store.close()


def test_a_record_missing_seats_is_completed_from_the_plan(tmp_path):
    """A game forfeited while its bots started may list only the seats filled so far."""
    store, ids = open_store(tmp_path)
    run = store.start_run(planned=1, to_play=1, concurrency=1)
    game = plan(["alpha", "bravo"], fmt=ROUND_ROBIN, games_per_pairing=2, key=KEY,
                duplicate=True)[0]
    store.record_game(game, fake_log(game, a_wins=False, faults=1, seats=2), ids, run)
    log = store.record(game.game_id)
    assert [s.name for s in log.seats] == list(game.seats)
    store.close()


def test_a_record_of_other_bots_is_refused(tmp_path):
    store, ids = open_store(tmp_path)
    run = store.start_run(planned=1, to_play=1, concurrency=1)
    game = plan(["alpha", "bravo"], fmt=ROUND_ROBIN, games_per_pairing=2, key=KEY,
                duplicate=True)[0]
    log = fake_log(game, True)
    log.seats = tuple(replace(s, name="charlie") for s in log.seats)
    with pytest.raises(ValueError):
        store.record_game(game, log, ids, run)
    assert store.game_count() == 0
    store.close()


def test_only_one_writer_at_a_time(tmp_path):
    store, _ = open_store(tmp_path)
    with pytest.raises(StoreError, match="another `ladder run`"):
        Store.open(tmp_path / "l.sqlite", write=True)
    with Store.open(tmp_path / "l.sqlite") as reader:  # readers never wait
        assert reader.game_count() == 0
    store.close()
    Store.open(tmp_path / "l.sqlite", write=True).close()


def test_fresh_starts_over(tmp_path):
    store, ids = open_store(tmp_path)
    run = store.start_run(planned=1, to_play=1, concurrency=1)
    game = plan(["alpha", "bravo"], fmt=ROUND_ROBIN, games_per_pairing=2, key=KEY,
                duplicate=True)[0]
    store.record_game(game, fake_log(game, True), ids, run)
    store.close()
    with Store.open(tmp_path / "l.sqlite", write=True, fresh=True) as again:
        assert again.game_count() == 0 and again.bots() == []


def test_other_settings_are_refused_once_games_are_stored(tmp_path):
    store, ids = open_store(tmp_path)
    store.bind_settings("test", {**SETTINGS, "seed": 2})  # no games yet: fine
    store.bind_settings("test", SETTINGS)
    run = store.start_run(planned=1, to_play=1, concurrency=1)
    game = plan(["alpha", "bravo"], fmt=ROUND_ROBIN, games_per_pairing=2, key=KEY,
                duplicate=True)[0]
    store.record_game(game, fake_log(game, True), ids, run)
    with pytest.raises(StoreError, match=r"seed was 1, now 2.*--fresh"):
        store.bind_settings("test", {**SETTINGS, "seed": 2})
    with pytest.raises(StoreError, match=r"rules.target was 10, now 11"):
        store.bind_settings("test", {**SETTINGS, "rules": {"target": 11}})
    store.close()


def test_a_changed_bot_is_refused_or_becomes_a_new_version(tmp_path):
    store, _ = open_store(tmp_path)
    with pytest.raises(StoreError, match=r"bravo \(stored as bravo, digest d1; now d2\).*"
                       r"--new-version"):
        store.register_bots([manifest("alpha"), manifest("bravo", "d2")])
    found = store.register_bots([manifest("alpha"), manifest("bravo", "d2")], new_versions=True)
    assert found["alpha"].label == "alpha" and found["alpha"].version == 1
    assert found["bravo"].label == "bravo@v2" and found["bravo"].version == 2
    third = store.register_bots([manifest("bravo", "d3")], new_versions=True)
    assert third["bravo"].label == "bravo@v3"
    # going back to old code is the old version again, with its old games
    back = store.register_bots([manifest("bravo", "d1")])
    assert back["bravo"].label == "bravo" and back["bravo"].version == 1
    assert [b.label for b in store.bots()] == ["alpha", "bravo", "charlie", "bravo@v2",
                                               "bravo@v3"]
    store.close()


def test_a_reader_needs_a_database(tmp_path):
    with pytest.raises(StoreError, match="no ladder database"):
        Store.open(tmp_path / "none.sqlite")
    other = tmp_path / "other.sqlite"
    sqlite3.connect(other).execute("CREATE TABLE t (x)").connection.commit()
    with pytest.raises(StoreError, match="not a ladder database"):
        Store.open(other)


# --- standings --------------------------------------------------------------------------


def stored_ladder(tmp_path, strengths, games=16, seed=3):
    """A round robin whose results are drawn from the given strengths (Elo points)."""
    names = sorted(strengths)
    store, ids = open_store(tmp_path, names)
    run = store.start_run(planned=0, to_play=0, concurrency=1)
    rng = random.Random(seed)
    planned = plan(names, fmt=ROUND_ROBIN, games_per_pairing=games, key=KEY, duplicate=True)
    order = list(planned)
    rng.shuffle(order)  # games finish in any order
    for g in order:
        p = 1 / (1 + 10 ** ((strengths[g.bot_b] - strengths[g.bot_a]) / 400))
        store.record_game(g, fake_log(g, rng.random() < p), ids, run)
    return store, planned


def test_elo_is_replayed_in_schedule_order_whatever_the_finishing_order(tmp_path):
    store, planned = stored_ladder(tmp_path, {"alpha": 200, "bravo": 0, "charlie": -100})
    rows = store.games()
    assert [r.game_id for r in rows] == [g.game_id for g in planned]  # stored out of order
    table = EloTable()
    for r in rows:  # by hand, in plan order
        table.update(r.bot_a, r.bot_b, r.score_a)
    shuffled = list(rows)
    random.Random(5).shuffle(shuffled)
    st = compute_standings(shuffled)
    for line in st.lines:
        assert line.elo == table.rating(line.name)
    fit = fit_ratings([(r.bot_a, r.bot_b, r.score_a) for r in rows])
    for line in st.lines:
        assert line.rating == pytest.approx(fit.get(line.name).rating, abs=1e-9)
        assert line.low < line.rating < line.high
    assert st.lines[0].name == "alpha"
    assert st.los["alpha", "charlie"] + st.los["charlie", "alpha"] == pytest.approx(1.0)
    total = sum(n for (_, _), (_, n) in st.crosstable.items())
    assert total == 2 * len(rows)
    store.close()


def test_the_pair_model_groups_the_halves_of_each_deal(tmp_path):
    store, _ = stored_ladder(tmp_path, {"alpha": 100, "bravo": 0}, games=8)
    rows = store.games()
    units = pair_units(rows)
    assert len(units) == 4 and all(u.paired for u in units)
    assert all(u.score_a in (0.0, 1.0, 2.0) for u in units)
    # the two halves of a deal: same deal number, teams swapped
    for u in units:
        halves = [r for r in rows if r.deal == rows[0].deal and r.bot_a == u.bot_a]
        assert len(halves) == 2 and {h.a_team for h in halves} == {0, 1}
    # a stopped ladder's odd half is a lone game, counted as such
    cut = pair_units(rows[:-1])
    assert [u.games for u in cut] == [2, 2, 2, 1]
    by_pairs = compute_standings(rows)
    by_games = compute_standings(rows, by="games")
    assert (by_pairs.units, by_pairs.pairs, by_games.units, by_games.pairs) == (4, 4, 8, 0)
    # the same estimate either way (the same games); only the variance differs
    assert by_pairs.line("alpha").rating == pytest.approx(by_games.line("alpha").rating,
                                                          abs=1e-9)
    assert by_pairs.line("alpha").results == by_games.line("alpha").results == 8
    store.close()


def test_standings_json_is_strict(tmp_path):
    import json

    store, _ = stored_ladder(tmp_path, {"alpha": 0, "bravo": 0, "charlie": 0}, games=4)
    data = compute_standings(store.games(), bots=["alpha", "bravo", "charlie", "delta"]).to_json()
    text = json.dumps(data, allow_nan=False)
    back = json.loads(text)
    assert {b["name"] for b in back["bots"]} == {"alpha", "bravo", "charlie", "delta"}
    delta = next(b for b in back["bots"] if b["name"] == "delta")
    assert delta["games"] == 0 and delta["rating"] is None
    assert back["los"]["alpha"]["bravo"] + back["los"]["bravo"]["alpha"] == pytest.approx(1, abs=1e-4)
    store.close()


def test_rating_history_snapshots(tmp_path):
    from ladder.rating.standings import snapshot_lines

    store, _ = stored_ladder(tmp_path, {"alpha": 0, "bravo": 0}, games=4)
    st = compute_standings(store.games())
    store.save_ratings(1, snapshot_lines(st))
    history = store.rating_history()
    assert {h[2] for h in history} == {"alpha", "bravo"}
    assert all(h[1] == 4 for h in history)
    store.close()


def test_a_game_with_an_unsealed_seat_is_stored_and_shown_as_such(tmp_path):
    from rich.console import Console

    from ladder.report.tables import UNSEALED_MARK, standings_table

    store, ids = open_store(tmp_path, ("alpha", "bravo"))
    run = store.start_run(planned=0, to_play=0, concurrency=1)
    games = plan(["alpha", "bravo"], fmt=ROUND_ROBIN, games_per_pairing=4, key=KEY,
                 duplicate=True)
    for i, g in enumerate(games):
        log = fake_log(g, a_wins=True)
        # game 0: every seat sealed; game 1: bravo's seats given by address (unsealed)
        log.seats = tuple(replace(sb, sandboxed=i != 1 or sb.name != "bravo") for sb in log.seats)
        store.record_game(g, log, ids, run)
    rows = store.games()
    assert [r.sandboxed for r in rows] == [True, False, True, True]
    assert store.record(rows[1].game_id).seats[1 - rows[1].a_team].sandboxed is False
    st = compute_standings(rows)
    assert {ln.name: ln.unsealed for ln in st.lines} == {"alpha": 1, "bravo": 1}
    assert {b["name"]: b["unsealed_games"] for b in st.to_json()["bots"]} == {"alpha": 1, "bravo": 1}
    console = Console(width=120, record=True)
    console.print(standings_table(st))
    text = console.export_text()
    assert f"alpha{UNSEALED_MARK}" in text and "played without a sandbox" in text
    sealed = compute_standings([r for r in rows if r.sandboxed])
    console = Console(width=120, record=True)
    console.print(standings_table(sealed))
    assert UNSEALED_MARK not in console.export_text()
    store.close()


# --- drawn games (league play) and six seats --------------------------------------------


def drawn_log(game: PlannedGame) -> GameLog:
    """A finished league game that ended level: nobody won."""
    log = fake_log(game, a_wins=True, seats=len(game.seats))
    log.rules = preset("almonte-league") if len(game.seats) == 6 else RuleSet(hand_limit=12)
    log.final_scores, log.winning_team = (14, 14), None
    return log


def test_a_drawn_six_seat_game_is_stored_as_half_a_point_each(tmp_path):
    store, ids = open_store(tmp_path)
    run = store.start_run(planned=2, to_play=2, concurrency=1)
    games = plan(["alpha", "bravo"], fmt=ROUND_ROBIN, games_per_pairing=2, key=KEY,
                 duplicate=True, seats=6)
    assert games[0].seats == ("alpha", "bravo") * 3 or games[0].seats == ("bravo", "alpha") * 3
    row = store.record_game(games[0], drawn_log(games[0]), ids, run)
    assert row is not None and row.winning_team is None and row.score_a == 0.5
    (stored,) = store.conn.execute("SELECT winning_team, score_a FROM games").fetchall()
    assert stored == (None, 0.5)
    assert store.record(games[0].game_id).drawn
    store.record_game(games[1], fake_log(games[1], a_wins=True, seats=6), ids, run)
    st = compute_standings(store.games())
    by_name = {ln.name: ln for ln in st.lines}
    # One draw and one win for alpha: 1.5 of 2 points, so alpha is rated above bravo.
    assert by_name["alpha"].rating > by_name["bravo"].rating
    assert by_name["alpha"].wins + by_name["bravo"].wins == 1
    store.close()


def test_an_unfinished_record_is_still_refused(tmp_path):
    store, ids = open_store(tmp_path)
    run = store.start_run(planned=1, to_play=1, concurrency=1)
    game = plan(["alpha", "bravo"], fmt=ROUND_ROBIN, games_per_pairing=1, key=KEY,
                duplicate=True)[0]
    log = fake_log(game, a_wins=True)
    log.winning_team, log.end = None, None
    with pytest.raises(ValueError, match="not a finished record"):
        store.record_game(game, log, ids, run)
    store.close()


def one_game_stored(tmp_path: Path):
    """A database at l.sqlite holding the first of a pairing's two games: the bots' ids
    and the two planned games."""
    store, ids = open_store(tmp_path)
    run = store.start_run(planned=2, to_play=2, concurrency=1)
    games = plan(["alpha", "bravo"], fmt=ROUND_ROBIN, games_per_pairing=2, key=KEY,
                 duplicate=True)
    store.record_game(games[0], fake_log(games[0], a_wins=True), ids, run)
    store.close()
    return ids, games


def test_a_version_2_database_is_upgraded_keeping_its_games(tmp_path):
    """Version 2 could not hold a draw; opening it with this arena upgrades it in place."""
    ids, games = one_game_stored(tmp_path)
    old = tmp_path / "old.sqlite"
    old_database(old, 2, rows_of=tmp_path / "l.sqlite")
    conn = sqlite3.connect(old)
    with pytest.raises(sqlite3.IntegrityError):  # version 2 refuses a draw
        conn.execute("UPDATE games SET winning_team = NULL, score_a = 0.5")
    conn.close()
    upgraded = Store.open(old, write=True)
    assert upgraded.conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 6
    assert upgraded.sprt_decision("alpha") is None  # the sprt table came too
    assert [g.game_id for g in upgraded.games()] == [games[0].game_id]
    assert upgraded.record(games[0].game_id).winning_team is not None
    upgraded.bind_settings("test", SETTINGS)
    run2 = upgraded.start_run(planned=2, to_play=1, concurrency=1)
    row = upgraded.record_game(games[1], drawn_log(games[1]), ids, run2)
    assert row is not None and row.score_a == 0.5
    indexes = {r[0] for r in upgraded.conn.execute("SELECT name FROM sqlite_master WHERE type='index'")}
    assert "games_by_seq" in indexes
    upgraded.close()


def stalled_log(game: PlannedGame) -> GameLog:
    """A game the arena stopped after a long run of hands thrown in: a draw."""
    log = fake_log(game, a_wins=True)
    log.rules = preset("british")
    log.final_scores, log.winning_team, log.end = (3, 5), None, GameEnd.STALLED
    return log


def test_a_version_5_database_is_upgraded_to_hold_a_stalled_game(tmp_path):
    """Version 5's games could only be completed or forfeited; a writer rebuilds the table
    with the wider CHECK, keeping every row."""
    ids, games = one_game_stored(tmp_path)
    old = tmp_path / "v5.sqlite"
    old_database(old, 5, rows_of=tmp_path / "l.sqlite")
    conn = sqlite3.connect(old)
    with pytest.raises(sqlite3.IntegrityError):  # version 5 refuses a stalled game
        conn.execute("UPDATE games SET outcome = 'stalled'")
    conn.close()
    with Store.open(old) as reader:  # a reader takes version 5 as it is
        assert [g.game_id for g in reader.games()] == [games[0].game_id]
    with Store.open(old, write=True) as upgraded:
        assert upgraded.conn.execute("PRAGMA user_version").fetchone()[0] == 6
        assert [g.game_id for g in upgraded.games()] == [games[0].game_id]
        upgraded.bind_settings("test", SETTINGS)
        run2 = upgraded.start_run(planned=2, to_play=1, concurrency=1)
        row = upgraded.record_game(games[1], stalled_log(games[1]), ids, run2)
        assert row is not None and row.outcome == "stalled"
        assert row.winning_team is None and row.score_a == 0.5
        assert upgraded.record(games[1].game_id).end is GameEnd.STALLED


def test_two_bots_that_split_every_pair_have_no_nelo_and_the_tables_say_why(tmp_path):
    """Six pairs, all split: no spread, so no margin, nElo or LOS of their own (fastchess's
    formulas divide by the spread and give nan). The tables say "no spread" and why, the
    JSON holds null; the fitted gap and its LOS are there as ever."""
    import contextlib
    import io
    import json

    from rich.console import Console

    from ladder.cli import main as ladder_cli
    from ladder.report.tables import NO_SPREAD, NO_SPREAD_NOTE, gaps_table

    store, ids = open_store(tmp_path, ("alpha", "bravo"))
    run = store.start_run(planned=12, to_play=12, concurrency=1)
    seen: set[int] = set()
    for g in plan(["alpha", "bravo"], fmt=ROUND_ROBIN, games_per_pairing=12, key=KEY,
                  duplicate=True):
        store.record_game(g, fake_log(g, a_wins=g.deal not in seen), ids, run)
        seen.add(g.deal)
    store.finish_run(run, "complete")
    st = compute_standings(store.games())
    h = st.head_to_head["alpha", "bravo"]
    assert (h.units, h.score, h.variance, h.spread) == (6, 0.5, 0.0, False)
    assert h.elo == 0.0 and (h.elo_margin, h.nelo, h.nelo_margin, h.los) == (None,) * 4
    (g,) = st.gaps
    assert g.elo == pytest.approx(0.0, abs=1e-9) and g.los == pytest.approx(0.5) and g.margin > 0
    console = Console(width=120, record=True)
    console.print(gaps_table(st))
    text = console.export_text()
    assert "50.0% of 6 pairs" in text and NO_SPREAD in text
    assert " ".join(NO_SPREAD_NOTE.split()) in " ".join(text.split())
    assert st.to_json()["gaps"][0]["head_to_head"]["nelo"] is None
    db = store.path
    store.close()
    page = tmp_path / "page.html"
    with contextlib.redirect_stdout(io.StringIO()) as out:
        assert ladder_cli.main(["report", str(db), "--html", str(page), "--json"]) == 0
    assert json.loads(out.getvalue())["gaps"][0]["head_to_head"]["los"] is None
    html = page.read_text(encoding="utf-8")
    assert f"<td>{NO_SPREAD}</td>" in html and "no spread to measure" in html

    # one pair won 2-0 among the splits: a spread, and an nElo. Score 3.5 / 6 = 7/12,
    # variance (5 (1/12)**2 + (5/12)**2) / 6 = 1/28.8, so nElo (1/12) / sqrt(2 / 28.8)
    # * 800 / ln 10 = 109.9, margin 1.96 sqrt(1 / (28.8 * 6)) / sqrt(2 / 28.8) * 347.4 = 196.6
    from ladder.rating.pairs import PairingTally, head_to_head
    from ladder.report.tables import nelo_text

    other = PairingTally()
    other.add((1.0, 0.0), 5)
    other.add((1.0, 1.0), 1)
    found = head_to_head(other)
    assert found is not None and found.spread and nelo_text(found) == "+110 ± 197"
