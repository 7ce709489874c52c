"""`arena replay` and `arena verify`: reading records, and showing them in the terminal.

Records come as GameRecord files (binary .pb, or protobuf's JSON mapping in .json) or
folders of them. A ladder's games are read by `ladder replay` and `ladder verify`, which
run these same commands with a `Databases` of the ladder's: so the arena's own command
line never imports the ladder, and given a database or a ladder file it says which
command reads it. The terminal view is arena.views.replay_text's, `--json` and `--html` with
`--seat` arena.views.replay_json's and arena.views.replay_html's, each built from seat_view() alone.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from rich.console import Console
from rich.text import Text

from arena.records import files as records
from arena.records.gamelog import GameLog
from arena.records.replay import verify
from arena.settings.errors import EXIT_NO, EXIT_OK, KINDS, ConfigError, kind_of

# --- reading -----------------------------------------------------------------------


@dataclass(frozen=True)
class Databases:
    """How a command line that reads ladder databases reads them: `ladder replay` and
    `ladder verify` pass the ladder's own; `arena replay` and `arena verify` pass none."""

    find: Callable[[Path], Path]
    """A ladder file (or database) as given -> the database, which exists."""
    games: Callable[[Path], Iterator[tuple[str, bytes]]]
    """(game id, serialized record) of every stored game, in schedule order."""
    game: Callable[[Path, str], bytes | None]
    """One game's serialized record, or None."""
    audit: Callable[[Path], list[tuple[str, list[str]]]]
    """(game id, problems) of each game whose stored columns disagree with its record."""


def _not_records(p: Path, command: str) -> ConfigError:
    return ConfigError(f"{p}: a ladder {'file' if p.suffix == '.toml' else 'database'}; "
                       f"its games are read by 'ladder {command} {p}"
                       f"{' GAME_ID' if command == 'replay' else ''}'")


def _source(ref: str, dbs: Databases | None, command: str) -> Path:
    """A record file, a folder of them or (with `dbs`) a ladder database as given; for a
    ladder file (.toml), the database it names, as the `ladder` commands find it."""
    p = Path(ref).expanduser()
    if dbs is not None and p.suffix not in records.SUFFIXES and not p.is_dir():
        return dbs.find(p)  # a ladder file or database, or the ladder says why not
    if not p.exists():
        raise ConfigError(f"{p}: no such file or folder")
    if p.suffix == ".toml" or records.is_database(p):
        raise _not_records(p, command)
    return p


def iter_records(paths: list[str], dbs: Databases | None = None,
                 ) -> Iterator[tuple[str, Path, GameLog]]:
    """(name, source, log) for each record in files, folders and (with `dbs`) ladder
    databases and the databases of ladder files (source: where it came from)."""
    for ref in paths:
        p = _source(ref, dbs, "verify")
        if p.is_dir():
            files = sorted(f for f in p.rglob("*") if f.suffix in records.SUFFIXES)
            if not files:
                raise ConfigError(f"{p}: no record files (.pb or .json) in this folder")
            for f in files:
                yield str(f), p, records.read(f)
        elif dbs is not None and records.is_database(p):
            for game_id, blob in dbs.games(p):
                yield f"{p}:{game_id}", p, records.decode(blob, f"{p}:{game_id}")
        else:
            yield str(p), p, records.read(p)


def load_game(refs: list[str], dbs: Databases | None = None) -> GameLog:
    """GAME as the replay command takes it: a record file, or (with `dbs`) a ladder
    database or its ladder file and a game id."""
    first = _source(refs[0], dbs, "replay")
    if dbs is not None and records.is_database(first):
        if len(refs) != 2:
            raise ConfigError(f"{refs[0]}: a ladder's games need a game id: ladder replay "
                              f"{refs[0]} GAME_ID (list them with: ladder games {refs[0]})")
        blob = dbs.game(first, refs[1])
        if blob is None:
            raise ConfigError(f"{first}: no game {refs[1]!r} (list them with: ladder games "
                              f"{refs[0]})")
        return records.decode(blob, f"{first}:{refs[1]}")
    if len(refs) != 1:
        raise ConfigError(f"{refs[0]} is a record file: give it alone (a game id goes with a "
                          "ladder file or database, in 'ladder replay')")
    if first.is_dir():
        raise ConfigError(f"{first}: a folder; give one record file (.pb or .json)")
    return records.read(first)


def add_replay_arguments(r: argparse.ArgumentParser, game_help: str) -> None:
    """The options of `arena replay` and `ladder replay`, spelled once."""
    r.add_argument("game", nargs="+", metavar="GAME", help=game_help)
    r.add_argument("--seat", type=int, choices=range(6), default=None,
                   help="show only what this seat could see (seats from 0)")
    r.add_argument("--hand", type=int, default=None, metavar="K",
                   help="show only hand K (hands from 1)")
    out = r.add_mutually_exclusive_group()
    out.add_argument("--html", type=Path, default=None, metavar="OUT.html",
                     help="write a self-contained HTML viewer instead")
    out.add_argument("--json", action="store_true",
                     help="print JSON instead: the record itself (protobuf's JSON mapping, "
                     "which 'arena verify' reads); with --seat or --hand, the game hand by "
                     "hand as that seat was told it (or every card, without --seat)")


# --- commands ------------------------------------------------------------------------


def cmd_replay(args: argparse.Namespace, dbs: Databases | None = None) -> int:
    log = load_game(args.game, dbs)
    if args.hand is not None and not 1 <= args.hand <= len(log.hands):
        raise ConfigError(f"no hand {args.hand}: the game has hands 1 to {len(log.hands)}")
    if args.seat is not None and args.seat >= log.rules.seats:
        raise ConfigError(f"no seat {args.seat}: the game has seats 0 to {log.rules.seats - 1}")
    if args.json:
        if args.seat is None and args.hand is None:
            print(records.to_json(log))
        else:  # a seat's share (or one hand), never the record with every card in it
            import json

            from arena.views.replay_json import build_json

            doc = build_json(log, seat=args.seat, hand=args.hand)
            print(json.dumps(doc, indent=2, ensure_ascii=False))
        return EXIT_OK
    if args.html is not None:
        from arena.views.replay_html import render_html

        page = render_html(log, seat=args.seat, hand=args.hand)
        try:
            args.html.write_text(page, encoding="utf-8")
        except OSError as e:  # bad input for a path, the machine for a full disk
            raise KINDS[kind_of(e)](f"{args.html}: cannot write the page: {e.strerror or e}"
                                    ) from None
        whose = "" if args.seat is None else f" (seat {args.seat}'s view only)"
        print(f"wrote {args.html}{whose}")
        return EXIT_OK
    from arena.views.replay_text import show_game

    show_game(log, seat=args.seat, hand=args.hand)
    return EXIT_OK


def cmd_verify(args: argparse.Namespace, dbs: Databases | None = None) -> int:
    console = Console()
    checked = 0
    databases: list[Path] = []
    for name, source, log in iter_records(args.records, dbs):
        if dbs is not None and records.is_database(source) and source not in databases:
            databases.append(source)
        problem = verify(log)
        checked += 1
        if problem is not None:
            console.print(f"[bold red]FAIL[/bold red] {name}: {problem}")
            return EXIT_NO
    disagreeing = 0
    for path in databases:
        assert dbs is not None
        for game_id, problems in dbs.audit(path):
            disagreeing += 1
            console.print(Text.assemble(
                ("FAIL", "bold red"),
                f" {path}:{game_id}: its columns disagree with its record: "
                f"{'; '.join(problems)}",
            ), soft_wrap=True)
    if disagreeing:
        console.print(f"{disagreeing} stored game(s) whose columns disagree with their "
                      "records; standings leave them out", soft_wrap=True)
        return EXIT_NO
    also = ", and the columns stored with them match them" if databases else ""
    console.print(f"[green]ok[/green]: {checked} record(s) replay exactly under the rules{also}",
                  soft_wrap=True)
    return EXIT_OK
