"""Upgrades of the ladder database: each step leads from its version's schema, as that
version wrote it, to exactly the next version's; an upgrade is one transaction a step,
so one stopped by an error keeps every step before it and nothing of its own; and a next
version that adds a column upgrades every older database, its rows still read and
written by name."""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path
from typing import Any

import pytest

import ladder.store as store_module
from ladder import migrations
from ladder.store import READABLE_VERSIONS, SCHEMA_VERSION, Store, StoreError, _apply
from tests.test_ladder_store import drawn_log, old_database, one_game_stored


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
