"""Errors of the arena above the rules core: one tree, by whose the trouble is, and the
exit status of each kind, written here and nowhere else.

    ArenaError            the base of every error the arena raises on purpose
    ├── BadInput       2  a person's input is wrong: a file, a setting, an argument; the
    │                     message says where and what to change (ConfigError, its old name)
    ├── BotError       3  a bot broke the protocol or could not be made ready
    ├── MachineError   4  the machine or the cluster: a full disk, a sandbox that cannot be
    │                     made, a lost Ray worker
    └── ArenaBug       5  the arena's own bug, where the arena catches itself

Every command line gives an error that reaches it the status of its kind and one line on
stderr, never a stack trace (arena.cli.args.run_command). Anything else that escapes is
the arena's bug too: status 5, one line saying so and where, its traceback in a file
(and on stderr with ARENA_DEBUG=1). Errors of the standard library get their kind from
kind_of(): an OSError about a path (missing, not allowed, a folder for a file) is bad
input, any other the machine's (a full disk, an I/O error); a SQLite error is the
machine's when the disk failed it, bad input when the file is no good database.

The rules core keeps its own root (arena.core.errors.RulesCoreError: the core imports
nothing of the arena). A RuleSetError is bad input; an IllegalActionError that reaches a
command line is the arena's bug, since a bot's illegal action is a fault ruled in the game
loop and a record's a Divergence.

Faults of bots are results, not errors: see arena.settings.faults. A command's own answer is not
an error either: 1 when it is no (a check failed, a record diverges, nothing to watch).
"""

from __future__ import annotations

import errno
import os
from enum import Enum
from typing import ClassVar


class Kind(Enum):
    """Whose an error is; its value is the exit status a command line gives it."""

    BAD_INPUT = 2
    BOT = 3
    MACHINE = 4
    BUG = 5

    @property
    def status(self) -> int:
        return self.value

    @property
    def means(self) -> str:
        """What the status means, as every command's --help and the README say it."""
        return _MEANS[self]


_MEANS = {
    Kind.BAD_INPUT: "bad input (a file, a setting, an argument; also a usage error)",
    Kind.BOT: "a bot's fault",
    Kind.MACHINE: "the machine or the cluster (a full disk, a sandbox that cannot be "
                  "made, a lost Ray worker)",
    Kind.BUG: "the arena's own bug (one line says where; please report it)",
}

EXIT_OK = 0
EXIT_NO = 1
"""The command's answer is no: a check failed, a record diverges, nothing to watch."""
EXIT_INTERRUPTED = 130
"""Stopped by Ctrl-C (128 + SIGINT)."""
EXIT_TERMINATED = 143
"""Stopped by SIGTERM (128 + SIGTERM)."""
EXIT_BROKEN_PIPE = 141
"""What a Unix tool's shell status is when its reader went away (128 + SIGPIPE)."""

DEBUG_ENV = "ARENA_DEBUG"
"""Set to 1, the arena's own bug prints its traceback on stderr too."""


class ArenaError(Exception):
    """Base of every error the arena raises on purpose; `whose` is its kind (named so
    beside BotFault.kind, the kind of a fault)."""

    whose: ClassVar[Kind]


class BadInput(ArenaError):
    """Bad input from a person; the message says where and what to change."""

    whose = Kind.BAD_INPUT


ConfigError = BadInput
"""The name bad input had first (a manifest, a ladder file, a command-line value)."""


class BotError(ArenaError):
    """A bot broke the protocol or could not be made ready. In a game this is a fault,
    ruled against the bot's seat (arena.settings.faults); as an error only where no game rules it."""

    whose = Kind.BOT


class MachineError(ArenaError):
    """The machine or the cluster failed the arena: a full disk, a sandbox that cannot be
    made, a Ray worker lost or a node that cannot play. The input may be fine."""

    whose = Kind.MACHINE


class ArenaBug(ArenaError):
    """The arena caught itself breaking its own promise (a caller using a closed pool, a
    state that cannot be): its bug, to be reported."""

    whose = Kind.BUG


KINDS: dict[Kind, type[ArenaError]] = {
    Kind.BAD_INPUT: BadInput, Kind.BOT: BotError, Kind.MACHINE: MachineError, Kind.BUG: ArenaBug,
}
"""The class of each kind: every error of the arena derives from exactly one."""


# --- what the standard library's errors are ------------------------------------------

_PATH_ERRNOS = frozenset({
    errno.ENOENT, errno.ENOTDIR, errno.EISDIR, errno.EACCES, errno.EPERM, errno.EEXIST,
    errno.ENAMETOOLONG, errno.ELOOP, errno.ENOTEMPTY,
})
"""An OSError naming a file with one of these is about the path: someone's input."""

# SQLite's primary result codes (sqlite3.h): the disk's, and the file's.
_SQLITE_MACHINE = frozenset({
    5,   # SQLITE_BUSY: another process holds the file past the timeout
    7,   # SQLITE_NOMEM
    8,   # SQLITE_READONLY: the file or its folder cannot be written
    10,  # SQLITE_IOERR
    13,  # SQLITE_FULL: database or disk is full
    15,  # SQLITE_PROTOCOL: the locking protocol failed
    22,  # SQLITE_NOLFS
})
_SQLITE_INPUT = frozenset({
    11,  # SQLITE_CORRUPT: database disk image is malformed
    14,  # SQLITE_CANTOPEN: unable to open database file (a path that is not there)
    26,  # SQLITE_NOTADB: file is not a database
})


def kind_of(exc: BaseException) -> Kind:
    """The kind of any exception: the arena's own by its class, the standard library's by
    what it says (an OSError's errno, a SQLite error's code), the rules core's by its
    class; anything else is the arena's bug. A group is its worst: the bug if any of it
    is one, else the kind of its first."""
    if isinstance(exc, BaseExceptionGroup):
        kinds = [kind_of(e) for e in exc.exceptions]
        return Kind.BUG if Kind.BUG in kinds or not kinds else kinds[0]
    if isinstance(exc, ArenaError):
        whose: Kind | None = getattr(exc, "whose", None)
        return Kind.BUG if whose is None else whose  # ArenaError itself has no kind
    if isinstance(exc, OSError):
        if exc.filename is not None and exc.errno in _PATH_ERRNOS:
            return Kind.BAD_INPUT
        return Kind.MACHINE
    if isinstance(exc, MemoryError):
        return Kind.MACHINE
    import sqlite3

    if isinstance(exc, sqlite3.Error):
        code = getattr(exc, "sqlite_errorcode", None)
        primary = None if code is None else code & 0xFF
        if primary in _SQLITE_MACHINE:
            return Kind.MACHINE
        if primary in _SQLITE_INPUT or isinstance(exc, sqlite3.NotSupportedError):
            return Kind.BAD_INPUT
        return Kind.BUG
    from arena.core.errors import RuleSetError

    if isinstance(exc, RuleSetError):
        return Kind.BAD_INPUT
    return Kind.BUG  # an IllegalActionError among them


def exit_status(exc: BaseException) -> int:
    """The exit status a command line gives `exc`: its kind's."""
    return kind_of(exc).status


def error_line(exc: BaseException) -> str:
    """What a command line prints of an error it stops on: one line, its kind first
    (bad input says only "error:", as argparse does)."""
    kind = kind_of(exc)
    if kind is Kind.BUG:
        return (f"internal error, the arena's own bug (not your input's, a bot's or the "
                f"machine's): {_said(bug_leaf(exc), with_type=True)}{_where(exc)}")
    prefix = {Kind.BAD_INPUT: "error", Kind.BOT: "bot error", Kind.MACHINE: "machine error"}
    return f"{prefix[kind]}: {_said(exc)}"


def bug_leaf(exc: BaseException) -> BaseException:
    """The exception to blame in a bug: a group's first that is a bug, else `exc`."""
    while isinstance(exc, BaseExceptionGroup):
        exc = next((e for e in exc.exceptions if kind_of(e) is Kind.BUG), exc.exceptions[0])
    return exc


def where(exc: BaseException) -> str | None:
    """'arena/play/runner.py:123 in run_games': the innermost line of the arena's own code that
    `exc` passed through (else the innermost line of all), or None without a traceback."""
    import traceback

    tb = bug_leaf(exc).__traceback__
    if tb is None:
        return None
    frames = traceback.extract_tb(tb)
    ours = [f for f in frames if _ours(f.filename)] or frames
    f = ours[-1]
    return f"{_shown(f.filename)}:{f.lineno} in {f.name}"


def _where(exc: BaseException) -> str:
    at = where(exc)
    return f", at {at}" if at else ""


_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.realpath(__file__))))
_PACKAGES = ("arena", "ladder", "sample_bots")


def _ours(filename: str) -> bool:
    relative = os.path.relpath(os.path.realpath(filename), _ROOT)
    return relative.split(os.sep)[0] in _PACKAGES


def _shown(filename: str) -> str:
    return os.path.relpath(filename, _ROOT) if _ours(filename) else filename


def _said(exc: BaseException, *, with_type: bool = False) -> str:
    """One line of what `exc` says."""
    if isinstance(exc, BaseExceptionGroup):
        return "; ".join(_said(e, with_type=with_type) for e in exc.exceptions)
    import sqlite3

    if isinstance(exc, OSError) and exc.strerror:
        text = f"{exc.filename}: {exc.strerror}" if exc.filename is not None else exc.strerror
    elif isinstance(exc, sqlite3.Error):
        text = f"database error: {exc}"
    else:
        text = str(exc)
    text = " ".join(text.split()) or type(exc).__name__
    return f"{type(exc).__name__}: {text}" if with_type and not isinstance(exc, ArenaError) \
        else text


def exit_status_help(ok: str, *, no: str | None = None, bot: str | None = None,
                     stopped: str | None = "") -> str:
    """The "Exit status:" paragraph of a command's --help: `ok` says what 0 means for it,
    `no` what 1 means (if it can say no), `bot` when 3 comes of something besides a bot's
    error, `stopped` what is kept when Ctrl-C or SIGTERM stops it (None: a command that
    takes Ctrl-C as its end, saying so in `ok`)."""
    parts = [f"0 {ok}"]
    if no is not None:
        parts.append(f"1 {no}")
    for kind in Kind:
        extra = f" ({bot})" if kind is Kind.BOT and bot else ""
        parts.append(f"{kind.status} {kind.means}{extra}")
    if stopped is not None:
        parts.append(f"{EXIT_INTERRUPTED} stopped by Ctrl-C, {EXIT_TERMINATED} by "
                     f"SIGTERM{stopped}")
    return "Exit status: " + "; ".join(parts) + "."
