"""Results that cannot be forged: each stored game's columns checked against its record.

A ladder database keeps every game twice: as columns (winner, points, faults, seats...)
that standings and listings read, and as the game's full record (euchre.v1.GameRecord),
which `ladder verify` replays through the rules engine. Anyone who can write the file can
change the columns and leave the record alone; the standings would then lie while every
record still replays. The audit closes that gap: it derives each column from the record,
the way Store.record_game stored it, and names every column that disagrees, as well as
per-bot figures (game_bots) that are not what arena.records.stats counts from the record and bot
versions (bots) whose digest is not the one the record says was run.

It only decodes records (once each); it never replays them. Replaying the record itself
through the rules is `ladder verify`'s part, which runs this audit too.
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from arena.records import files as records
from arena.records.gamelog import GameLog
from arena.records.stats import BotStats, collect_stats
from arena.settings.plan import game_id as planned_game_id
from ladder.store.database import _STAT_COLUMNS, _STAT_FIELDS, GameRow, Store, version_label


@dataclass(frozen=True, slots=True)
class BotRow:
    """A row of the bots table, as the audit compares it with a record's seats."""

    label: str
    name: str
    version: int
    digest: str
    manifest_version: str


GameBots = Mapping[str, Mapping[str, Any]]
"""A game's game_bots rows by bot label: column name -> stored value (fault_kinds as the
stored JSON text)."""


def _differs(column: str, stored: Any, recorded: Any) -> str:
    return f"{column}: stored {stored!r}, the record says {recorded!r}"


def audit_game(row: GameRow, log: GameLog, *, game_bots: GameBots | None = None,
               bots: Mapping[str, BotRow] | None = None) -> list[str]:
    """What disagrees between a stored game's columns and its record, one line per column
    (each line starts with the column's name); empty when they agree.

    `game_bots` (the game's game_bots rows, by bot label) and `bots` (the bots table, by
    label) are checked too when given: the per-bot figures against arena.records.stats over the
    record, and each seat's bot version against the record where the record carries a
    digest. Pure: reads nothing but its arguments."""
    problems: list[str] = []

    def check(column: str, stored: Any, recorded: Any) -> None:
        if stored != recorded:
            problems.append(_differs(column, stored, recorded))

    check("game_id", row.game_id, log.game_id)
    expected_id = planned_game_id(row.bot_a, row.bot_b, row.number)
    if row.game_id != expected_id:
        problems.append(f"bot_a/bot_b/number: stored {row.bot_a!r}, {row.bot_b!r}, "
                        f"{row.number!r} make the game id {expected_id!r}, not {row.game_id!r}")
    check("seed", row.seed, log.seed)
    check("first_dealer", row.first_dealer, log.first_dealer)

    by_seat = {sb.seat: sb for sb in log.seats}
    recorded_seats = tuple(sb.name for sb in sorted(log.seats, key=lambda sb: sb.seat))
    check("seats", ",".join(row.seats), ",".join(recorded_seats))
    n = log.rules.seats
    if sorted(by_seat) != list(range(n)):
        problems.append(f"record: names seats {sorted(by_seat)}, not the {n} seats")
        return problems
    if row.a_team not in (0, 1):
        problems.append(f"a_team: stored {row.a_team!r}, not a team")
        return problems
    a_team = row.a_team
    for column, label, team in (("bot_a", row.bot_a, a_team), ("bot_b", row.bot_b, 1 - a_team)):
        held = {by_seat[seat].name for seat in range(team, n, 2)}
        if held != {label}:
            problems.append(f"{column}/a_team: stored {label!r} on team {team}, the record "
                            f"seats {' and '.join(sorted(held))} there")

    if log.end is None or (log.winning_team not in (0, 1) and not log.drawn):
        problems.append("record: not a finished game (no end, no winner and not drawn)")
        return problems
    check("outcome", row.outcome, log.end.value)
    check("winning_team", row.winning_team, log.winning_team)
    check("score_a", row.score_a, log.points_of_team(a_team))
    check("points_a", row.points_a, log.final_scores[a_team])
    check("points_b", row.points_b, log.final_scores[1 - a_team])
    check("hands", row.hands, len(log.hands))
    faults_a = sum(1 for f in log.faults if f.seat % 2 == a_team)
    check("faults", row.faults, len(log.faults))
    check("faults_a", row.faults_a, faults_a)
    check("faults_b", row.faults_b, len(log.faults) - faults_a)
    check("fault_kinds", row.fault_kinds, ",".join(sorted({f.kind.value for f in log.faults})))
    check("sandboxed", row.sandboxed, log.sandboxed)

    if game_bots is not None:
        problems += _audit_game_bots(row, log, game_bots)
    if bots is not None:
        problems += _audit_bots(log, bots)
    return problems


def _audit_game_bots(row: GameRow, log: GameLog, game_bots: GameBots) -> list[str]:
    problems: list[str] = []
    expected = {row.bot_a: row.a_team, row.bot_b: 1 - row.a_team}
    if set(game_bots) != set(expected):
        problems.append(f"game_bots: rows for {', '.join(sorted(game_bots)) or 'no bot'}; "
                        f"the game's bots are {', '.join(sorted(expected))}")
    stats = collect_stats([log])
    for label in sorted(set(game_bots) & set(expected)):
        stored = game_bots[label]
        s = stats.get(label) or BotStats(label)
        want: dict[str, Any] = {"team": expected[label]}
        want.update((c, getattr(s, _STAT_FIELDS.get(c, c))) for c in _STAT_COLUMNS)
        for column, value in want.items():
            if stored.get(column) != value:
                problems.append(_differs(f"game_bots.{column} of {label}", stored.get(column),
                                         value))
        kinds = stored.get("fault_kinds")
        try:
            kinds_value = json.loads(kinds) if isinstance(kinds, str) else kinds
        except ValueError:
            kinds_value = kinds
        if kinds_value != s.fault_kinds:
            problems.append(_differs(f"game_bots.fault_kinds of {label}", kinds,
                                     json.dumps(s.fault_kinds, sort_keys=True)))
    return problems


def _audit_bots(log: GameLog, bots: Mapping[str, BotRow]) -> list[str]:
    problems: list[str] = []
    seen: set[str] = set()
    for sb in sorted(log.seats, key=lambda sb: sb.seat):
        if sb.name in seen:
            continue
        seen.add(sb.name)
        bot = bots.get(sb.name)
        if bot is None:
            problems.append(f"bots: no bot labelled {sb.name!r}, whom the record seats")
            continue
        if bot.label != version_label(bot.name, bot.version):
            problems.append(f"bots: {bot.label!r} is stored as {bot.name!r} version "
                            f"{bot.version}, whose label is "
                            f"{version_label(bot.name, bot.version)!r}")
        if not sb.digest:
            continue  # a record without digests (an older arena, or a house seat)
        if bot.digest != sb.digest:
            problems.append(_differs(f"bots.digest of {sb.name}", bot.digest, sb.digest))
        if bot.manifest_version != sb.version:
            problems.append(_differs(f"bots.manifest_version of {sb.name}",
                                     bot.manifest_version, sb.version))
    return problems


_GAME_BOTS_SQL = f"""
SELECT g.game_id, b.label, gb.team, {', '.join(f'gb.{c}' for c in _STAT_COLUMNS)},
       gb.fault_kinds
FROM game_bots gb JOIN games g ON g.id = gb.game JOIN bots b ON b.id = gb.bot
"""


@contextlib.contextmanager
def _snapshot(conn: sqlite3.Connection) -> Iterator[None]:
    """One read transaction, so that every read inside sees the same games even while a
    `ladder run` goes on storing more (WAL)."""
    if conn.in_transaction:
        yield
        return
    conn.execute("BEGIN")
    try:
        yield
    finally:
        conn.execute("COMMIT")


def audit_database(store: Store) -> list[tuple[str, list[str]]]:
    """(game id, problems) for every stored game whose columns disagree with its record,
    in schedule order. Reads the database only; decodes each record once."""
    with _snapshot(store.conn):
        return _audit(store, store.games())


def verified_games(store: Store) -> tuple[list[GameRow], list[str]]:
    """The stored games whose columns agree with their records, and the ids of those that
    do not, both from one snapshot of the database."""
    with _snapshot(store.conn):
        rows = store.games()
        unverified = [game_id for game_id, _ in _audit(store, rows)]
    left_out = set(unverified)
    return [r for r in rows if r.game_id not in left_out], unverified


def _audit(store: Store, games: list[GameRow]) -> list[tuple[str, list[str]]]:
    conn = store.conn
    bots = {r[0]: BotRow(*r) for r in conn.execute(
        "SELECT label, name, version, digest, manifest_version FROM bots")}
    game_bots: dict[str, dict[str, dict[str, Any]]] = {}
    columns = ("team", *_STAT_COLUMNS, "fault_kinds")
    for game_id, label, *values in conn.execute(_GAME_BOTS_SQL):
        game_bots.setdefault(game_id, {})[label] = dict(zip(columns, values, strict=True))
    rows = {r.game_id: r for r in games}

    out: list[tuple[str, list[str]]] = []
    cursor = conn.execute("SELECT game_id, bot_a, bot_b, record FROM games "
                          "ORDER BY seq, game_id")
    for game_id, bot_a, bot_b, blob in cursor:
        row = rows.get(game_id)
        if row is None:  # left out of the listing: its bot ids name no bot
            out.append((game_id, [f"bot_a/bot_b: stored bot ids {bot_a}, {bot_b}, and "
                                  "not both are in the bots table"]))
            continue
        try:
            log = records.decode(blob, "its record")
        except records.RecordError as e:
            out.append((game_id, [f"record: cannot be read: {e}"]))
            continue
        problems = audit_game(row, log, game_bots=game_bots.get(game_id, {}), bots=bots)
        if problems:
            out.append((game_id, problems))
    return out
