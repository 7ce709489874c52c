"""One error tree by kind (arena.settings.errors): every error class of the arena derives from it
with exactly one kind, and each kind ends a command with its own status, through the real
command lines for bad input and the machine (the bot's is tests/play/test_match.py's
--fail-on-fault), through run_command itself for the arena's own bug."""

from __future__ import annotations

import errno
import importlib
import inspect
import os
import pkgutil
import resource
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from arena.cli.args import run_command
from arena.core.errors import IllegalActionError, RulesCoreError, RuleSetError
from arena.core.rules import preset
from arena.records import files as records
from arena.settings.errors import (
    DEBUG_ENV,
    EXIT_BROKEN_PIPE,
    EXIT_INTERRUPTED,
    EXIT_NO,
    EXIT_OK,
    EXIT_TERMINATED,
    KINDS,
    ArenaError,
    BadInput,
    ConfigError,
    Kind,
    MachineError,
    error_line,
    exit_status,
    kind_of,
    where,
)
from tests.helpers import play_random_game

ROOT = Path(__file__).resolve().parents[2]

EXPECTED = {
    "arena.settings.errors.ArenaError": None,
    "arena.settings.errors.BadInput": Kind.BAD_INPUT,
    "arena.settings.errors.BotError": Kind.BOT,
    "arena.settings.errors.MachineError": Kind.MACHINE,
    "arena.settings.errors.ArenaBug": Kind.BUG,
    "arena.settings.faults.BotFault": Kind.BOT,
    "arena.play.live_files.LiveFileError": Kind.BAD_INPUT,
    "arena.play.live_files.LiveFolderUnsafe": Kind.BAD_INPUT,
    "arena.procs.processes.BotProcessError": Kind.MACHINE,
    "arena.procs.processes.BotStartError": Kind.BOT,
    "arena.play.ray_executor.GameLostError": Kind.MACHINE,
    "arena.records.files.RecordError": Kind.BAD_INPUT,
    "arena.records.replay.Divergence": Kind.BAD_INPUT,
    "arena.procs.sandbox.SandboxUnavailable": Kind.MACHINE,
    "arena.procs.seccomp.SeccompUnsupported": Kind.MACHINE,
    "arena.wire.codec.MalformedMessage": Kind.BOT,
    "ladder.store.database.StoreDiskError": Kind.MACHINE,
    "ladder.store.database.StoreError": Kind.BAD_INPUT,
}
"""Every public exception class of arena/ and ladder/ (the rules core aside), with its
kind: a new one says its kind here."""


def exception_classes() -> dict[str, type[BaseException]]:
    """Every exception class defined in a module of arena/ or ladder/, found by importing
    each; private ones (_Slow...) and the rules core's (which keeps its own root) left out."""
    found: dict[str, type[BaseException]] = {}
    for package in ("arena", "ladder"):
        for info in pkgutil.walk_packages([str(ROOT / package)], f"{package}."):
            if info.name.startswith(("arena.core", "arena.wire.gen")) or info.name.endswith(
                    ".__main__"):  # `python -m`'s entry, which runs the command
                continue
            module = importlib.import_module(info.name)
            for name, obj in vars(module).items():
                if (inspect.isclass(obj) and issubclass(obj, BaseException)
                        and obj.__module__ == info.name and not name.startswith("_")
                        and name == obj.__name__):  # an alias (ConfigError) is its class
                    found[f"{info.name}.{name}"] = obj
    return found


def test_every_error_class_derives_from_the_tree_with_one_kind():
    found = exception_classes()
    # it looked
    assert "arena.settings.faults.BotFault" in found and "ladder.store.database.StoreError" in found
    roots = [name for name, cls in found.items() if not issubclass(cls, ArenaError)]
    assert roots == [], f"exception classes outside arena.settings.errors' tree: {roots}"
    for name, cls in found.items():
        kinds = [kind for kind, base in KINDS.items() if issubclass(cls, base)]
        if cls is ArenaError:
            assert kinds == []
        else:
            assert len(kinds) == 1, f"{name}: of kinds {kinds}, not exactly one"
    assert {name: getattr(cls, "whose", None) for name, cls in found.items()} == EXPECTED


def test_the_rules_core_keeps_its_own_root():
    assert not issubclass(RulesCoreError, ArenaError)
    assert kind_of(RuleSetError("no such preset")) is Kind.BAD_INPUT
    # a bot's illegal action is a fault, a record's a divergence: one reaching a command
    # line is the arena's own bug
    assert kind_of(IllegalActionError("x", "y", "z")) is Kind.BUG


def test_the_statuses_are_written_once_and_distinct():
    statuses = [k.status for k in Kind]
    assert statuses == [2, 3, 4, 5]  # 2 as argparse's usage error, and as before
    others = {EXIT_OK, EXIT_NO, EXIT_INTERRUPTED, EXIT_TERMINATED, EXIT_BROKEN_PIPE}
    assert len(others) == 5 and not others & set(statuses)
    assert ConfigError is BadInput  # the old name still raises and catches bad input
    for kind, cls in KINDS.items():
        assert exit_status(cls("x")) == kind.status


def test_the_standard_librarys_errors_get_their_kind():
    assert kind_of(FileNotFoundError(errno.ENOENT, "No such file", "x.toml")) is Kind.BAD_INPUT
    assert kind_of(PermissionError(errno.EACCES, "Permission denied", "out")) is Kind.BAD_INPUT
    assert kind_of(IsADirectoryError(errno.EISDIR, "Is a directory", "d")) is Kind.BAD_INPUT
    assert kind_of(OSError(errno.ENOSPC, "No space left on device", "db")) is Kind.MACHINE
    assert kind_of(OSError(errno.EFBIG, "File too large")) is Kind.MACHINE
    assert kind_of(OSError(errno.EIO, "Input/output error", "db")) is Kind.MACHINE
    assert kind_of(OSError("cannot listen")) is Kind.MACHINE
    assert kind_of(MemoryError()) is Kind.MACHINE
    assert kind_of(ValueError("x")) is Kind.BUG
    assert kind_of(KeyError("x")) is Kind.BUG
    assert kind_of(ArenaError("no kind")) is Kind.BUG


def test_sqlites_errors_are_the_files_or_the_disks(tmp_path):
    from ladder.store.database import Store, StoreDiskError, StoreError, unreadable

    junk = tmp_path / "junk.sqlite"
    junk.write_text("not a database " * 100)
    with pytest.raises(sqlite3.DatabaseError) as notadb:
        sqlite3.connect(junk).execute("SELECT 1 FROM sqlite_master")
    assert kind_of(notadb.value) is Kind.BAD_INPUT
    with pytest.raises(sqlite3.OperationalError) as cannot_open:
        sqlite3.connect(tmp_path / "no" / "such" / "folder.sqlite")
    assert kind_of(cannot_open.value) is Kind.BAD_INPUT
    with pytest.raises(StoreError):  # the file is wrong: bad input
        Store.open(junk)
    full = sqlite3.OperationalError("database or disk is full")
    full.sqlite_errorcode = 13  # SQLITE_FULL, as SQLite sets it
    io = sqlite3.OperationalError("disk I/O error")
    io.sqlite_errorcode = 10 | (3 << 8)  # SQLITE_IOERR_WRITE: its primary code is IOERR
    assert kind_of(full) is kind_of(io) is Kind.MACHINE
    assert isinstance(unreadable(junk, io), StoreDiskError)
    assert isinstance(unreadable(junk, notadb.value), StoreError)
    assert kind_of(sqlite3.ProgrammingError("no such column")) is Kind.BUG


def test_a_group_is_its_worst():
    assert kind_of(ExceptionGroup("g", [BadInput("a"), MachineError("b")])) is Kind.BAD_INPUT
    assert kind_of(ExceptionGroup("g", [MachineError("b"), ValueError("c")])) is Kind.BUG
    assert error_line(ExceptionGroup("g", [BadInput("a"), BadInput("b")])) == "error: a; b"


def test_a_game_that_lost_its_worker_too_often_is_the_clusters():
    """The lowest level of a lost Ray worker: the Ray executor's count of losses, told the
    same game was lost MAX_LOSSES times."""
    from arena.play.ray_executor import MAX_LOSSES, GameLostError, _Losses
    from arena.settings.spec import GameSpec

    spec = GameSpec(game_id="g1", rules=preset("standard"), seed=1, first_dealer=0,
                    seat_bots=())
    losses = _Losses()
    with pytest.raises(GameLostError) as lost:
        for _ in range(MAX_LOSSES):
            losses.count(spec)
    assert exit_status(lost.value) == Kind.MACHINE.status
    assert error_line(lost.value) == f"machine error: game g1 lost its worker {MAX_LOSSES} " \
        "times; giving up"


# --- the arena's own bug, through run_command ------------------------------------------


def _break_the_rules() -> int:
    """A bug as the arena could have one: an action the rules refuse, applied by the
    arena's own code (the core raises; nothing reaches it from outside)."""
    from arena.core.game import GameState

    game = GameState(preset("standard"), seed=1)
    wrong_seat = (game.turn + 1) % 4
    game.apply(game.legal_actions()[0], wrong_seat)
    return EXIT_OK


def test_the_arenas_bug_is_one_line_with_where_and_its_own_status(tmp_path, monkeypatch,
                                                                   capsys):
    monkeypatch.setattr("tempfile.tempdir", str(tmp_path))
    monkeypatch.delenv(DEBUG_ENV, raising=False)
    assert run_command("arena", _break_the_rules, interrupted="x") == Kind.BUG.status
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1, err
    assert err.startswith("arena: internal error, the arena's own bug")
    assert "IllegalActionError: illegal action" in err and "Traceback" not in err
    assert ", at arena/core/" in err  # the arena's innermost line, where to look
    [kept] = tmp_path.glob("arena-bug-*.txt")
    assert str(kept) in err
    assert kept.read_text().startswith("Traceback") and "_break_the_rules" in kept.read_text()

    monkeypatch.setenv(DEBUG_ENV, "1")
    assert run_command("arena", _break_the_rules, interrupted="x") == Kind.BUG.status
    err = capsys.readouterr().err
    assert err.startswith("Traceback") and "arena: internal error" in err.splitlines()[-1]


def test_where_names_the_arenas_innermost_line():
    try:
        _break_the_rules()
    except IllegalActionError as e:
        at = where(e)
    assert at is not None and at.startswith("arena/core/") and " in " in at
    assert where(ValueError("never raised")) is None


def test_run_command_gives_each_kind_its_status(capsys):
    def raising(e: BaseException):
        def body() -> int:
            raise e
        return body

    assert run_command("ladder", raising(BadInput("ladder.toml:3: seed: 'x'")),
                       interrupted="x") == 2
    assert capsys.readouterr().err == "ladder: error: ladder.toml:3: seed: 'x'\n"
    assert run_command("ladder", raising(OSError(errno.ENOSPC, "No space left on device",
                                                 "l.sqlite")), interrupted="x") == 4
    assert capsys.readouterr().err == "ladder: machine error: l.sqlite: No space left on device\n"
    assert run_command("ladder", raising(KeyboardInterrupt()), interrupted="stopped") == 130
    assert capsys.readouterr().err == "ladder: stopped\n"
    assert run_command("ladder", lambda: 7, interrupted="x") == 7
    with pytest.raises(SystemExit):  # argparse's own exit goes through untouched
        run_command("ladder", raising(SystemExit(2)), interrupted="x")


# --- through the real command lines ------------------------------------------------------


def _run(args: list[str], cwd: Path, file_limit: int | None = None
         ) -> subprocess.CompletedProcess[str]:
    """`python -m ...` as a person runs it; with `file_limit`, no file it writes may grow
    past that many bytes (RLIMIT_FSIZE, soft: the kernel's EFBIG, as a full disk fails a
    write)."""

    def limit() -> None:
        if file_limit is not None:
            _, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
            resource.setrlimit(resource.RLIMIT_FSIZE, (file_limit, hard))

    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop(DEBUG_ENV, None)
    return subprocess.run([sys.executable, "-m", *args], cwd=cwd, capture_output=True,
                          text=True, timeout=120, preexec_fn=limit, env=env)


def test_bad_input_exits_2_in_one_line(tmp_path):
    (tmp_path / "broken.toml").write_text('bots = ["random", "heuristic"\n')
    proc = _run(["ladder.cli.main", "run", "broken.toml"], tmp_path)
    assert proc.returncode == Kind.BAD_INPUT.status == 2, proc.stderr
    assert proc.stderr.startswith("ladder: error: broken.toml: not valid TOML")
    assert len(proc.stderr.strip().splitlines()) == 1 and "Traceback" not in proc.stderr
    proc = _run(["arena.cli.main", "replay", "missing.pb"], tmp_path)
    assert proc.returncode == 2 and proc.stderr == "arena: error: missing.pb: no such file or folder\n"


def test_a_full_disk_under_the_ladder_database_is_the_machines(tmp_path):
    (tmp_path / "l.toml").write_text('bots = ["random", "heuristic"]\ngames_per_pairing = 2\n'
                                     "sandbox = false\n")
    proc = _run(["ladder.cli.main", "run", "l.toml", "--quiet"], tmp_path, file_limit=8192)
    assert proc.returncode == Kind.MACHINE.status == 4, proc.stderr
    last = proc.stderr.strip().splitlines()[-1]
    assert last.startswith("ladder: machine error: database error: "), proc.stderr
    assert last.endswith("every game committed before it is stored")
    assert "Traceback" not in proc.stderr
    # the same database with room to grow: the input was never wrong
    assert _run(["ladder.cli.main", "run", "l.toml", "--quiet"], tmp_path).returncode == 0


def test_a_full_disk_under_a_page_is_the_machines(tmp_path):
    records.write(tmp_path / "game.pb", play_random_game(3, preset("standard"), ("a", "b")))
    proc = _run(["arena.cli.main", "replay", "game.pb", "--html", "page.html"], tmp_path,
                file_limit=4096)
    assert proc.returncode == Kind.MACHINE.status, proc.stderr
    assert proc.stderr == "arena: machine error: page.html: cannot write the page: File too large\n"
    proc = _run(["arena.cli.main", "replay", "game.pb", "--html", "no/such/folder/page.html"], tmp_path)
    assert proc.returncode == Kind.BAD_INPUT.status, proc.stderr
    assert proc.stderr.startswith("arena: error: no/such/folder/page.html: cannot write the page")
