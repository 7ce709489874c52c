"""The `ladder` command: run a ladder (resuming if it was interrupted), and read its results.

A mistake a person can fix (a bad ladder file, an unknown preset, a database played under
other settings, a bot changed since its games) is one line on stderr and exit status 2;
other errors too are one line, with the status of their kind (arena.settings.errors: 4 for a full
disk or a lost cluster worker). Ctrl-C or SIGTERM stop the run: every finished game stays
stored, every bot process is stopped, and the status is 130 (143 for SIGTERM); run the
same command again to go on.
"""

from __future__ import annotations

import argparse
import json
import sqlite3
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from arena import __version__
from arena.cli.args import (
    PROCESS_OPTIONS,
    WATCH_WAIT,
    add_executor_options,
    add_process_options,
    add_watch_options,
    positive_int,
    process_settings,
    run_command,
)
from arena.cli.replay import add_replay_arguments
from arena.play.run_notes import check_memory, run_notes
from arena.settings.errors import (
    EXIT_INTERRUPTED,
    EXIT_OK,
    EXIT_TERMINATED,
    KINDS,
    ConfigError,
    Kind,
    exit_status_help,
    kind_of,
)
from arena.settings.spec import require_ray

if TYPE_CHECKING:  # each command imports what it uses, when it runs
    from rich.console import Console

    from arena.cli.replay import Databases
    from arena.play.live_files import LiveFolder
    from arena.records.stats import BotStats
    from ladder.config.ladder_file import LadderConfig
    from ladder.rating.sprt import SprtState
    from ladder.rating.standings import Standings
    from ladder.run.play import RunSummary
    from ladder.store.database import GameRow, Store

DEMO_LADDER = Path(__file__).resolve().parents[2] / "ladders" / "demo.toml"

EXIT_USAGE = Kind.BAD_INPUT.status


def _non_negative(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not (value >= 0 and value != float("inf")):
        raise argparse.ArgumentTypeError(f"{text!r}: expected a number of 0 or more")
    return value


def _add_by(p: argparse.ArgumentParser) -> None:
    p.add_argument("--by", choices=["pairs", "games"], default="pairs",
                   help="pairs (default): each duplicate deal's two seat-swapped games are "
                   "one unit with a pair-level variance, so intervals hold their 95%% "
                   "whatever card luck does; a game without its other half counts on its "
                   "own. games: every game independent, for comparison only (its "
                   "intervals are too wide or too narrow for duplicate play)")
    p.add_argument("--prior", type=_non_negative, default=2.0, metavar="GAMES",
                   help="virtual drawn games each bot plays against the pool's mean "
                   "(default 2): keeps a bot that won or lost everything finite, and pulls "
                   "a bot with N games toward the mean by about GAMES/(N+GAMES) of its "
                   "distance. 0: the plain maximum-likelihood fit")


_LADDER_HELP = "the ladder file (.toml), or its database (.sqlite)"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="ladder",
        description="Euchre Arena ladders: round robins or gauntlets of many games with "
        "duplicate deals, stored in SQLite, rated with Elo and maximum-likelihood ratings "
        "with confidence intervals. A run that is stopped or killed resumes where it was.",
        epilog="LADDER is a ladder file (.toml) or its database (.sqlite). Start with "
        "'ladder demo'; see ladders/demo.toml for the file format. "
        "Run 'ladder COMMAND --help' for each command's options. " + exit_status_help("done"),
    )
    parser.add_argument("--version", action="version", version=f"ladder {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    r = sub.add_parser(
        "run", help="play a ladder's games (resumes an interrupted one)",
        description="Play every pairing of the ladder file. Games already in its database are "
        "kept; the rest are played, each stored the moment it finishes. Stop it any way you "
        "like (Ctrl-C, kill, a power cut) and run the same command to go on: no finished game "
        "is lost and none is played twice.",
        epilog="The options of the bots' processes (" + ", ".join(o.flag for o in PROCESS_OPTIONS)
        + ") are those of 'arena match', and override the ladder file's keys of the same "
        "names (" + ", ".join(f"[{o.setting}]" if o.setting == "limits" else o.setting
                              for o in PROCESS_OPTIONS)
        + "); none of them is a setting of the games, so a ladder resumes under other ones. "
        + exit_status_help("every game planned is stored", stopped=": every finished "
                           "game is stored; run the same command again to go on"),
    )
    r.add_argument("ladder", metavar="LADDER.toml",
                   help="the ladder file (its database is beside it unless the file says)")
    r.add_argument("--fresh", action="store_true",
                   help="delete the ladder's database first and start over")
    r.add_argument("--new-version", action="store_true",
                   help="rate bots that changed since their games were played as new versions "
                   "(name@v2) instead of refusing to go on")
    r.add_argument("--games", type=positive_int, default=None, metavar="N",
                   help="games per pairing (overrides the file; more extends a ladder)")
    r.add_argument("--concurrency", type=positive_int, default=None, metavar="N",
                   help="games at once (overrides the file; default: the number of cores)")
    r.add_argument("--db", type=Path, default=None, metavar="PATH",
                   help="database to use (overrides the file)")
    r.add_argument("--quiet", action="store_true", help="no live view; only the final table")
    add_process_options(r)  # override the file's keys of the same names
    add_executor_options(r)  # override the file's executor and [ray] address
    _add_by(r)

    d = sub.add_parser(
        "demo", help="a short ladder of the sample bots (about a minute)",
        description="Run ladders/demo.toml (the sample bots, about a minute on two cores) "
        "into a fresh database under runs/demo, then print the standings.",
        epilog=exit_status_help("the demo ladder was played"),
    )
    d.add_argument("--games", type=positive_int, default=None, metavar="N",
                   help="games per pairing (default: as in the file; even)")
    d.add_argument("--concurrency", type=positive_int, default=None, metavar="N",
                   help="games at once (default: the number of cores)")
    d.add_argument("--out", type=Path, default=Path("runs") / "demo", metavar="DIR",
                   help="folder for the database and bot logs (default runs/demo)")
    d.add_argument("--quiet", action="store_true", help="no live view; only the final table")
    add_process_options(d, only=("sandbox",))

    s = sub.add_parser("standings", help="ratings with intervals, gaps and LOS",
                       description="Standings of a ladder: games, win %, the rating (a "
                       "whole-history fit on duplicate pairs) with its 95% interval, the "
                       "likelihood that each bot is stronger than the next, every gap "
                       "with its margin and LOS, a gauntlet's SPRT, and the running Elo "
                       "(game by game in schedule order). Works while the ladder runs.",
                       epilog=exit_status_help("the standings were printed"))
    s.add_argument("ladder", metavar="LADDER", help=_LADDER_HELP)
    s.add_argument("--json", action="store_true",
                   help="print JSON (ratings, intervals, gaps, SPRT, LOS matrix, crosstable)")
    _add_by(s)

    g = sub.add_parser("games", help="list stored games",
                       description="Stored games in schedule order, with seats, score and "
                       "faults. Replay one with 'ladder replay LADDER GAME_ID'.",
                       epilog=exit_status_help("the games were listed"))
    g.add_argument("ladder", metavar="LADDER", help=_LADDER_HELP)
    g.add_argument("--bot", default=None, metavar="NAME",
                   help="only games of this bot (a name covers all its versions)")
    g.add_argument("--faults", action="store_true", help="only games with faults")
    g.add_argument("--limit", type=positive_int, default=None, metavar="N",
                   help="at most N games")
    g.add_argument("--json", action="store_true", help="print JSON lines")

    rp = sub.add_parser("report", help="standings, gaps, crosstable, LOS and per-bot figures",
                        description="Everything about a ladder: standings, every gap with "
                        "its margin and LOS, a gauntlet's SPRT, the likelihood of "
                        "superiority, the crosstable, and per bot: make %, euchred %, "
                        "march %, alone success, faults and decision times. --html writes "
                        "it as one self-contained page with charts, --json and --csv as "
                        "data.",
                        epilog=exit_status_help("the report was printed or written"))
    rp.add_argument("ladder", metavar="LADDER", help=_LADDER_HELP)
    rp.add_argument("--html", type=Path, default=None, metavar="OUT.html",
                    help="write one self-contained page (no network): each bot's rating "
                    "with its interval against games played, the crosstable as a heat map, "
                    "the LOS matrix, gaps and per-bot figures")
    rp.add_argument("--json", action="store_true",
                    help="print every table as one JSON document instead")
    rp.add_argument("--csv", type=Path, default=None, metavar="DIR",
                    help="write every table as a CSV file into DIR (standings.csv, "
                    "gaps.csv, los.csv, crosstable.csv, bots.csv, curve.csv)")
    _add_by(rp)

    rl = sub.add_parser(
        "replay", help="show a stored game in the terminal, as JSON or as an HTML page",
        description="LADDER GAME_ID: a game of the ladder (list them with 'ladder games "
        "LADDER'), shown as 'arena replay' shows a record file. With --seat, every output "
        "(terminal, --json, --html) holds only what that seat could see, safe to hand to "
        "that bot's author.",
        epilog=exit_status_help("shown or written"))
    add_replay_arguments(rl, "the ladder file (.toml) or its database, and a game id "
                         "('ladder games LADDER' lists them)")

    v = sub.add_parser(
        "verify", help="re-check stored games against the rules, and their columns",
        description="Replays every stored game of each ladder through the rules engine "
        "from its seed and actions, and checks that the columns stored with it (winner, "
        "points, faults, seats, per-bot figures) agree with its record; exits 1 naming "
        "the first divergence. Record files and folders may be given too.",
        epilog=exit_status_help("every record replays exactly and the columns stored with "
                                "them match them", no="a record diverges from the rules, "
                                "or stored columns disagree with their records"))
    v.add_argument("records", nargs="+", metavar="LADDER",
                   help="ladder files (.toml) or databases (record files and folders too)")

    w = sub.add_parser(
        "watch", help="follow a game of a running ladder in the terminal",
        description="Follow a game of a ladder while 'ladder run' plays it (in another "
        "terminal, or on this machine in the background): every seat's cards, or one "
        "seat's view with --seat, redrawn as each action is played; when the game ends, "
        "the next game in progress. Ends on Ctrl-C, or when nothing has been played for "
        f"--wait seconds (default {WATCH_WAIT:g}), saying so. Watching never slows the games: "
        "the run writes each game in progress to a file beside its database "
        "(NAME-live/, removed as each game ends) and this only reads them.",
        epilog=exit_status_help("watched until nothing more was played, or stopped by "
                                "Ctrl-C", no="nothing to watch", stopped=None),
    )
    w.add_argument("ladder", metavar="LADDER.toml",
                   help="the ladder file of the running ladder (its database is found from it)")
    add_watch_options(w)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return EXIT_USAGE
    return run_command("ladder", lambda: _dispatch(parser, args), interrupted=_INTERRUPTED)


_INTERRUPTED = ("interrupted; every finished game is stored and every bot process "
                "stopped. Run the same command again to go on.")


def _say_interrupted() -> None:
    print(f"ladder: {_INTERRUPTED}", file=sys.stderr)


def _dispatch(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    try:
        if args.command == "run":
            return cmd_run(args)
        if args.command == "demo":
            return cmd_demo(args)
        if args.command == "standings":
            return cmd_standings(args)
        if args.command == "games":
            return cmd_games(args)
        if args.command == "report":
            return cmd_report(args)
        if args.command == "watch":
            return cmd_watch(args)
        if args.command == "replay":
            from arena.cli.replay import cmd_replay

            return cmd_replay(args, _databases())
        if args.command == "verify":
            from arena.cli.replay import cmd_verify

            return cmd_verify(args, _databases())
    except sqlite3.Error as e:  # a full disk, a broken file: said as its kind, in one line
        kind = kind_of(e)
        if kind is Kind.BUG:
            raise
        kept = ("; every game committed before it is stored"  # the run stopped at once
                if args.command in ("run", "demo") else "")
        raise KINDS[kind](f"database error: {e}{kept}") from e
    parser.error(f"unknown command {args.command}")
    return EXIT_USAGE  # pragma: no cover


# --- running ---------------------------------------------------------------------------


def cmd_run(args: argparse.Namespace) -> int:
    from ladder.config.ladder_file import load_ladder

    cfg = load_ladder(args.ladder)
    cfg = cfg.with_overrides(
        games_per_pairing=args.games, concurrency=args.concurrency, database=args.db,
        processes=process_settings(args, cfg.processes), executor=args.executor,
        ray_address=args.ray_address,
    )
    return _run(cfg, fresh=args.fresh, new_versions=args.new_version, quiet=args.quiet,
                by=args.by, prior=args.prior)


def cmd_demo(args: argparse.Namespace) -> int:
    from ladder.config.ladder_file import load_ladder

    if not DEMO_LADDER.is_file():
        raise ConfigError(f"{DEMO_LADDER}: the demo ladder file is missing (it ships with "
                          "the source; install with 'pip install -e .' from a clone)")
    cfg = load_ladder(DEMO_LADDER)
    cfg = cfg.with_overrides(
        games_per_pairing=args.games, concurrency=args.concurrency,
        database=args.out / "demo.sqlite", processes=process_settings(args, cfg.processes),
    )
    return _run(cfg, fresh=True, new_versions=False, quiet=args.quiet, by="pairs", prior=2.0)


def _run(cfg: LadderConfig, *, fresh: bool, new_versions: bool, quiet: bool, by: str,
         prior: float) -> int:
    from ladder.rating.standings import compute_standings
    from ladder.report.tables import gaps_table, standings_table
    from ladder.run.live import LiveView
    from ladder.run.play import run_ladder
    from ladder.store.database import Store

    processes = cfg.processes
    if processes.sandbox:
        from arena.procs.processes import require_sandbox

        require_sandbox("--no-sandbox, or sandbox = false in the ladder file")
    if cfg.executor.kind == "ray":
        require_ray()
    for note in run_notes(sealed=processes.sandbox, seed=cfg.seed):
        print(f"ladder: {note}", file=sys.stderr)
    if cfg.executor.kind == "local":
        check_memory(concurrency=cfg.concurrency, seats=cfg.rules.seats,
                     memory_mb=processes.limits.memory_mb, sealed=processes.sandbox)
    challenger = cfg.challenger
    summary_challenger = None
    observer = None if quiet else LiveView(by=by, prior=prior, challenger=challenger,
                                           sprt=cfg.sprt)
    live = _live_folder(cfg)
    try:
        summary = run_ladder(cfg, fresh=fresh, new_versions=new_versions, observer=observer,
                             observe=live)
    finally:
        if live is not None:
            live.close()
    if challenger is not None:
        summary_challenger = summary.labels[challenger]
    with Store.open(cfg.database) as store:
        decided = _decision(store, summary_challenger) if cfg.sprt else None
        rows = store.games()
        st = compute_standings(rows, by=by, prior=prior,
                               bots=list(summary.labels.values()),
                               challenger=summary_challenger, sprt=cfg.sprt,
                               sprt_decided=decided, duplicate=cfg.duplicate)
    console = _console()
    console.print(standings_table(st, title=f"{cfg.name}: standings"))
    if st.gaps:
        console.print(gaps_table(st))
    if summary.sprt_decided_before:
        console.print("The SPRT had already decided before this run, so nothing was "
                      "played: a finished test is not reopened by --games. Start a new "
                      "test with --fresh or another database.")
    rate = summary.played / summary.elapsed if summary.elapsed > 0 else 0.0
    state = "complete" if summary.complete else f"interrupted ({summary.stopped_by})"
    if summary.complete and summary.sprt is not None and summary.sprt.result is not None:
        state += f", stopped by the SPRT ({summary.sprt.result} accepted)"
    if summary.suspended:
        state += (f", but for the games of {', '.join(summary.suspended)} (suspended: see "
                  "above), left to a later run")
    console.print(
        f"{summary.played} games played in {summary.elapsed:.1f} s ({rate:.1f} games/s), "
        f"{summary.faults} faults; {_stored_text(cfg, summary, len(rows))}: {state}. "
        f"Database: {cfg.database}", soft_wrap=True,  # one line, for scripts to read
    )
    if summary.stopped_by == "SIGTERM":
        return EXIT_TERMINATED
    if not summary.complete:
        _say_interrupted()
        return EXIT_INTERRUPTED
    return EXIT_OK


def _live_folder(cfg: LadderConfig) -> LiveFolder | None:
    """Where the run publishes its games in progress for 'ladder watch'; None (and a
    warning) where a sealed bot could read them."""
    from arena.play.live_files import LiveFolder, LiveFolderUnsafe
    from ladder.config.ladder_file import live_folder

    try:
        return LiveFolder.for_run(live_folder(cfg.database), [b.manifest for b in cfg.bots],
                                  sealed=cfg.processes.sandbox)
    except LiveFolderUnsafe as e:
        print(f"ladder: warning: {e}", file=sys.stderr)
        return None


def cmd_watch(args: argparse.Namespace) -> int:
    from arena.cli.watch import watch
    from ladder.config.ladder_file import live_folder

    return watch(live_folder(_database(args.ladder)), seat=args.seat, game_id=args.game,
                 wait=args.wait)


def _stored_text(cfg: LadderConfig, summary: RunSummary, stored: int) -> str:
    """What the database holds against what the file plans: a run with a higher --games
    (or a bot since removed from the file) leaves more games than the plan has."""
    of_plan = summary.already + summary.played
    if stored == of_plan:
        return f"{stored} of {summary.planned} planned games stored"
    return (f"{stored} games stored; the ladder plans {cfg.games_per_pairing} per pairing, "
            f"{summary.planned} in all, "
            f"{of_plan} of them stored (the other {stored - of_plan} come from runs that "
            "planned more: a higher --games, or a bot no longer in the file)")


# --- reading ---------------------------------------------------------------------------


def _console() -> Console:
    from rich.console import Console

    c = Console()
    return c if c.is_terminal else Console(width=max(c.width, 140))


def _database(ref: str) -> Path:
    from ladder.config.ladder_file import database_of
    from ladder.store.database import is_database

    p = Path(ref).expanduser()
    if p.suffix == ".toml":
        return database_of(p)
    if not p.exists():
        raise ConfigError(f"{p}: no such ladder file or database")
    if not is_database(p):
        # A ladder file without the .toml suffix.
        return database_of(p)
    return p


def _databases() -> Databases:
    """How `ladder replay` and `ladder verify` read a ladder's games, for the record
    commands of arena.cli.replay, which never import the ladder themselves."""
    from arena.cli.replay import Databases
    from ladder.report.audit import audit_database
    from ladder.store.database import Store, get_replay, iter_replays, unreadable

    def find(p: Path) -> Path:
        db = _database(str(p))
        if not db.exists():
            raise ConfigError(f"{db} does not exist yet (play the ladder first: ladder run "
                              f"{p})")
        return db

    def audit(path: Path) -> list[tuple[str, list[str]]]:
        with Store.open(path) as store:
            try:
                return audit_database(store)
            except sqlite3.Error as e:
                raise unreadable(path, e) from None

    return Databases(find=find, games=iter_replays, game=get_replay, audit=audit)


def _open(ref: str) -> Store:
    from ladder.store.database import Store

    return Store.open(_database(ref))


def _decision(store: Store, challenger: str | None) -> SprtState | None:
    """The SPRT decision a run stored for the challenger, if any."""
    from ladder.rating.sprt import SprtState

    found = store.sprt_decision(challenger) if challenger is not None else None
    if found is None:
        return None
    return SprtState(found["llr"], found["lower"], found["upper"], found["units"],
                     found["result"])


def _stored_standings(store: Store, rows: Sequence[GameRow], args: argparse.Namespace
                      ) -> Standings:
    """Standings as the database's own settings say: duplicate or not, and a gauntlet's
    challenger and SPRT (named in the settings when the ladder has one, else recognised
    as the one bot in every pairing)."""
    from ladder.config.ladder_file import sprt_from_settings
    from ladder.rating.standings import compute_standings, gauntlet_challenger

    settings = store.settings() or {}
    duplicate = bool(settings.get("duplicate", True))
    sprt = sprt_from_settings(settings)
    challenger = None
    named = (settings.get("sprt") or {}).get("challenger")
    if isinstance(named, str):
        labels = [b.label for b in store.bots() if b.name == named]
        challenger = labels[-1] if labels else None
    if challenger is None:
        challenger = gauntlet_challenger(rows)
    return compute_standings(rows, by=args.by, prior=args.prior, challenger=challenger,
                             sprt=sprt if challenger is not None else None,
                             sprt_decided=_decision(store, challenger), duplicate=duplicate)


def cmd_standings(args: argparse.Namespace) -> int:
    from ladder.report.tables import gaps_table, standings_table

    with _open(args.ladder) as store:
        rows, unverified = _verified_rows(store)
        st = _stored_standings(store, rows, args)
        name = store.ladder_name() or store.path.stem
        if args.json:
            out = {"ladder": name, "database": str(store.path), **st.to_json(),
                   "unverified": unverified}
            print(json.dumps(out, indent=2))
        else:
            console = _console()
            console.print(standings_table(st, title=f"{name}: standings"))
            if st.gaps:
                console.print(gaps_table(st))
        _seed_note(store)
        _warn_unverified(store, unverified)
    return EXIT_OK


def _seed_note(store: Store) -> None:
    """Standings of a ladder dealt from a given seed say, as its run did, that its deals
    were only as secret as the seed."""
    settings = store.settings() or {}
    seed = settings.get("seed")
    if isinstance(seed, int) and settings.get("sandbox", True):
        print(f"ladder: note: dealt from seed {seed}: the deals were as secret as the seed "
              f"(anyone who has it can redeal every game)", file=sys.stderr)


def _verified_rows(store: Store) -> tuple[list[GameRow], list[str]]:
    """The stored games whose columns agree with their records, and the ids of those that
    do not (left out: someone changed the database by hand)."""
    from ladder.report.audit import verified_games

    return verified_games(store)


def _warn_unverified(store: Store, unverified: list[str]) -> None:
    if not unverified:
        return
    shown = ", ".join(unverified[:20]) + (f" and {len(unverified) - 20} more"
                                         if len(unverified) > 20 else "")
    print(f"ladder: warning: {len(unverified)} stored game(s) disagree with their own "
          f"records and are left out: {shown}. 'ladder verify {store.path}' names the "
          "columns", file=sys.stderr)


def cmd_games(args: argparse.Namespace) -> int:
    from dataclasses import asdict

    from ladder.report.tables import games_table

    with _open(args.ladder) as store:
        if args.bot is not None and not any(
            b.name == args.bot or b.label == args.bot for b in store.bots()
        ):
            known = ", ".join(b.label for b in store.bots())
            raise ConfigError(f"no bot {args.bot!r} in {store.path} (bots: {known})")
        rows = store.games(bot=args.bot, faults_only=args.faults, limit=args.limit)
        if args.json:
            for r in rows:
                print(json.dumps(asdict(r)))
            return EXIT_OK
        what = "games" + (f" of {args.bot}" if args.bot else "") + \
            (" with faults" if args.faults else "")
        _console().print(games_table(rows, title=f"{len(rows)} {what}"))
        if args.faults and rows:
            _print_faults(store, rows)
    return EXIT_OK


def _print_faults(store: Store, rows: Sequence[GameRow]) -> None:
    from arena.views.report import fault_lines

    console = _console()
    for r in rows[:20]:
        log = store.record(r.game_id)
        for f in log.faults:
            for line in fault_lines(r.game_id, f, f" ({r.seats[f.seat]})"):
                console.print(line)


def cmd_report(args: argparse.Namespace) -> int:
    from ladder.rating.standings import rating_curve

    with _open(args.ladder) as store:
        rows, unverified = _verified_rows(store)
        st = _stored_standings(store, rows, args)
        stats = store.bot_stats([r.game_id for r in rows])
        name = store.ladder_name() or store.path.stem
        wants_files = args.html is not None or args.csv is not None
        curve = rating_curve(rows, by=args.by, prior=args.prior) if (
            wants_files or args.json) else []
        if args.json:
            from ladder.report.export import report_json

            print(json.dumps(report_json(name, str(store.path), st, stats, curve, unverified),
                             indent=2))
        if args.csv is not None:
            from ladder.report.export import report_tables, write_csv

            try:
                paths = write_csv(args.csv, report_tables(st, stats, curve))
            except OSError as e:  # bad input for a path, the machine for a full disk
                raise KINDS[kind_of(e)](f"{args.csv}: cannot write the CSV files: {e}") from None
            print(f"wrote {len(paths)} tables to {args.csv}: "
                  f"{', '.join(p.name for p in paths)}", file=sys.stderr)
        if args.html is not None:
            from ladder.report.html import render_report
            from ladder.report.tables import plain_caption

            page = render_report(name, st, stats, curve, caption=plain_caption(st))
            try:
                args.html.write_text(page, encoding="utf-8")
            except OSError as e:  # bad input for a path, the machine for a full disk
                raise KINDS[kind_of(e)](f"{args.html}: cannot write the page: {e}") from None
            print(f"wrote {args.html}", file=sys.stderr)
        if not (args.json or wants_files):
            _print_report(store, st, stats, rows, args.ladder)
        _warn_unverified(store, unverified)
    return EXIT_OK


def _print_report(store: Store, st: Standings, stats: Mapping[str, BotStats],
                  rows: Sequence[GameRow], ladder: str) -> None:
    from datetime import datetime

    from arena.views.report import bot_figures_table
    from ladder.report.tables import crosstable, gaps_table, history_table, los_table, standings_table

    name = store.ladder_name() or store.path.stem
    console = _console()
    console.print(standings_table(st, title=f"{name}: standings"))
    if st.gaps:
        console.print(gaps_table(st))
    if st.fit is not None and len(st.fit.ratings) > 1:
        console.print(los_table(st))
    console.print(crosstable(st))
    order = [ln.name for ln in st.lines if ln.name in stats]
    console.print(bot_figures_table([stats[n] for n in order], "per bot"))
    history = store.rating_history()
    if history:
        console.print(history_table(history, [ln.name for ln in st.lines]))
    faulted = [r for r in rows if r.faults]
    if faulted:
        console.print(f"[red]{len(faulted)} game(s) with faults[/red]; "
                      f"'ladder games {ladder} --faults' lists them")
    for run_id, started, finished, status, planned, to_play, played, conc in store.runs():
        start = datetime.fromtimestamp(started / 1000).strftime("%Y-%m-%d %H:%M:%S")
        span = f", {(finished - started) / 1000:.0f} s" if finished else ""
        count = played
        if status == "running":
            status, count = "running (or killed: the next run will tell)", "?"
        console.print(f"run {run_id}: {start}{span}, concurrency {conc}, played "
                      f"{count} of {to_play} to play ({planned} planned): {status}")


if __name__ == "__main__":
    sys.exit(main())
