"""The `arena` command: matches, bot checks, replays and record verification.

An error is printed as one line and exits with the status of its kind (arena.settings.errors): 2
for what a person can fix (a bad manifest, an unknown preset, a missing file), 3 a bot's,
4 the machine's or the cluster's, 5 the arena's own bug. Bot faults in games are results,
not errors; Ctrl-C stops every bot process and exits with status 130.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from arena import __version__
from arena.cli import proto, replay_test
from arena.cli.args import (
    WATCH_WAIT,
    add_executor_options,
    add_process_options,
    add_rules_option,
    add_time_options,
    add_watch_options,
    executor_from_args,
    positive_int,
    process_settings,
    run_command,
    seconds_arg,
    seed_arg,
)
from arena.cli.replay import add_replay_arguments
from arena.play.run_notes import check_memory, run_notes
from arena.settings.errors import EXIT_INTERRUPTED, EXIT_OK, EXIT_TERMINATED, Kind, exit_status_help
from arena.settings.faults import FaultKind
from arena.settings.manifest import load_manifest, sample_bot_names
from arena.settings.process import ProcessSettings
from arena.settings.rule_sets import NAMED_RULES
from arena.settings.spec import FaultPolicy, GameSpec, TimeControl, default_concurrency

if TYPE_CHECKING:  # imported where used, as the command needs it
    from arena.records.gamelog import GameLog


def build_parser() -> argparse.ArgumentParser:
    samples = ", ".join(sample_bot_names()) or "none"
    parser = argparse.ArgumentParser(
        prog="arena",
        description="Euchre Arena: run Euchre bots against each other, fairly.",
        epilog=f"A BOT is a bot.toml manifest, a folder holding one, or a sample bot "
        f"({samples}). Run 'arena COMMAND --help' for each command's options. "
        + exit_status_help("done"),
    )
    parser.add_argument("--version", action="version", version=f"arena {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    m = sub.add_parser("match", help="play two bots against each other",
                       description="Play BOT_A against BOT_B: each team is two processes of "
                       "one bot; games come in duplicate pairs (same deals, teams swapped) "
                       "and first dealers rotate.",
                       epilog=exit_status_help(
                           "the match ran to its end (faults or not)",
                           bot="with --fail-on-fault: some game had a fault",
                           stopped=" (finished games' records are kept)"))
    m.add_argument("bot_a", metavar="BOT_A",
                   help="the first bot: a bot.toml, a folder holding one, or a sample bot")
    m.add_argument("bot_b", metavar="BOT_B", help="the second bot, given the same way")
    m.add_argument("--games", type=positive_int, default=20, metavar="N",
                   help="games to play, in duplicate pairs (default 20)")
    add_rules_option(m, repeat=False)
    m.add_argument("--seed", type=seed_arg, default=None,
                   help="fix every deal (default: a secret random key). Publishing a seed "
                   "publishes the deals: a bot that knows it knows every hand")
    m.add_argument("--concurrency", type=positive_int, default=default_concurrency(),
                   help="games at once (default: the number of cores)")
    m.add_argument("--out", type=Path, default=None, metavar="DIR",
                   help="folder for game records and bot logs (default runs/match-TIME)")
    add_time_options(m)
    add_process_options(m)
    add_executor_options(m)
    m.add_argument("--fail-on-fault", action="store_true",
                   help=f"exit with status {Kind.BOT.status} when any game had a fault (for scripts; "
                   "by default a match that ran to its end exits 0, faults or not)")

    c = sub.add_parser("check-bot", help="check that a bot follows the protocol before you submit it",
                       description="Start the bot, handshake, drive it through every phase of "
                       "every preset it accepts, check legality and timing, and check it stops "
                       "cleanly. Prints what to fix.",
                       epilog=exit_status_help("every check passed", no="a check failed",
                                               stopped=" (the checks done so far are printed)"))
    c.add_argument("bot", metavar="BOT",
                   help="the bot to check: a bot.toml, a folder holding one, or a sample bot")
    c.add_argument("--games", type=positive_int, default=4, metavar="N",
                   help="self-play games per rule set (default 4), besides the set scenes")
    c.add_argument("--per-decision", type=seconds_arg, default=TimeControl().per_decision,
                   metavar="SECONDS", help="time limit per decision")
    add_process_options(c, leave_out=("fresh_processes",))
    add_rules_option(c, repeat=True)
    c.add_argument("--fail-fast", action="store_true",
                   help="stop at the first FAIL, and say what was then not checked "
                   "(default: check everything, so that every failure is listed)")
    c.add_argument("--keep-logs", action="store_true",
                   help="keep the bot's logs (its output, one file per process, in a new "
                   "folder under $TMPDIR or /tmp) when every check passes too; a failed or "
                   "interrupted check always keeps them. The folder is named at the start "
                   "and at the end")

    r = sub.add_parser("replay", help="show a recorded game in the terminal, as JSON or as an HTML page",
                       description="GAME is a record file (.pb or .json); a ladder's games "
                       "are shown by 'ladder replay LADDER GAME_ID'. With --seat, every "
                       "output (terminal, --json, --html) holds only what that seat could "
                       "see, safe to hand to that bot's author.",
                       epilog=exit_status_help("shown or written"))
    add_replay_arguments(r, "a record file (.pb or .json)")

    w = sub.add_parser("watch", help="follow a game of a running match in the terminal",
                       description="Follow a game of 'arena match' while it is played (run "
                       "the match in another terminal): every seat's cards, or one seat's "
                       "view with --seat, redrawn as each action is played; when the game "
                       "ends, the next game in progress. Ends on Ctrl-C, or when nothing "
                       f"has been played for --wait seconds (default {WATCH_WAIT:g}), saying "
                       "so. DIR is the match's output folder (--out; default: the newest "
                       "folder under runs/ with a game in progress, else the newest match "
                       "there). The match writes each game in progress to DIR/live/ "
                       "(removed as each game ends); watching only reads them, and never "
                       "slows the games. For a ladder: 'ladder watch LADDER.toml'.",
                       epilog=exit_status_help("watched until nothing more was played, or "
                                               "stopped by Ctrl-C", no="nothing to watch",
                                               stopped=None))
    w.add_argument("dir", nargs="?", default=None, metavar="DIR",
                   help="the match's output folder (--out of 'arena match'); default: the "
                   "newest under runs/")
    add_watch_options(w)

    v = sub.add_parser("verify", help="re-check recorded games against the rules",
                       description="Replays each record through the rules engine from its seed "
                       "and actions; exits 1 naming the first divergence. A ladder's games "
                       "(and the columns stored with them) are checked by 'ladder verify "
                       "LADDER'.",
                       epilog=exit_status_help("every record replays exactly",
                                               no="a record diverges from the rules"))
    v.add_argument("records", nargs="+", metavar="RECORD",
                   help="record files (.pb or .json) or folders of them")

    t = sub.add_parser("replay-test", help="ask a bot what it would do at each decision of recorded games",
                       description=replay_test.DESCRIPTION, epilog=replay_test.EPILOG)
    replay_test.add_replay_test_arguments(t)

    pr = sub.add_parser("proto", help="write this arena's protocol files, for a bot to build against",
                        description=proto.DESCRIPTION, epilog=proto.EPILOG)
    proto.add_proto_arguments(pr)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return Kind.BAD_INPUT.status
    return run_command("arena", lambda: _dispatch(parser, args),
                       interrupted="interrupted; every bot process was stopped")


def _dispatch(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    if args.command == "match":
        return cmd_match(args)
    if args.command == "check-bot":
        from arena.check.checkbot import cmd_check_bot

        return cmd_check_bot(args, process_settings(args, ProcessSettings(log_dir=Path())))
    if args.command == "replay":
        from arena.cli.replay import cmd_replay

        return cmd_replay(args)
    if args.command == "verify":
        from arena.cli.replay import cmd_verify

        return cmd_verify(args)
    if args.command == "replay-test":
        return replay_test.cmd_replay_test(args)
    if args.command == "proto":
        return proto.cmd_proto(args)
    if args.command == "watch":
        from arena.cli.watch import match_live_folder, watch

        return watch(match_live_folder(args.dir), seat=args.seat, game_id=args.game,
                     wait=args.wait)
    parser.error(f"unknown command {args.command}")
    return Kind.BAD_INPUT.status  # pragma: no cover


def cmd_match(args: argparse.Namespace) -> int:
    import trio

    from arena.play.live_files import LiveFolder, LiveFolderUnsafe
    from arena.play.runner import run_games, run_until_signal
    from arena.records import files as records
    from arena.settings.match import MatchConfig, match_specs
    from arena.views.report import print_match_table
    from arena.views.ui import GameProgress

    rules = NAMED_RULES[args.rules]
    executor = executor_from_args(args)
    bot_a = load_manifest(args.bot_a)
    bot_b = load_manifest(args.bot_b)
    if args.games % 2:
        print(f"arena: note: --games {args.games} is odd, so the last deal is played once, "
              "without its twin game (teams swapped): card luck does not cancel for it",
              file=sys.stderr)
    out = args.out or Path("runs") / f"match-{datetime.now():%Y%m%d-%H%M%S}"
    games_dir = out / "games"
    games_dir.mkdir(parents=True, exist_ok=True)
    processes = process_settings(args, ProcessSettings(log_dir=out / "logs"))
    if processes.sandbox:
        from arena.procs.processes import require_sandbox

        require_sandbox("add --no-sandbox")
        for bot in (bot_a, bot_b):
            if bot.command is not None:
                bot.sandbox(processes.limits)  # ConfigError if it asks for more than --limit
    cfg = MatchConfig(
        bot_a=bot_a, bot_b=bot_b, games=args.games, rules=rules, seed=args.seed,
        concurrency=min(args.concurrency, args.games),
        time_control=TimeControl(per_decision=args.per_decision, bank=args.bank),
        fault_policy=FaultPolicy(args.on_fault), out_dir=out, processes=processes,
    )
    bot_b = cfg.bot_b  # renamed when it is bot_a again
    for note in run_notes(sealed=processes.sandbox, seed=cfg.seed):
        print(f"arena: {note}", file=sys.stderr)
    if executor is None or executor.kind == "local":
        check_memory(concurrency=cfg.concurrency, seats=rules.seats,
                     memory_mb=processes.limits.memory_mb, sealed=processes.sandbox,
                     lower="--concurrency")
    logs: list[GameLog] = []
    progress = GameProgress(args.games, title=f"{bot_a.name} vs {bot_b.name}")
    refused: dict[str, str] = {}
    """Bots that refused the rules (or lack a feature they need), by name: nothing to
    play, so no game is recorded for them and no more are started."""

    def on_done(spec: GameSpec, log: GameLog) -> None:
        refusals = [f for f in log.faults if f.kind is FaultKind.REFUSED_RULES]
        for f in refusals:
            refused.setdefault(log.seats[f.seat].name, f.detail)
        if not refusals:
            records.write(games_dir / f"{log.game_id}.pb", log)
            logs.append(log)
        progress.game_done(log)

    def specs() -> Iterator[GameSpec]:
        for spec in match_specs(cfg):
            if refused:
                return
            yield spec

    try:
        live: LiveFolder | None = LiveFolder.for_run(out / "live", [bot_a, bot_b],
                                                     sealed=processes.sandbox)
        print(f"watch its games live: arena watch {out}", file=sys.stderr)
    except LiveFolderUnsafe as e:
        live = None
        print(f"arena: warning: {e}", file=sys.stderr)
    started = time.monotonic()
    try:
        with progress:
            stopped_by = trio.run(run_until_signal, lambda: run_games(
                specs(), rules=rules, concurrency=cfg.concurrency,
                processes=processes, on_done=on_done, observe=live, executor=executor,
            ))
    finally:
        if live is not None:
            live.close()
    elapsed = time.monotonic() - started
    if logs or not refused:
        print_match_table(logs, [bot_a.name, bot_b.name], elapsed)
    print(f"records and bot logs: {out}")
    if stopped_by is not None:
        print(f"arena: interrupted ({stopped_by}) after {len(logs)} of {args.games} games; "
              "their records are kept and every bot process was stopped", file=sys.stderr)
        return EXIT_TERMINATED if stopped_by == "SIGTERM" else EXIT_INTERRUPTED
    if refused:
        for name, why in refused.items():
            print(f"arena: {name} cannot play {args.rules!r} rules, so no game of it was "
                  f"played or recorded: {why}", file=sys.stderr)
        return Kind.BOT.status
    if args.fail_on_fault and any(log.faults for log in logs):
        print(f"arena: {sum(bool(log.faults) for log in logs)} of {len(logs)} games had a "
              "fault (--fail-on-fault)", file=sys.stderr)
        return Kind.BOT.status
    return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
