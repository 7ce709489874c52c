"""Upgrades of the ladder database: each step leads from its version's schema, as that
version wrote it, to exactly the next version's; an upgrade is one transaction a step,
so one stopped by an error keeps every step before it and nothing of its own; a next
version that adds a column upgrades every older database, its rows still read and
written by name; and the databases older arenas wrote themselves (tests/fixtures/
ladder_db) read as they are, upgrade keeping everything, and resume."""

from __future__ import annotations

import dataclasses
import json
import re
import shutil
import sqlite3
import tomllib
from pathlib import Path
from typing import Any

import pytest

import ladder.store.database as store_module
from arena.settings.manifest import BotManifest
from arena.settings.plan import PlannedGame, plan_game
from ladder.rating.standings import compute_standings, snapshot_lines
from ladder.report.audit import audit_database
from ladder.schedule.pairings import plan
from ladder.store import migrations
from ladder.store.database import READABLE_VERSIONS, SCHEMA_VERSION, GameRow, Store, StoreError, _apply
from tests.ladder.test_ladder_store import (
    drawn_log,
    fake_log,
    old_database,
    one_game_stored,
    stalled_log,
)


def user_version(path: Path) -> int:
    conn = sqlite3.connect(path)
    try:
        version: int = conn.execute("PRAGMA user_version").fetchone()[0]
        return version
    finally:
        conn.close()


def created(path: Path, version: int) -> Path:
    """A database made by `version`'s own statements, as an arena of that version made a
    new one."""
    conn = sqlite3.connect(path, isolation_level=None)
    conn.executescript(f"BEGIN; {migrations.SCHEMAS[version]}; "
                       f"PRAGMA user_version = {version}; COMMIT;")
    conn.close()
    return path


def checks(sql: str) -> list[str]:
    """The CHECK constraints of a CREATE TABLE, comments left out and spaces evened."""
    text = re.sub(r"--[^\n]*", "", sql)
    out = []
    for m in re.finditer(r"\bCHECK\s*\(", text):
        depth, i = 1, m.end()
        while depth:
            depth += {"(": 1, ")": -1}.get(text[i], 0)
            i += 1
        out.append(" ".join(text[m.end():i - 1].split()))
    return sorted(out)


def structure(path: Path) -> dict[str, Any]:
    """What a database's tables are, whatever words made them: columns (in order, with
    type, NOT NULL, default and key), CHECKs, foreign keys and indexes, table by table."""
    conn = sqlite3.connect(path)
    try:
        out: dict[str, Any] = {}
        for name, sql in conn.execute(
                "SELECT name, sql FROM sqlite_master WHERE type = 'table' ORDER BY name"):
            indexes = sorted(
                (ix[1], ix[2], ix[3],
                 tuple(c[2] for c in conn.execute(f"PRAGMA index_info('{ix[1]}')")))
                for ix in conn.execute(f"PRAGMA index_list('{name}')"))
            out[name] = {
                "columns": conn.execute(f"PRAGMA table_xinfo('{name}')").fetchall(),
                "checks": checks(sql),
                "foreign_keys": sorted(fk[2:5] for fk in
                                       conn.execute(f"PRAGMA foreign_key_list('{name}')")),
                "indexes": indexes,
            }
        return out
    finally:
        conn.close()


def test_the_versions_and_steps_form_one_chain_to_the_current_one():
    assert SCHEMA_VERSION == migrations.CURRENT == max(migrations.SCHEMAS) == 6
    assert sorted(migrations.SCHEMAS) == list(range(2, SCHEMA_VERSION + 1))
    assert {v: s.version for v, s in migrations.STEPS.items()} == {
        v: v + 1 for v in range(2, SCHEMA_VERSION)}
    for version, schema in migrations.SCHEMAS.items():  # each says which it is
        assert f"schema version {version} (PRAGMA user_version)" in schema


@pytest.mark.parametrize("version", sorted(migrations.STEPS))
def test_each_step_leads_to_exactly_the_next_versions_schema(tmp_path, version):
    """Upgrading a database created by version N's statements gives the tables version N+1
    creates: same columns in the same order, same CHECKs, keys and indexes."""
    step = migrations.STEPS[version]
    path = created(tmp_path / "old.sqlite", version)
    conn = sqlite3.connect(path, isolation_level=None)
    _apply(conn, step.script, step.version, rebuilds=step.rebuilds)
    conn.close()
    assert user_version(path) == step.version
    assert structure(path) == structure(created(tmp_path / "new.sqlite", step.version))


@pytest.mark.parametrize("version", sorted(migrations.STEPS))
def test_a_writer_upgrades_each_older_version_to_what_a_new_database_is(tmp_path, version):
    path = created(tmp_path / "old.sqlite", version)
    with Store.open(path) as reader:  # a reader takes it as it is
        assert reader.games() == []
    assert user_version(path) == version
    Store.open(path, write=True).close()
    fresh = tmp_path / "fresh.sqlite"
    Store.open(fresh, write=True).close()
    assert user_version(path) == user_version(fresh) == SCHEMA_VERSION
    assert structure(path) == structure(fresh)


def test_an_upgrade_stopped_by_an_error_keeps_each_step_before_it(tmp_path, monkeypatch):
    """Each step commits with its own user_version: a failing step (here the last, made
    to fail after its first statement) leaves the database at the version before it,
    with nothing of its own done."""
    path = created(tmp_path / "old.sqlite", 2)
    last = migrations.STEPS[5]
    monkeypatch.setitem(migrations.STEPS, 5, migrations.Step(
        6, last.why, "CREATE TABLE half_done (x); SELECT no_such_function();"))
    with pytest.raises(sqlite3.OperationalError, match="no_such_function"):
        Store.open(path, write=True)
    assert user_version(path) == 5
    assert structure(path) == structure(created(tmp_path / "v5.sqlite", 5))
    monkeypatch.undo()
    Store.open(path, write=True).close()  # the next writer finishes the upgrade
    assert user_version(path) == SCHEMA_VERSION


def test_a_rebuild_that_would_leave_a_broken_reference_is_rolled_back(tmp_path):
    """Version 6 rebuilds the games table with foreign keys off, as SQLite's procedure
    for such changes says, and checks every reference before it commits."""
    path = created(tmp_path / "v5.sqlite", 5)
    conn = sqlite3.connect(path)  # foreign keys are off in a plain connection
    cols = [r[1] for r in conn.execute("PRAGMA table_info(game_bots)")]
    row = {c: "{}" if c == "fault_kinds" else 7 if c in ("game", "bot") else 0 for c in cols}
    conn.execute(f"INSERT INTO game_bots ({', '.join(row)}) "  # of no game, no bot
                 f"VALUES ({', '.join(':' + c for c in row)})", row)
    conn.commit()
    conn.close()
    before = structure(path)
    with pytest.raises(StoreError, match="the upgrade to schema version 6 broke a reference; "
                                         "left as it was"):
        Store.open(path, write=True)
    assert user_version(path) == 5 and structure(path) == before


# --- the next version ---------------------------------------------------------------------

NOTE = "    note        TEXT    NOT NULL DEFAULT '',  -- a hypothetical version 7's column\n"


@pytest.fixture
def version_7(monkeypatch: pytest.MonkeyPatch) -> None:
    """A version 7 written as the next one will be: its whole schema (today's with a column
    added to games, in the middle of the table) and one step from version 6, ALTER TABLE
    ... ADD COLUMN, which puts the column last."""
    v7 = migrations.SCHEMAS[6].replace("schema version 6", "schema version 7").replace(
        "    seq         INTEGER NOT NULL", NOTE + "    seq         INTEGER NOT NULL", 1)
    assert v7.count(NOTE) == 1
    monkeypatch.setitem(migrations.SCHEMAS, 7, v7)
    monkeypatch.setitem(migrations.STEPS, 6, migrations.Step(
        7, "a note on each game", "ALTER TABLE games ADD COLUMN note TEXT NOT NULL DEFAULT '';"))
    monkeypatch.setattr(store_module, "SCHEMA_VERSION", 7)
    monkeypatch.setattr(store_module, "READABLE_VERSIONS", (*READABLE_VERSIONS, 7))


def games_columns(path: Path) -> list[str]:
    return [c[1] for c in structure(path)["games"]["columns"]]


@pytest.mark.usefixtures("version_7")
def test_the_next_version_can_add_a_column_and_every_older_one_follows(tmp_path):
    """Every older version climbs the whole chain to version 7 keeping its rows, and rows
    are read and written by name whichever order the columns stand in: the first column
    added to games breaks no older database's upgrade."""
    ids, games = one_game_stored(tmp_path)  # a new database: version 7
    new = tmp_path / "l.sqlite"
    assert user_version(new) == 7
    assert games_columns(new)[:3] == ["id", "game_id", "note"]
    with Store.open(new) as store:
        first = store.games()
    for version in sorted(migrations.STEPS):  # 2 to 6
        path = tmp_path / f"v{version}.sqlite"
        old_database(path, version, rows_of=new)
        with Store.open(path, write=True) as store:
            assert user_version(path) == 7
            assert store.games() == first
            run = store.start_run(planned=2, to_play=1, concurrency=1)
            row = store.record_game(games[1], drawn_log(games[1]), ids, run)
            assert row is not None and store.games() == [*first, row]
            assert store.conn.execute("SELECT DISTINCT note FROM games").fetchall() == [("",)]
        assert games_columns(path)[-1] == "note"


# --- databases written by the old arenas themselves ---------------------------------------

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "ladder_db"
"""vN.sqlite written by the arena of schema version N, vN.json what that arena's own store
and standings said of it (made by make_fixtures.py there; its README says how)."""
OLD = sorted(int(p.stem[1:]) for p in FIXTURES.glob("v*.sqlite"))


def told(version: int) -> dict[str, Any]:
    """What the arena that wrote vN.sqlite said it holds."""
    said: dict[str, Any] = json.loads((FIXTURES / f"v{version}.json").read_text())
    return said


def fixture(tmp_path: Path, version: int) -> Path:
    path = tmp_path / f"v{version}.sqlite"
    shutil.copy(FIXTURES / path.name, path)
    return path


def as_told(row: GameRow) -> dict[str, Any]:
    out = dataclasses.asdict(row)
    out["seats"] = list(out["seats"])
    return out


def holds_what_it_was_told(store: Store, said: dict[str, Any]) -> None:
    """The store reads what the old arena stored: the ladder, bots, runs, every game row
    and record, the standings' counts and running Elo, and any decided SPRT."""
    assert store.ladder_name() == said["ladder"]
    assert store.settings() == said["settings"]
    assert store.deal_key().hex() == said["deal_key"]
    assert [dataclasses.asdict(b) for b in store.bots()] == said["bots"]
    assert [list(r) for r in store.runs()] == said["runs"]
    rows = store.games()
    assert [as_told(r) for r in rows] == said["games"]
    assert list(store.iter_games()) == rows
    assert {r.game_id: store.record(r.game_id).end.value for r in rows} == said["records"]
    lines = {line.name: line for line in compute_standings(rows).lines}
    assert sorted(lines) == sorted(line["name"] for line in said["standings"])
    for old in said["standings"]:
        now = lines[old["name"]]
        for key, value in old.items():
            assert getattr(now, key) == (pytest.approx(value) if key == "elo" else value), \
                (old["name"], key)
    for label, decision in said.get("sprt", {}).items():
        assert store.sprt_decision(label) == decision, label
    assert audit_database(store) == []  # every stored column agrees with its record


def test_each_readable_version_has_a_database_its_own_arena_wrote():
    assert list(READABLE_VERSIONS) == OLD
    for version in OLD:
        said = told(version)
        assert said["user_version"] == user_version(FIXTURES / f"v{version}.sqlite") == version
        assert said["games"], version


@pytest.mark.parametrize("version", OLD)
def test_each_versions_statements_are_the_ones_its_arena_ran(version, tmp_path):
    """The schema kept for version N makes, word for word, the tables that version's
    arena made: what ladder.store.migrations keeps is what was released."""
    def master(path: Path) -> set[tuple[str, str, str, str | None]]:
        conn = sqlite3.connect(path)
        try:
            return set(conn.execute("SELECT type, name, tbl_name, sql FROM sqlite_master"))
        finally:
            conn.close()

    assert master(FIXTURES / f"v{version}.sqlite") == master(
        created(tmp_path / "made.sqlite", version))


@pytest.mark.parametrize("version", OLD)
def test_an_old_database_is_read_as_it_is(tmp_path, version):
    path = fixture(tmp_path, version)
    before = path.read_bytes()
    with Store.open(path) as reader:
        holds_what_it_was_told(reader, told(version))
    assert path.read_bytes() == before  # a reader writes nothing, not even an upgrade
    assert sorted(p.name for p in tmp_path.iterdir()) == [path.name]


@pytest.mark.parametrize("version", OLD)
def test_a_writer_upgrades_an_old_database_keeping_everything(tmp_path, version):
    path = fixture(tmp_path, version)
    with Store.open(path, write=True) as writer:
        assert user_version(path) == SCHEMA_VERSION
        holds_what_it_was_told(writer, told(version))
    fresh = tmp_path / "fresh.sqlite"
    Store.open(fresh, write=True).close()
    assert structure(path) == structure(fresh)
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
    assert conn.execute("PRAGMA foreign_key_check").fetchall() == []
    conn.close()
    with Store.open(path) as reader:  # and reads the same again
        holds_what_it_was_told(reader, told(version))


def ladder_names(said: dict[str, Any]) -> list[str]:
    """The bots' names, in the order of the fixture's ladder file."""
    entries = tomllib.loads(said["ladder_file"])["bots"]
    return [e["name"] if isinstance(e, dict) else e.rsplit("/", 1)[-1] for e in entries]


@pytest.mark.parametrize("version", OLD)
def test_a_run_resumed_over_an_upgraded_database_plays_only_what_is_missing(tmp_path, version):
    """As `ladder run` resumes, by the same calls on the store (ladder.run.play; the games'
    records made here, not played): the stored settings and bots are accepted, today's
    plan holds every stored game with the deal it was played with, and only the games it
    adds are stored; a draw and a stalled game fit the upgraded table, a run and its
    ratings are stored, and a decided SPRT stays as it was decided."""
    said = told(version)
    ladder = tomllib.loads(said["ladder_file"])
    names = ladder_names(said)
    latest = {b["name"]: b for b in said["bots"]}  # in order of id: the newest last
    path = fixture(tmp_path, version)
    with Store.open(path, write=True) as store:
        key = store.bind_settings(said["ladder"], said["settings"])
        assert key.hex() == said["deal_key"]
        versions = store.register_bots([
            BotManifest(name=n, version="1", command=("true",), cwd=Path("."),
                        digest=latest[n]["digest"]) for n in names])
        assert len(store.bots()) == len(said["bots"])  # none of them is new
        labels = [versions[n].label for n in names]
        challenger = versions[ladder["challenger"]].label if "challenger" in ladder else None
        stored = {r.game_id: r for r in store.games()}
        per_pairing = 1 + max(r.number for r in stored.values()
                              if r.bot_a in labels and r.bot_b in labels)

        def planned(games: int) -> list[PlannedGame]:
            return plan(labels, fmt=ladder["format"], games_per_pairing=games, key=key,
                        duplicate=ladder["duplicate"], challenger=challenger)

        for game in planned(per_pairing):  # nothing to replay, and nothing dealt anew
            row = stored[game.game_id]
            assert (row.bot_a, row.bot_b, row.number, row.deal, row.seed, row.first_dealer,
                    row.a_team, row.seats) == (game.bot_a, game.bot_b, game.number, game.deal,
                                               game.seed, game.first_dealer, game.a_team,
                                               game.seats), game.game_id
        more = planned(per_pairing + 2)
        todo = [g for g in more if g.game_id not in stored]
        assert len(todo) == len(more) - len(planned(per_pairing))
        ids = store.bot_ids()
        run = store.start_run(planned=len(more), to_play=len(todo), concurrency=1)
        assert run == len(said["runs"]) + 1
        for i, game in enumerate(todo):  # a draw and a stalled game first
            log = (drawn_log(game) if i == 0 else stalled_log(game) if i == 1
                   else fake_log(game, a_wins=i % 2 == 0))
            assert store.record_game(game, log, ids, run) is not None
        st = compute_standings(store.games())
        store.save_ratings(run, snapshot_lines(st))
        store.finish_run(run, "complete")
        store.save_sprt(labels[0], {"elo0": 0}, result="H0", llr=-3.0, lower=-2.9, upper=2.9,
                        units=2, games=4, run=run)
    with Store.open(path) as reader:
        rows = reader.games()
        assert len(rows) == len(stored) + len(todo)
        assert [as_told(r) for r in rows if r.game_id in stored] == said["games"]
        assert {g.game_id for g in more} <= {r.game_id for r in rows}
        new = {r.game_id: r for r in rows if r.game_id not in stored}
        assert (new[todo[0].game_id].winning_team, new[todo[0].game_id].score_a) == (None, 0.5)
        assert new[todo[1].game_id].outcome == "stalled"
        assert reader.runs()[-1][3] == "complete"
        assert sum(ln.games for ln in compute_standings(rows).lines) == 2 * len(rows)
        for label, decision in said.get("sprt", {}).items():  # decided tests stay decided
            if label != labels[0]:
                assert reader.sprt_decision(label) == decision, label
        decided = said.get("sprt", {}).get(labels[0])
        mine = reader.sprt_decision(labels[0])
        if decided:  # a decision stored before stays
            assert mine == decided
        else:
            assert mine is not None and mine["result"] == "H0"


@pytest.mark.usefixtures("version_7")
def test_the_next_version_upgrades_every_database_an_older_arena_wrote(tmp_path):
    """The hypothetical version 7 above, over the real old databases: each climbs every
    step to it and reads as its arena said, and a game stored after is read back by name."""
    for version in OLD:
        path = fixture(tmp_path, version)
        said = told(version)
        with Store.open(path, write=True) as store:
            assert user_version(path) == 7
            holds_what_it_was_told(store, said)
            names = ladder_names(said)
            latest = {b["name"]: b for b in said["bots"]}
            versions = store.register_bots([
                BotManifest(name=n, version="1", command=("true",), cwd=Path("."),
                            digest=latest[n]["digest"]) for n in names[:2]])
            a, b = sorted(versions[n].label for n in names[:2])
            game = plan_game(a, b, 100, key=store.deal_key(), duplicate=True, seq=1000)
            run = store.start_run(planned=1, to_play=1, concurrency=1)
            row = store.record_game(game, fake_log(game, a_wins=True), store.bot_ids(), run)
            assert row is not None and store.games()[-1] == row
            assert [as_told(r) for r in store.games()[:-1]] == said["games"]
        assert games_columns(path)[-1] == "note"


@pytest.mark.parametrize("version", OLD)
def test_todays_reading_of_the_old_ladder_file_resumes_it(tmp_path, version):
    """The ladder file each old database was made from, read by today's arena, gives
    settings the database accepts: options added since it was written (absent from its
    stored settings) were played at their defaults, so they are no change."""
    from ladder.config.ladder_file import parse_ladder

    said = told(version)
    text = said["ladder_file"]
    for name in re.findall(r'"(bots/[^"]+)"', text):  # stand-ins: only the settings count
        folder = tmp_path / name
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "bot.toml").write_text(f'name = "{folder.name}"\nversion = "1"\ncommand = ["true"]\n')
    cfg = parse_ladder(text, tmp_path / "ladder.toml")
    stored_rules = set(said["settings"]["rules"])
    assert version >= 4 or set(cfg.settings()["rules"]) - stored_rules  # keys were added
    with Store.open(fixture(tmp_path, version), write=True) as store:
        key = store.bind_settings(said["ladder"], json.loads(json.dumps(cfg.settings())))
    assert key.hex() == said["deal_key"]


def test_a_rule_option_set_away_from_its_default_is_still_a_change(tmp_path):
    said = told(OLD[0])
    settings = json.loads(json.dumps(said["settings"]))
    settings["rules"]["railroading"] = True  # absent from the stored settings: was off
    with Store.open(fixture(tmp_path, OLD[0]), write=True) as store, \
            pytest.raises(StoreError, match="railroading was false, now true"):
        store.bind_settings(said["ladder"], settings)


def test_a_six_seat_ladder_begun_before_the_presets_changed_is_told_how_to_finish(tmp_path):
    from arena.core.rules import PRESETS

    before = PRESETS["six-player"].with_options(dealer_partner_must_go_alone=False).to_options()
    now = PRESETS["six-player"].to_options()
    path = tmp_path / "six.sqlite"
    with Store.open(path, write=True) as store:
        store.bind_settings("six", {"rules": before})
        # Settings are compared only once games were played under them: as if one was.
        store.game_count = lambda: 1  # type: ignore[method-assign]
        with pytest.raises(StoreError, match="dealer_partner_must_go_alone = false under"):
            store.bind_settings("six", {"rules": now})
