"""`arena replay-test BOT GAME...`: its options, and what it checks before a bot starts
(the records, the seats, the manifest, the sandbox). The replay and its report are the
check layer's (arena.check.replay_test, arena.check.replay_report)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

from arena.cli.args import add_process_options, process_settings, seconds_arg
from arena.records import files as records
from arena.records.gamelog import GameLog
from arena.settings.errors import EXIT_INTERRUPTED, EXIT_TERMINATED, ConfigError, exit_status_help
from arena.settings.manifest import BotManifest, load_manifest
from arena.settings.process import ProcessSettings
from arena.settings.spec import TimeControl

DESCRIPTION = (
    "Replay recorded games to BOT: at each decision of the seats it is given, tell it "
    "exactly what that seat was told in the game (Hello with the game's rules, StartGame, "
    "each DecideRequest with the seat's view, legal actions and the events since its "
    "previous request, EndGame) and compare its answer with the recorded action; the "
    "recorded action is played either way. Prints each decision where they differ or the "
    "bot faulted (timed out, crashed, answered illegally), by seat, hand (from 1) and "
    "decision (the seat's DecideRequest.decision_number, from 0), then the counts. A bot that "
    "decides by what it is told agrees with its own games everywhere: a regression test. "
    "Each game gets new processes, started sealed as in a match.")

EPILOG = exit_status_help(
    "every decision asked agrees with the record", no="some decision differs",
    bot="also when the bot faulted at some decision, or did not start",
    stopped=" (the games replayed so far are reported)")


def seat_arg(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a seat number: {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"seats are numbered from 0, not {value}")
    return value


def add_replay_test_arguments(p: argparse.ArgumentParser) -> None:
    d = TimeControl()
    p.add_argument("bot", metavar="BOT",
                   help="the bot to ask: a bot.toml, a folder holding one, or a sample bot")
    p.add_argument("games", nargs="+", metavar="GAME",
                   help="record files (.pb or .json, as 'arena match' writes them under "
                   "DIR/games/) or folders of them")
    p.add_argument("--seat", type=seat_arg, action="append", default=None, metavar="N",
                   help="ask the bot at seat N's decisions (seats from 0; repeatable). "
                   "Default: every seat that BOT's name sat in, in each game")
    p.add_argument("--per-decision", type=seconds_arg, default=None, metavar="SECONDS",
                   help="longest one decision may take, as StartGame tells it (default: "
                   "the record's time control; for a record that keeps none, "
                   f"{d.per_decision:g}, as a match's)")
    p.add_argument("--bank", type=seconds_arg, default=None, metavar="SECONDS",
                   help="the game's time bank StartGame tells, counted down by the "
                   f"recorded think times (default: the record's; else {d.bank:g})")
    p.add_argument("--json", action="store_true",
                   help="print one JSON document instead: the counts, and each finding "
                   "with its seat, hand, decision, phase, recorded action, answer and fault")
    add_process_options(p, leave_out=("fresh_processes",))


def _record_files(refs: list[str]) -> Iterator[Path]:
    for ref in refs:
        p = Path(ref).expanduser()
        if not p.exists():
            raise ConfigError(f"{p}: no such file or folder")
        if p.suffix == ".toml" or (p.is_file() and records.is_database(p)):
            what = "file" if p.suffix == ".toml" else "database"
            raise ConfigError(f"{p}: a ladder {what}; replay-test reads record files: write "
                              f"a game of it to one with 'ladder replay {p} GAME_ID --json "
                              "> GAME.json'")
        if p.is_dir():
            found = sorted(f for f in p.rglob("*") if f.suffix in records.SUFFIXES)
            if not found:
                raise ConfigError(f"{p}: no record files (.pb or .json) in this folder")
            yield from found
        else:
            yield p


def plan(bot: BotManifest, refs: list[str], seats: list[int] | None,
         ) -> tuple[list[tuple[str, GameLog, tuple[int, ...]]], list[str]]:
    """(record name, record, seats to ask) of each game, and the games left out (with
    why); ConfigError for a record that cannot be replayed, a seat a game does not have,
    or a bot that sat in none of them."""
    from arena.check.replay_test import seats_of
    from arena.records.replay import verify

    games: list[tuple[str, GameLog, tuple[int, ...]]] = []
    left_out: list[str] = []
    for path in _record_files(refs):
        log = records.read(path)
        problem = verify(log)
        if problem is not None:  # its requests could not be the game's
            raise ConfigError(f"{path}: the record disagrees with the rules: {problem}")
        if seats is None:
            found = seats_of(bot, log)
            if not found:
                names = ", ".join(f"{s.seat} {s.name}" for s in log.seats)
                left_out.append(f"{path}: no seat of {bot.name!r} (seats: {names})")
                continue
            games.append((str(path), log, found))
            continue
        for seat in seats:
            if seat >= log.rules.seats:
                raise ConfigError(f"--seat {seat}: {path} has seats 0 to {log.rules.seats - 1}")
        games.append((str(path), log, tuple(sorted(set(seats)))))
    if not games:
        which = "this game" if len(left_out) == 1 else "these games"
        raise ConfigError(f"{bot.name!r} sat in no seat of {which}: name the seats to ask "
                          "with --seat N")
    return games, left_out


def cmd_replay_test(args: argparse.Namespace) -> int:
    import json
    import shutil
    import tempfile

    import trio

    from arena.check.replay_report import exit_status, game_lines, summary_line, to_json
    from arena.check.replay_test import GameReplay, recorded_time_control, replay_games
    from arena.play.run_notes import run_notes
    from arena.play.runner import run_until_signal

    bot = load_manifest(args.bot)
    games, left_out = plan(bot, args.games, args.seat)
    processes = process_settings(args, ProcessSettings(log_dir=Path()))
    if processes.sandbox:
        from arena.procs.processes import require_sandbox

        require_sandbox("add --no-sandbox")
        if bot.command is not None:
            bot.sandbox(processes.limits)  # a manifest asking for more than the caps is an error
    def time_control(log: GameLog) -> TimeControl:
        return recorded_time_control(log, args.per_decision, args.bank)
    log_dir = Path(tempfile.mkdtemp(prefix="euchre-replay-"))
    processes = replace(processes, log_dir=log_dir)

    # What is not the report goes to stderr, so that --json's output is the document alone.
    sealed = "sealed" if processes.sandbox else "WITHOUT a sandbox"
    print(f"replay-test: {bot.label} ({bot.source or bot.address}), {sealed}, "
          f"{len(games)} game(s); bot logs in {log_dir}", file=sys.stderr)
    for note in run_notes(sealed=processes.sandbox, seed=None):
        print(f"arena: {note}", file=sys.stderr)
    for line in left_out:
        print(f"left out: {line}", file=sys.stderr)

    done: list[GameReplay] = []

    def on_game(g: GameReplay) -> None:
        done.append(g)
        if not args.json:
            print("\n".join(game_lines(g)), flush=True)

    stopped_by = trio.run(run_until_signal, lambda: replay_games(
        bot, games, time_control, processes, on_game))
    not_replayed = len(games) - len(done)
    if args.json:
        print(json.dumps(to_json(bot.name, done, not_replayed), indent=2, ensure_ascii=False))
    else:
        print(summary_line(done))
    if not_replayed and stopped_by is None:
        print(f"replay-test: {not_replayed} game(s) not replayed: the bot did not start",
              file=sys.stderr)
    status = exit_status(done)
    if status or stopped_by is not None:  # the logs of a fault stay for the author to read
        print(f"bot logs: {log_dir}", file=sys.stderr)
    else:
        shutil.rmtree(log_dir, ignore_errors=True)
    if stopped_by is not None:
        print(f"arena: interrupted ({stopped_by}) after {len(done)} of {len(games)} games; "
              "every bot process was stopped", file=sys.stderr)
        return EXIT_TERMINATED if stopped_by == "SIGTERM" else EXIT_INTERRUPTED
    return status
