"""The ladder database: SQLite in WAL mode, one transaction per finished game.

Why it survives anything: a game is stored in one transaction together with its record,
so after a crash, a kill -9 or a power cut a game is either wholly there or not at all;
UNIQUE(game_id) makes storing one twice impossible; and resuming plays exactly the planned
games that are not there (see ladder.schedule.pairings). synchronous=FULL makes a commit durable
before the next game is reported done. Only one `ladder run` may write a database at a time
(an flock on the file, which the kernel releases when the process dies, however it dies);
readers (`ladder standings` while a ladder runs) never wait, thanks to WAL.

Bots are versioned: each (name, digest of its manifest and files) gets a version number,
and a version other than the first is rated as "name@vN". Stored games are never
re-attributed, so changing a bot cannot silently mix its old games with the new.

A database an older arena wrote is read as it is (READABLE_VERSIONS), and upgraded by a
writer when it opens it: one step at a time, each in its own transaction with its
user_version, so a stopped upgrade leaves a database at some version's schema, never
between two. The steps are the ones written for each version (ladder.store.migrations), never
worked out from the current schema. Rows are read and written by column name, never by
their place in the table, so a column a later version adds, wherever it stands in a new
database or last in an upgraded one, changes no query.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import socket
import sqlite3
import time
from collections.abc import Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, fields, replace
from pathlib import Path
from typing import Any

from arena import __version__
from arena.core.rules import RuleSet
from arena.records import files as records
from arena.records.gamelog import GameLog, SeatBot
from arena.records.stats import BotStats, collect_stats
from arena.settings.deals import key_from_seed, new_key
from arena.settings.errors import BadInput, Kind, MachineError, kind_of
from arena.settings.manifest import BotManifest, changed_files
from arena.settings.plan import PlannedGame
from ladder.store import migrations

SCHEMA_VERSION = migrations.CURRENT
"""The version this arena creates and upgrades to. ladder.store.migrations holds every version's
schema, the current one documented column by column, and the steps between them."""
READABLE_VERSIONS = (2, 3, 4, 5, 6)
"""Older versions hold no draw, no decided test, no list of a bot's files and no stalled
game: readers take them as they are, and a writer upgrades one when it opens it."""

# Columns of game_bots filled from arena.records.stats.BotStats (same names, except alone_calls).
_STAT_COLUMNS = (
    "won", "points", "hands", "calls", "makes", "marches", "euchred", "euchres", "alone",
    "alone_calls", "alone_marches", "faults", "decisions", "think_us_total", "think_us_max",
)
_STAT_FIELDS = {"won": "wins", "alone_calls": "alone_makers"}
_RUN_COLUMNS = ("id", "started_ms", "finished_ms", "status", "planned", "to_play", "played",
                "concurrency")


class StoreError(BadInput):
    """The database cannot be used as asked (locked by another run, other settings, a bot
    changed, not a ladder database...); the message says what to do."""


class StoreDiskError(MachineError):
    """The disk failed the database (full, read-only, an I/O error): the file may be fine,
    the machine is not."""


def unreadable(path: Path, e: sqlite3.Error) -> StoreError | StoreDiskError:
    """The error for a database SQLite could not read: the disk's, or the file's."""
    message = f"{path}: cannot read the ladder database: {e}"
    return StoreDiskError(message) if kind_of(e) is Kind.MACHINE else StoreError(message)


@dataclass(frozen=True, slots=True)
class BotVersion:
    id: int
    name: str
    version: int
    label: str
    digest: str


@dataclass(frozen=True, slots=True)
class GameRow:
    """A stored game without its record: what standings and listings need. Each field is
    the games column of its name (bot_a and bot_b as the bots' labels), read by that name:
    a column added to the table, or the table rebuilt in another order, changes nothing."""

    id: int
    game_id: str
    seq: int
    bot_a: str
    bot_b: str
    number: int
    deal: int
    seed: int
    first_dealer: int
    a_team: int
    seats: tuple[str, ...]
    outcome: str
    winning_team: int | None
    """None for a draw."""
    score_a: float
    points_a: int
    points_b: int
    hands: int
    faults: int
    faults_a: int
    faults_b: int
    fault_kinds: str
    started_ms: int
    finished_ms: int
    run: int
    sandboxed: bool = True
    """Every seat was sealed; False: a bot could have seen hidden cards."""


_GAME_FIELDS = tuple(f.name for f in fields(GameRow))
_GAME_ROW_SQL = (
    "SELECT "
    + ", ".join({"bot_a": "a.label", "bot_b": "b.label"}.get(f, f"g.{f}") + f" AS {f}"
                for f in _GAME_FIELDS)
    + " FROM games g JOIN bots a ON a.id = g.bot_a JOIN bots b ON b.id = g.bot_b"
)


def _game_row(row: Mapping[str, Any] | sqlite3.Row) -> GameRow:
    values = {f: row[f] for f in _GAME_FIELDS}
    values["seats"] = tuple(values["seats"].split(","))
    values["sandboxed"] = bool(values["sandboxed"])
    return GameRow(**values)


def _bot_version(row: Mapping[str, Any] | sqlite3.Row) -> BotVersion:
    return BotVersion(id=row["id"], name=row["name"], version=row["version"],
                      label=row["label"], digest=row["digest"])


def _insert(table: str, row: Mapping[str, Any]) -> str:
    """INSERT INTO table (each column of `row`) VALUES (:each, :column): every value goes
    to its column by name, never by its place in a list."""
    return f"INSERT INTO {table} ({', '.join(row)}) VALUES ({', '.join(':' + c for c in row)})"


def _now_ms() -> int:
    return int(time.time() * 1000)


def version_label(name: str, version: int) -> str:
    return name if version == 1 else f"{name}@v{version}"


class Store:
    """One open ladder database. Use as a context manager; used by one thread at a time."""

    def __init__(self, conn: sqlite3.Connection, path: Path, lock_fd: int | None) -> None:
        self.conn = conn
        self.path = path
        self._lock_fd = lock_fd

    # --- opening ------------------------------------------------------------------------

    @classmethod
    def open(cls, path: Path, *, write: bool = False, fresh: bool = False) -> Store:
        """Opens (writing: creates) the database. A writer holds an exclusive lock for as
        long as it is open; `fresh` deletes an existing database first, under that lock."""
        path = Path(path)
        if not write:
            if not path.is_file():
                raise StoreError(f"{path}: no ladder database there (run the ladder first)")
            # Read-only, and no journal-mode pragma (a write): readers never change the file.
            conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True, isolation_level=None,
                                   timeout=30.0)
            try:
                _check_schema(conn, path)
            except sqlite3.Error as e:
                conn.close()
                raise unreadable(path, e) from None
            return cls(conn, path, None)
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = _lock(path)
        if fresh and path.stat().st_size > 0:
            # Lock the new file before letting go of the old one, so no other writer can
            # slip in between.
            for suffix in ("-wal", "-shm"):
                with contextlib.suppress(FileNotFoundError):
                    os.unlink(f"{path}{suffix}")
            os.unlink(path)
            new_fd = _lock(path)
            os.close(fd)
            fd = new_fd
        try:
            conn = _connect(path)
            _create_or_upgrade(conn)
            _check_schema(conn, path, (SCHEMA_VERSION,))
        except BaseException:
            os.close(fd)
            raise
        return cls(conn, path, fd)

    def close(self) -> None:
        self.conn.close()
        if self._lock_fd is not None:
            os.close(self._lock_fd)
            self._lock_fd = None

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- the ladder and its bots --------------------------------------------------------

    def _rows(self, sql: str, args: Sequence[Any] | Mapping[str, Any] = ()) -> sqlite3.Cursor:
        """The rows of a query, each read by column name (sqlite3.Row). The connection's
        own rows stay plain tuples for whoever uses it directly."""
        cur = self.conn.cursor()
        cur.row_factory = sqlite3.Row
        return cur.execute(sql, args)

    def ladder_name(self) -> str | None:
        row = self._rows("SELECT name FROM ladder").fetchone()
        return row["name"] if row else None

    def settings(self) -> dict[str, Any] | None:
        row = self._rows("SELECT settings FROM ladder").fetchone()
        return json.loads(row["settings"]) if row else None

    def deal_key(self) -> bytes:
        """The ladder's secret deal key (set by bind_settings)."""
        row = self._rows("SELECT deal_key FROM ladder").fetchone()
        if row is None:
            raise StoreError(f"{self.path}: the ladder has not been set up (no deal key)")
        return bytes(row["deal_key"])

    def bind_settings(self, name: str, settings: Mapping[str, Any]) -> bytes:
        """Records the settings of a new database, or refuses settings that differ from
        those its games were played under. Returns the deal key: kept from an earlier run,
        else drawn at random, or derived from the settings' seed when they give one."""
        stored = self.settings()
        if stored is not None and self.game_count() > 0:
            diffs = _differences(stored, json.loads(json.dumps(settings)))
            if diffs:
                raise StoreError(
                    f"{self.path}: its {self.game_count()} games were played under other "
                    f"settings ({'; '.join(diffs)}). Mixing them would rate different "
                    "contests as one: put the old values back, give this ladder another "
                    "database (database = ... or --db), or start over with --fresh"
                    + _preset_note(stored, diffs)
                )
        seed = settings.get("seed")
        key = new_key() if seed is None else key_from_seed(seed)
        with self._transaction():
            # A stored key stays unless the database holds no game yet: then the settings
            # (a new seed) decide, as they would for a new database.
            row = {"id": 1, "name": name, "settings": json.dumps(settings, sort_keys=True),
                   "created_ms": _now_ms(), "deal_key": key}
            self.conn.execute(
                _insert("ladder", row) + " ON CONFLICT (id) DO UPDATE SET "
                "name = excluded.name, settings = excluded.settings, deal_key = CASE "
                "WHEN (SELECT count(*) FROM games) = 0 THEN excluded.deal_key "
                "ELSE ladder.deal_key END",
                row,
            )
        return self.deal_key()

    def register_bots(self, manifests: Sequence[BotManifest], *, new_versions: bool = False
                      ) -> dict[str, BotVersion]:
        """The stored version of each bot (by its ladder name), adding versions as needed.

        A bot seen for the first time is version 1. A bot whose digest is not among its
        stored versions has changed since its games were played: without `new_versions`
        this raises, naming the bots; with it, the bot becomes version N+1, rated apart as
        "name@vN+1" while its old games keep their own rating. A digest seen before (a
        change undone) reuses its old version.
        """
        found: dict[str, BotVersion] = {}
        changed: list[str] = []
        for m in manifests:
            rows = [_bot_version(r) for r in self._rows(
                "SELECT id, name, version, label, digest FROM bots WHERE name = ? "
                "ORDER BY version", (m.name,),
            )]
            match = next((r for r in rows if r.digest == m.digest), None)
            if match is not None:
                found[m.name] = match
            elif rows and not new_versions:
                last = rows[-1]
                what = self._what_changed(last.id, m)
                changed.append(f"{m.name} (stored as {last.label}, digest {last.digest}; "
                               f"now {m.digest}{'; ' + what if what else ''})")
        if changed:
            raise StoreError(
                f"{self.path}: bot(s) changed since their games were played: "
                f"{', '.join(changed)}. Run with --new-version to rate the new code as a new "
                "version (name@v2) beside the old games, or use another database"
            )
        with self._transaction():
            for m in manifests:
                if m.name in found:
                    continue
                version = self._rows(
                    "SELECT coalesce(max(version), 0) AS latest FROM bots WHERE name = ?",
                    (m.name,),
                ).fetchone()["latest"] + 1
                row = {
                    "name": m.name, "version": version, "label": version_label(m.name, version),
                    "digest": m.digest, "manifest_version": m.version,
                    "source": str(m.source) if m.source is not None else (m.address or ""),
                    "added_ms": _now_ms(), "files": json.dumps(m.file_digests, sort_keys=True),
                }
                cur = self.conn.execute(_insert("bots", row), row)
                found[m.name] = _bot_version({**row, "id": cur.lastrowid or 0})
        return found

    def _what_changed(self, bot_id: int, now: BotManifest) -> str:
        """The files that differ from a stored version's, in a few words ("" for a bot
        known by its address, which has none)."""
        stored = self._rows("SELECT files FROM bots WHERE id = ?", (bot_id,)).fetchone()["files"]
        if stored is None:
            return "its files were not listed when it was stored"
        before = json.loads(stored)
        return changed_files(before, now.file_digests) if before or now.file_digests else ""

    def bot_ids(self) -> dict[str, int]:
        return {r["label"]: r["id"] for r in self._rows("SELECT label, id FROM bots")}

    def bots(self) -> list[BotVersion]:
        return [_bot_version(r) for r in self._rows(
            "SELECT id, name, version, label, digest FROM bots ORDER BY id")]

    # --- runs ---------------------------------------------------------------------------

    def start_run(self, *, planned: int, to_play: int, concurrency: int) -> int:
        with self._transaction():
            # Only the lock holder writes, so a run still marked 'running' died silently.
            self.conn.execute(
                "UPDATE runs SET status = 'killed', played = "
                "(SELECT count(*) FROM games WHERE games.run = runs.id) "
                "WHERE status = 'running'"
            )
            row = {"started_ms": _now_ms(), "status": "running", "planned": planned,
                   "to_play": to_play, "concurrency": concurrency,
                   "arena_version": __version__, "host": socket.gethostname(),
                   "pid": os.getpid()}
            cur = self.conn.execute(_insert("runs", row), row)
        return cur.lastrowid or 0

    def finish_run(self, run: int, status: str) -> None:
        with self._transaction():
            self.conn.execute(
                "UPDATE runs SET status = :status, finished_ms = :finished_ms, played = "
                "(SELECT count(*) FROM games WHERE games.run = runs.id) WHERE id = :run",
                {"status": status, "finished_ms": _now_ms(), "run": run},
            )

    # --- games --------------------------------------------------------------------------

    def finished_ids(self) -> set[str]:
        return {r["game_id"] for r in self._rows("SELECT game_id FROM games")}

    def game_count(self) -> int:
        count: int = self._rows("SELECT count(*) AS games FROM games").fetchone()["games"]
        return count

    def record_game(self, game: PlannedGame, log: GameLog, bot_ids: Mapping[str, int],
                    run: int) -> GameRow | None:
        """Stores a finished game, its record and its per-bot figures in one transaction.
        Returns its row, or None when the game was already stored (it is then left as it
        was: the first result stands)."""
        end, winning_team = log.end, log.winning_team  # (log is replaced below, these are not)
        if log.game_id != game.game_id or end is None or (winning_team is None and not log.drawn):
            raise ValueError(f"not a finished record of {game.game_id}: {log.game_id}, {log.end}")
        score_a = log.points_of_team(game.a_team)
        a_team = game.a_team
        seat_labels = game.seats
        if any(sb.name != seat_labels[sb.seat] for sb in log.seats):
            raise ValueError(f"{game.game_id}: seats {log.seats}, planned {seat_labels}")
        if len(log.seats) < len(seat_labels):
            # A record from elsewhere may list only some seats (the runner names them all);
            # the plan says who held the others, and a stored record must name them all.
            have = {sb.seat: sb for sb in log.seats}
            log = replace(log, seats=tuple(
                have.get(seat) or SeatBot(seat, seat_labels[seat], "")
                for seat in range(len(seat_labels))
            ))
        blob = records.encode(log)
        kinds = ",".join(sorted({f.kind.value for f in log.faults}))
        faults_a = sum(1 for f in log.faults if f.seat % 2 == a_team)
        stats = collect_stats([log])
        row = {
            "game_id": game.game_id, "seq": game.seq,
            "bot_a": bot_ids[game.bot_a], "bot_b": bot_ids[game.bot_b],
            "number": game.number, "deal": game.deal, "seed": game.seed,
            "first_dealer": game.first_dealer, "a_team": a_team, "seats": ",".join(seat_labels),
            "outcome": end.value, "winning_team": winning_team, "score_a": score_a,
            "points_a": log.final_scores[a_team], "points_b": log.final_scores[1 - a_team],
            "hands": len(log.hands), "faults": len(log.faults), "faults_a": faults_a,
            "faults_b": len(log.faults) - faults_a, "fault_kinds": kinds,
            "started_ms": log.started_ms, "finished_ms": log.finished_ms, "run": run,
            "sandboxed": int(log.sandboxed), "record": blob,
        }
        with self._transaction():
            cur = self.conn.execute(
                _insert("games", row) + " ON CONFLICT (game_id) DO NOTHING", row)
            if cur.rowcount == 0:
                return None
            row_id = cur.lastrowid or 0
            for label, team in ((game.bot_a, a_team), (game.bot_b, 1 - a_team)):
                s = stats.get(label) or BotStats(label)
                figures = {
                    "game": row_id, "bot": bot_ids[label], "team": team,
                    **{c: getattr(s, _STAT_FIELDS.get(c, c)) for c in _STAT_COLUMNS},
                    "fault_kinds": json.dumps(s.fault_kinds, sort_keys=True),
                }
                self.conn.execute(_insert("game_bots", figures), figures)
        return _game_row({**row, "id": row_id, "bot_a": game.bot_a, "bot_b": game.bot_b})

    def games(self, *, bot: str | None = None, faults_only: bool = False,
              limit: int | None = None) -> list[GameRow]:
        """Stored games in schedule order, optionally those of one bot (a label, or a
        name meaning all its versions) or those with faults."""
        sql = _GAME_ROW_SQL
        where: list[str] = []
        args: list[Any] = []
        if bot is not None:
            where.append("(a.label = ? OR b.label = ? OR a.name = ? OR b.name = ?)")
            args += [bot] * 4
        if faults_only:
            where.append("g.faults > 0")
        if where:
            sql += " WHERE " + " AND ".join(where)
        sql += " ORDER BY g.seq, g.game_id"
        if limit is not None:
            sql += " LIMIT ?"
            args.append(limit)
        return [_game_row(r) for r in self._rows(sql, args)]

    def iter_games(self) -> Iterator[GameRow]:
        """Every stored game in schedule order, one row at a time: a large ladder is never
        all in memory. Nothing may be written on this store until it is exhausted."""
        for r in self._rows(_GAME_ROW_SQL + " ORDER BY g.seq, g.game_id"):
            yield _game_row(r)

    def record(self, game_id: str) -> GameLog:
        row = self._rows("SELECT record FROM games WHERE game_id = ?", (game_id,)).fetchone()
        if row is None:
            raise StoreError(f"{self.path}: no game {game_id!r}")
        return _decode(row["record"])

    def bot_stats(self, game_ids: Collection[str] | None = None) -> dict[str, BotStats]:
        """Per-bot figures summed over every stored game (by label), or over the given
        games only (e.g. those that pass ladder.report.audit)."""
        wanted = None if game_ids is None else set(game_ids)
        out: dict[str, BotStats] = {}
        cols = ", ".join(f"gb.{c} AS {c}" for c in _STAT_COLUMNS)
        for row in self._rows(
            f"SELECT g.game_id AS game_id, b.label AS label, {cols}, "
            "gb.fault_kinds AS fault_kinds FROM game_bots gb "
            "JOIN bots b ON b.id = gb.bot JOIN games g ON g.id = gb.game ORDER BY gb.game"
        ):
            if wanted is not None and row["game_id"] not in wanted:
                continue
            label = row["label"]
            s = out.get(label)
            if s is None:
                s = out[label] = BotStats(label)
            one = BotStats(label, games=1, fault_kinds=json.loads(row["fault_kinds"]))
            for c in _STAT_COLUMNS:
                setattr(one, _STAT_FIELDS.get(c, c), row[c])
            s.add(one)
        return out

    # --- rating history -----------------------------------------------------------------

    def save_ratings(self, run: int, lines: Iterable[tuple[str, float, float | None,
                                                            float | None, float | None]],
                     games: int | None = None) -> None:
        """One snapshot: (label, elo, rating, low, high) per bot, taken over `games` stored
        games (default: counted, which reads the whole games table)."""
        ids = self.bot_ids()
        if games is None:
            games = self.game_count()
        now = _now_ms()
        with self._transaction():
            rows = [{"run": run, "taken_ms": now, "games": games, "bot": ids[label], "elo": elo,
                     "rating": rating, "low": low, "high": high}
                    for label, elo, rating, low, high in lines]
            if rows:
                self.conn.executemany(_insert("rating_history", rows[0]), rows)

    def rating_history(self, bot: str | None = None) -> list[tuple[int, int, str, float,
                                                                   float | None]]:
        """(taken_ms, games, label, elo, rating) rows, oldest first."""
        sql = ("SELECT h.taken_ms AS taken_ms, h.games AS games, b.label AS label, h.elo AS elo, "
               "h.rating AS rating FROM rating_history h JOIN bots b ON b.id = h.bot")
        args: tuple[Any, ...] = ()
        if bot is not None:
            sql += " WHERE b.label = ? OR b.name = ?"
            args = (bot, bot)
        return [(r["taken_ms"], r["games"], r["label"], r["elo"], r["rating"])
                for r in self._rows(sql + " ORDER BY h.id", args)]

    # --- a gauntlet's SPRT ----------------------------------------------------------------

    def save_sprt(self, challenger: str, settings: Mapping[str, Any], *, result: str,
                  llr: float, lower: float, upper: float, units: int, games: int,
                  run: int) -> None:
        """Freezes a decided test; a decision already stored for the challenger stays."""
        with self._transaction():
            row = {"challenger": challenger, "settings": json.dumps(dict(settings), sort_keys=True),
                   "result": result, "llr": llr, "lower": lower, "upper": upper,
                   "units": units, "games": games, "decided_ms": _now_ms(), "run": run}
            self.conn.execute(_insert("sprt", row) + " ON CONFLICT (challenger) DO NOTHING", row)

    def sprt_decision(self, challenger: str) -> dict[str, Any] | None:
        """The stored decision of the challenger's test: settings, result, llr, lower,
        upper, units, games, decided_ms, run; None while it runs (or in a version 2 or 3
        database, which has no such table)."""
        if _user_version(self.conn) < 4:
            return None
        row = self._rows(
            "SELECT settings, result, llr, lower, upper, units, games, decided_ms, run "
            "FROM sprt WHERE challenger = ?", (challenger,)).fetchone()
        if row is None:
            return None
        out = {k: row[k] for k in row.keys()}  # noqa: SIM118 - a Row is not a mapping
        out["settings"] = json.loads(out["settings"])
        return out

    def runs(self) -> list[tuple[Any, ...]]:
        """(id, started_ms, finished_ms, status, planned, to_play, played, concurrency) of
        each run, oldest first."""
        return [tuple(r[c] for c in _RUN_COLUMNS)
                for r in self._rows(f"SELECT {', '.join(_RUN_COLUMNS)} FROM runs ORDER BY id")]

    @contextlib.contextmanager
    def _transaction(self) -> Iterator[None]:
        self.conn.execute("BEGIN IMMEDIATE")
        try:
            yield
        except BaseException:
            self.conn.execute("ROLLBACK")
            raise
        self.conn.execute("COMMIT")


def _decode(blob: bytes, where: str = "record") -> GameLog:
    return records.decode(blob, where)


def get_replay(path: Path, game_id: str) -> bytes | None:
    """One game's record (a serialized euchre.v1.GameRecord), or None: for `ladder replay`."""
    with Store.open(path) as store:
        try:
            row = store._rows("SELECT record FROM games WHERE game_id = ?", (game_id,)).fetchone()
        except sqlite3.Error as e:
            raise unreadable(path, e) from None
    return None if row is None else bytes(row["record"])


def iter_replays(path: Path) -> Iterator[tuple[str, bytes]]:
    """(game id, serialized record) of every stored game in schedule order: for `arena
    verify`. Reads one row at a time, so a large ladder is never all in memory."""
    with Store.open(path) as store:
        try:
            for row in store._rows("SELECT game_id, record FROM games ORDER BY seq, game_id"):
                yield row["game_id"], row["record"]
        except sqlite3.Error as e:
            raise unreadable(path, e) from None


is_database = records.is_database


def _connect(path: Path) -> sqlite3.Connection:
    # One thread at a time, but not always the same one: `ladder run` hands its store to a
    # writer thread while games are played, so that commits never block the game loop.
    conn = sqlite3.connect(path, isolation_level=None, timeout=30.0, check_same_thread=False)
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("PRAGMA synchronous = FULL")
    conn.execute("PRAGMA foreign_keys = ON")
    return conn


def _user_version(conn: sqlite3.Connection) -> int:
    cur = conn.cursor()
    cur.row_factory = sqlite3.Row
    version: int = cur.execute("PRAGMA user_version").fetchone()["user_version"]
    return version


def _create_or_upgrade(conn: sqlite3.Connection) -> None:
    """A new database gets the current version's schema; an older one each step from its
    version on (ladder.store.migrations), in one transaction a step. Any other version is left
    as it is, for _check_schema to refuse."""
    version = _user_version(conn)
    if version == 0:
        _apply(conn, migrations.SCHEMAS[SCHEMA_VERSION], SCHEMA_VERSION)
    while version in migrations.STEPS:
        step = migrations.STEPS[version]
        _apply(conn, step.script, step.version, rebuilds=step.rebuilds)
        version = step.version


def _apply(conn: sqlite3.Connection, script: str, version: int, *, rebuilds: bool = False
           ) -> None:
    """Runs `script` and sets user_version to `version` in one transaction, so an
    interrupted upgrade leaves the version before it as it was. A script that makes a
    table anew runs as SQLite's documentation says (foreign keys off, copy, swap, check):
    a broken reference rolls it back."""
    if rebuilds:
        conn.execute("PRAGMA foreign_keys = OFF")  # a no-op inside a transaction
    try:
        # The script opens the transaction itself: executescript commits any pending one
        # before it starts.
        conn.executescript(f"BEGIN IMMEDIATE; {script}; PRAGMA user_version = {version};")
        if rebuilds and conn.execute("PRAGMA foreign_key_check").fetchall():
            raise StoreError(f"the upgrade to schema version {version} broke a reference; "
                             "left as it was")
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
    finally:
        if rebuilds:
            conn.execute("PRAGMA foreign_keys = ON")


def _check_schema(conn: sqlite3.Connection, path: Path,
                  versions: tuple[int, ...] | None = None) -> None:
    version = _user_version(conn)
    if version not in (READABLE_VERSIONS if versions is None else versions):
        conn.close()
        raise StoreError(
            f"{path}: ladder database schema version {version}; this arena reads version "
            f"{SCHEMA_VERSION}" if version else f"{path}: not a ladder database"
        )


def _lock(path: Path) -> int:
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        raise StoreError(
            f"{path}: another `ladder run` is writing this database; wait for it to finish "
            "or stop it (its finished games are kept)"
        ) from None
    return fd


def _preset_note(stored: Mapping[str, Any], diffs: Sequence[str]) -> str:
    """Why a six-seat ladder's unchanged file may now differ: its preset changed."""
    if ("rules.dealer_partner_must_go_alone was false, now true" in diffs
            and stored.get("rules", {}).get("seats") == 6):
        return ("; the six-seat presets send the dealer's teammate alone since the rules' "
                "second edition (docs/rules.md): dealer_partner_must_go_alone = false under "
                "[rules] finishes this ladder by the rules it began with")
    return ""


_RULE_DEFAULTS = RuleSet().to_options()
"""What a rule option was before it existed: a database written by an older arena has no
key for the options added since, and its games were played without them, which is each
option's default (off, one pack, five cards, the standard points)."""


def _differences(stored: Mapping[str, Any], now: Mapping[str, Any], prefix: str = "") -> list[str]:
    out = []
    for key in sorted(set(stored) | set(now)):
        a, b = stored.get(key), now.get(key)
        if prefix == "rules." and key not in stored and key in now and key in _RULE_DEFAULTS:
            a = _RULE_DEFAULTS[key]
        if isinstance(a, dict) and isinstance(b, dict):
            out += _differences(a, b, f"{prefix}{key}.")
        elif a != b:
            out.append(f"{prefix}{key} was {json.dumps(a)}, now {json.dumps(b)}")
    return out

