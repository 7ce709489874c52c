"""Command-line pieces shared by the `arena` and `ladder` commands: how a command ends
(its exit status by the kind of error, arena.settings.errors), value parsers that give one-line
errors, and the options both spell the same way. Below both CLIs, so neither imports the
other."""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
import traceback
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, fields, replace
from typing import Any

from arena.core.game import MAX_SEED
from arena.settings.errors import (
    DEBUG_ENV,
    EXIT_BROKEN_PIPE,
    EXIT_INTERRUPTED,
    ConfigError,
    Kind,
    error_line,
    kind_of,
)
from arena.settings.limits import DEFAULT_CAPS, Limits
from arena.settings.process import TRANSPORTS, ProcessSettings
from arena.settings.rule_sets import NAMED_RULES
from arena.settings.spec import EXECUTORS, LOCAL, Executor, FaultPolicy, TimeControl, require_ray


def run_command(prog: str, body: Callable[[], int], *, interrupted: str) -> int:
    """Runs a command and gives its exit status: the body's own, or the kind's of the
    error it stopped on (arena.settings.errors), said in one line on stderr and never as a stack
    trace. The arena's own bug says so, with the line of the arena it came from, and
    leaves its traceback in a file (printed too with ARENA_DEBUG=1). Ctrl-C says
    `interrupted` and exits 130; a reader gone (a pipe into `head`) ends quietly, 141."""
    try:
        return body()
    except KeyboardInterrupt:
        print(f"{prog}: {interrupted}", file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:  # output piped into `head` and the like
        return reader_gone()
    except Exception as e:
        kind = kind_of(e)
        line = error_line(e)
        if kind is Kind.BUG:
            line += _bug_report(prog, e)
        print(f"{prog}: {line}", file=sys.stderr)
        return kind.status


def _bug_report(prog: str, e: BaseException) -> str:
    """Writes the bug's traceback to a file (and stderr with ARENA_DEBUG=1); the rest of
    the bug's line, saying where it is."""
    text = "".join(traceback.format_exception(e))
    if os.environ.get(DEBUG_ENV, "") not in ("", "0"):
        print(text, file=sys.stderr, end="")
    try:
        fd, path = tempfile.mkstemp(prefix=f"{prog}-bug-{time.strftime('%Y%m%d-%H%M%S')}-",
                                    suffix=".txt")
        with os.fdopen(fd, "w") as f:
            f.write(text)
    except OSError:
        return f". Run it again with {DEBUG_ENV}=1 for the traceback, and please report it"
    return f". The traceback is in {path}: please report it"


def reader_gone() -> int:
    """After BrokenPipeError (the output piped to `head`, which has read enough): stop
    quietly, as Unix tools do, and keep the interpreter's own last flush from raising
    again at exit."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    return EXIT_BROKEN_PIPE


def positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    return value


def seed_arg(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if not 0 <= value <= MAX_SEED:
        raise argparse.ArgumentTypeError("a seed is a whole number from 0 to 2**63-1")
    return value


def seconds_arg(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if not value > 0:
        raise argparse.ArgumentTypeError("must be more than 0 seconds")
    return value


def add_time_options(p: argparse.ArgumentParser) -> None:
    d = TimeControl()
    p.add_argument("--per-decision", type=seconds_arg, default=d.per_decision, metavar="SECONDS",
                   help=f"longest one decision may take (default {d.per_decision})")
    p.add_argument("--bank", type=seconds_arg, default=d.bank, metavar="SECONDS",
                   help=f"time for all of one seat's decisions in a game (default {d.bank})")
    p.add_argument("--on-fault", choices=[f.value for f in FaultPolicy], default="forfeit",
                   help="a faulting bot's team forfeits the game (default), or a random "
                   "legal action is played in its place and the game goes on")


def add_rules_option(p: argparse.ArgumentParser, *, repeat: bool) -> None:
    """--rules with the same names for every command: the presets, then the rule sets
    check-bot plays besides them (arena.settings.rule_sets)."""
    names = ", ".join(NAMED_RULES)
    if repeat:
        p.add_argument("--rules", action="append", choices=list(NAMED_RULES), metavar="RULES",
                       help=f"check only this rule set (repeatable): {names} (default: all)")
    else:
        p.add_argument("--rules", default="standard", choices=list(NAMED_RULES),
                       metavar="RULES", help=f"the rule set: {names} (default standard)")


@dataclass(frozen=True)
class ProcessOption:
    """One option of the process settings (arena.settings.process), defined once for
    every command that has it. It sets the field `setting` and defaults to None (not
    given), so that a command applies it over settings of its own: the defaults of
    ProcessSettings for a match, a ladder file's keys of the same names for a ladder."""

    setting: str
    """The ProcessSettings field it sets; a ladder file's key of the same name."""
    flag: str
    help: str
    kwargs: Mapping[str, Any] = field(default_factory=dict)
    """The rest of add_argument's arguments (type, metavar, action...)."""


def _default(setting: str) -> Any:
    return {f.name: f.default for f in fields(ProcessSettings)}[setting]


def limit_arg(text: str) -> tuple[str, int]:
    """NAME=N for --limit: a field of arena.settings.limits.Limits and a whole number."""
    name, eq, value = text.partition("=")
    names = Limits.names()
    if not eq or name not in names:
        raise argparse.ArgumentTypeError(f"expected NAME=N with NAME one of {', '.join(names)}, "
                                         f"not {text!r}")
    try:
        number = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{name}: not a whole number: {value!r}") from None
    if number < 1:
        raise argparse.ArgumentTypeError(f"{name}: must be at least 1, not {number}")
    return name, number


PROCESS_OPTIONS: tuple[ProcessOption, ...] = (
    ProcessOption(
        "transport", "--transport",
        "where bots listen: a unix socket in a private folder (default) or loopback TCP "
        "(needs --no-sandbox: a sealed bot has no network)",
        {"choices": list(TRANSPORTS)}),
    ProcessOption(
        "start_limit", "--start-limit",
        f"how long a bot process may take to listen on its address (default "
        f"{_default('start_limit'):g}; a manifest's startup_timeout wins)",
        {"type": seconds_arg, "metavar": "SECONDS"}),
    ProcessOption(
        "grace", "--grace",
        f"how long a bot has to exit after SIGTERM before it is killed (default "
        f"{_default('grace'):g})",
        {"type": seconds_arg, "metavar": "SECONDS"}),
    ProcessOption(
        "sandbox", "--no-sandbox",
        "run bots unsealed, with your privileges and environment (trusted bots only; games "
        "are marked unsandboxed). By default each bot process runs sealed: no network, no "
        "other process, only its own folder",
        {"action": "store_const", "const": False}),
    ProcessOption(
        "limits", "--limit",
        "a cap for every sealed bot, NAME=N, repeatable: "
        + ", ".join(f"{n} (default {getattr(DEFAULT_CAPS, n)})" for n in Limits.names())
        + "; a manifest's own [limits] ask for less, never more",
        {"type": limit_arg, "action": "append", "metavar": "NAME=N"}),
    ProcessOption(
        "fresh_processes", "--fresh-processes",
        "new bot processes for every game (default: processes are kept, the two halves of a "
        "duplicate pair never sharing one)",
        {"action": "store_const", "const": True}),
)
"""Every option of the process settings, in the order --help shows them."""


def add_process_options(p: argparse.ArgumentParser, *,
                        only: Sequence[str] | None = None,
                        leave_out: Sequence[str] = ()) -> None:
    """The process options (PROCESS_OPTIONS), or those of `only`, less `leave_out`."""
    for option in PROCESS_OPTIONS:
        if (only is None or option.setting in only) and option.setting not in leave_out:
            p.add_argument(option.flag, dest=option.setting, default=None, help=option.help,
                           **option.kwargs)


def process_settings(args: argparse.Namespace, base: ProcessSettings) -> ProcessSettings:
    """`base` with the process options given on the command line; ConfigError for what
    cannot be done (--transport tcp with sealed bots)."""
    given = {o.setting: getattr(args, o.setting) for o in PROCESS_OPTIONS
             if getattr(args, o.setting, None) is not None}
    if "limits" in given:
        given["limits"] = replace(base.limits, **dict(given["limits"]))
    transport = given.get("transport", base.transport)
    if transport == "tcp" and given.get("sandbox", base.sandbox):
        raise ConfigError("--transport tcp: a sandboxed bot has no network, so it cannot "
                          "listen on TCP; use the unix transport, or add --no-sandbox")
    return replace(base, **given)


def add_executor_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--executor", choices=EXECUTORS, default=None,
                   help="where games run: 'local', in this process (default), or 'ray', on "
                   "worker processes of a Ray cluster (pip install 'euchre-arena[ray]')")
    p.add_argument("--ray-address", default=None, metavar="ADDRESS",
                   help="a running Ray cluster (as 'ray start --head' prints it, or 'auto'); "
                   "default: a cluster of this machine alone, started for the run")


def executor_from_args(args: argparse.Namespace) -> Executor:
    """The executor --executor and --ray-address ask for (local when neither is given);
    ConfigError for an address without Ray, MachineError for Ray where it is not
    installed."""
    kind = args.executor or ("ray" if args.ray_address is not None else "local")
    if args.ray_address is not None and kind != "ray":
        raise ConfigError("--ray-address: the games run on Ray only with --executor ray")
    if kind == "ray":
        require_ray()
        return Executor("ray", address=args.ray_address)
    return LOCAL


WATCH_WAIT = 5.0
"""Seconds a watcher waits for a game to start before saying nothing is being played."""


def add_watch_options(p: argparse.ArgumentParser) -> None:
    """`arena watch` and `ladder watch`."""
    p.add_argument("--seat", type=int, choices=range(6), default=None, metavar="N",
                   help="show only what seat N may see: its view, exactly as its bot is "
                   "given it (default: every seat's cards)")
    p.add_argument("--game", default=None, metavar="ID",
                   help="follow this game (its id, as 'ladder games' and the frames show "
                   "it) and stop when it ends (default: the game in progress that started "
                   "last, then the next, and so on)")
    p.add_argument("--wait", type=seconds_arg, default=WATCH_WAIT, metavar="SECONDS",
                   help="how long to wait for a game to start before saying that nothing "
                   f"is being played and exiting (default {WATCH_WAIT:g}; inf: forever)")
