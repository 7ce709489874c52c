"""arena.procs.processes against real processes: every test ends by proving nothing is left.

"Left" is checked without psutil, through /proc: every bot a test starts carries a unique
EUCHRE_TEST_MARK in its environment (inherited by its children), and the `mark` fixture
fails the test if any live process still has it, or if this test process still has a live
child (the watchdogs are its children too).
"""

from __future__ import annotations

import json
import math
import os
import re
import signal
import socket
import stat
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import NamedTuple

import pytest
import trio

from arena.procs.processes import (
    BotProcess,
    BotStartError,
    LaunchSpec,
    helper_pids,
    open_bot_pool,
)
from arena.settings.errors import ArenaBug

pytestmark = [
    pytest.mark.skipif(not sys.platform.startswith("linux"), reason="checks use /proc"),
    pytest.mark.timeout(60),
]

FIXTURES = Path(__file__).resolve().parents[1] / "proc_fixtures"


# --- looking at processes through /proc ---------------------------------------------------


def _stat(pid: int) -> tuple[str, int, int] | None:
    """(state, ppid, pgrp) of a process, or None if there is no such process."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return None
    fields = text.rpartition(")")[2].split()
    return fields[0], int(fields[1]), int(fields[2])


def alive(pid: int) -> bool:
    """Running, not a zombie: an orphan's zombie may linger if init is slow to reap it."""
    st = _stat(pid)
    return st is not None and st[0] not in ("Z", "X")


def _live_pids() -> Iterator[tuple[int, tuple[str, int, int]]]:
    for entry in os.listdir("/proc"):
        if entry.isdigit() and (st := _stat(int(entry))) and st[0] not in ("Z", "X"):
            yield int(entry), st


def ignored_signals(pid: int) -> set[int]:
    status = Path(f"/proc/{pid}/status").read_text()
    match = re.search(r"^SigIgn:\s*([0-9a-f]+)$", status, re.MULTILINE)
    assert match
    mask = int(match[1], 16)
    return {sig for sig in range(1, 65) if mask & (1 << (sig - 1))}


def pgid_of(pid: int) -> int:
    st = _stat(pid)
    assert st is not None, f"pid {pid} does not exist"
    return st[2]


def group_members(pgid: int) -> set[int]:
    return {pid for pid, st in _live_pids() if st[2] == pgid}


def marked_pids(mark: str) -> set[int]:
    needle = f"EUCHRE_TEST_MARK={mark}".encode()
    found = set()
    for pid, _ in _live_pids():
        try:
            environ = Path(f"/proc/{pid}/environ").read_bytes()
        except OSError:
            continue
        if needle in environ.split(b"\0"):
            found.add(pid)
    return found


def live_children() -> set[int]:
    """Children of this test process, but for the arena's own helper, which lives as long
    as the arena (arena.procs.processes' staging namespace, as root)."""
    return {pid for pid, st in _live_pids() if st[1] == os.getpid()} - helper_pids()


def wait_until(predicate: Callable[[], bool], timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.02)
    return predicate()


@pytest.fixture
def mark() -> Iterator[str]:
    value = uuid.uuid4().hex
    yield value
    assert marked_pids(value) == set(), "processes started by this test are still running"
    assert live_children() == set(), "this test process still has live children"


def make_spec(script: str, mark: str, **env: str) -> LaunchSpec:
    return LaunchSpec(
        name=Path(script).stem,
        argv=(sys.executable, str(FIXTURES / script)),
        cwd=FIXTURES,
        env={"EUCHRE_TEST_MARK": mark, **env},
    )


def socket_path(bot: BotProcess) -> Path:
    assert bot.address.startswith("unix:")
    return Path(bot.address.removeprefix("unix:"))


# --- starting, readiness, environment ------------------------------------------------------


def test_unix_bot_listens_with_its_env_and_cwd(tmp_path: Path, mark: str) -> None:
    """The default transport is a unix socket in a private directory; the bot gets the
    arena's env + the manifest's + the address (which the manifest cannot override), it
    has PDEATHSIG set, it shares a process group only with its watchdog (which ignores
    SIGTERM, so a stop cannot remove it early), both output streams reach one log, and a
    stop by SIGTERM leaves neither the process, nor its group, nor its socket."""
    log = tmp_path / "logs" / "listener-seat0.log"
    spec = make_spec("listener.py", mark, FIXTURE_GREETING="hi", EUCHRE_BOT_ADDRESS="bogus:0")

    async def main() -> None:
        async with open_bot_pool() as pool:
            bot = await pool.start(spec, log_path=log)
            path = socket_path(bot)
            assert len(os.fsencode(path)) < 107
            assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
            with socket.socket(socket.AF_UNIX) as s:
                s.connect(str(path))  # ready means ready
            assert bot.running and bot.returncode is None and alive(bot.pid)
            pgid = pgid_of(bot.pid)
            assert pgid != os.getpgrp()  # a terminal's Ctrl-C reaches only the arena
            assert group_members(pgid) == {pgid, bot.pid}  # the watchdog leads the group
            # the watchdog sets its handlers first thing, but under load it may not have
            # run yet when the bot listens
            deadline = time.monotonic() + 10
            while not {signal.SIGTERM, signal.SIGINT, signal.SIGHUP} <= ignored_signals(pgid):
                assert time.monotonic() < deadline, ignored_signals(pgid)
                await trio.sleep(0.02)
            assert signal.SIGTERM not in ignored_signals(bot.pid)

            assert await bot.stop() == -signal.SIGTERM
            assert not bot.running and bot.returncode == -signal.SIGTERM
            assert not alive(bot.pid) and group_members(pgid) == set()
            assert not path.exists()
            assert await bot.stop() == -signal.SIGTERM  # stopping twice is harmless
        assert not path.parent.exists()  # the pool removes its socket directory

        text = log.read_text()
        assert text.startswith("===== [arena] ")
        assert f"cwd={FIXTURES}\n" in text
        assert f"EUCHRE_BOT_ADDRESS={bot.address}\n" in text
        assert "PYTHONUNBUFFERED=1\n" in text
        assert "FIXTURE_GREETING=hi\n" in text
        assert "listener on stderr\n" in text
        assert "pdeathsig=9\n" in text
        assert text.rstrip().endswith("listener was killed by signal SIGTERM")

    trio.run(main)


def test_tcp_transport(tmp_path: Path, mark: str) -> None:
    """With transport="tcp" the bot listens on a loopback port the arena picked."""

    async def main() -> None:
        async with open_bot_pool() as pool:
            bot = await pool.start(
                make_spec("listener.py", mark), log_path=tmp_path / "t.log", transport="tcp"
            )
            match = re.fullmatch(r"127\.0\.0\.1:(\d+)", bot.address)
            assert match
            with socket.create_connection(("127.0.0.1", int(match[1])), timeout=2):
                pass
            assert await bot.stop() == -signal.SIGTERM

    trio.run(main)


def test_exit_before_listening_reports_code_and_log_tail(tmp_path: Path, mark: str) -> None:
    """A bot that dies during startup gives an error a person can act on: which bot, which
    command, its exit code, and the last ~20 lines it printed (stderr included)."""

    async def main() -> None:
        async with open_bot_pool() as pool:
            with pytest.raises(BotStartError) as info:
                # No start limit: an exit still ends the wait at once.
                await pool.start(
                    make_spec("exits_at_once.py", mark),
                    log_path=tmp_path / "x.log",
                    startup_timeout=math.inf,
                )
        message = str(info.value)
        assert message.startswith(
            "bot 'exits_at_once' failed to start: exited with code 3 before listening on unix:"
        )
        assert "exits_at_once.py" in message
        assert "fatal: cannot find strategy.bin" in message
        assert "noise line 29" in message and "noise line 5\n" not in message
        assert len([ln for ln in message.splitlines() if ln.startswith("    | ")]) == 20
        assert info.value.spec.name == "exits_at_once"

    trio.run(main)


@pytest.mark.parametrize("limit", [0.0, -1.0, math.nan])
def test_a_start_limit_must_be_a_positive_number_of_seconds(
    tmp_path: Path, mark: str, limit: float
) -> None:
    async def main() -> None:
        async with open_bot_pool() as pool:
            with pytest.raises(ValueError, match="startup_timeout must be a positive number"):
                await pool.start(
                    make_spec("listener.py", mark), log_path=tmp_path / "l.log",
                    startup_timeout=limit,
                )
            assert marked_pids(mark) == set()  # refused before anything started

    trio.run(main)


def test_never_listening_times_out(tmp_path: Path, mark: str) -> None:
    """A bot that never listens is stopped after startup_timeout with a clear message."""

    async def main() -> None:
        async with open_bot_pool() as pool:
            start = time.monotonic()
            with pytest.raises(BotStartError) as info:
                await pool.start(
                    make_spec("never_listens.py", mark),
                    log_path=tmp_path / "n.log",
                    startup_timeout=0.5,
                )
            # Its own 0.5 s limit, not the default of 10 s (the margin is for a busy machine).
            assert time.monotonic() - start < 5.0
            assert marked_pids(mark) == set()  # already gone, not only at pool exit
        message = str(info.value)
        assert re.search(r"did not listen on unix:\S+ within 0\.5 s", message)
        assert "thinking very hard" in message

    trio.run(main)


@pytest.mark.parametrize("sealed", [False, True])
def test_a_bot_listening_elsewhere_is_named_with_the_address_it_was_told(
        tmp_path: Path, mark: str, sealed: bool) -> None:
    """The message names the address in the bot's EUCHRE_BOT_ADDRESS (never the arena's
    way to it) and every address it listens on instead; more time would not help, so the
    error is not one of slowness (nobody starts it again)."""
    from arena.procs.processes import sandbox_problem
    from arena.settings.faults import StartProblem

    if sealed and sandbox_problem() is not None:
        pytest.skip(sandbox_problem())
    spec = (sealed_spec if sealed else make_spec)("listens_elsewhere.py", mark)

    async def main() -> None:
        async with open_bot_pool() as pool:
            with pytest.raises(BotStartError) as info:
                await pool.start(spec, log_path=tmp_path / "e.log", startup_timeout=1.0)
        error = info.value
        assert error.problem is StartProblem.LISTENS_ELSEWHERE and not error.slow
        told = re.search(r"\| told (\S+)", str(error))
        listening = re.search(r"\| listening on (\S+) and (\S+)", str(error))
        assert told and listening, str(error)
        if sealed:
            assert told[1] == "unix:/run/euchre/bot.sock"
        assert (f"did not listen on {told[1]} within 1 s: it listens on {listening[1]}, "
                f"{listening[2]} instead") in str(error)

    trio.run(main)


def test_unrunnable_commands_are_plain_errors(tmp_path: Path, mark: str) -> None:
    """A missing command, a non-executable file or a missing working directory is a
    BotStartError with one plain sentence, and starts nothing (not even the watchdog)."""
    not_executable = tmp_path / "bot.sh"
    not_executable.write_text("#!/bin/sh\n")
    from arena.settings.faults import StartProblem

    cases = [
        (LaunchSpec("ghost", ("no-such-bot-xyz",), FIXTURES),
         "command not found: no-such-bot-xyz is in no folder of the bot's PATH",
         StartProblem.MISSING),
        # a path is the bot's folder's, whatever the arena's own folder is
        (LaunchSpec("unbuilt", ("./build/bot",), tmp_path),
         f"command not found: ./build/bot: there is no {tmp_path}/build/bot",
         StartProblem.MISSING),
        (LaunchSpec("noexec", (str(not_executable),), FIXTURES),
         f"permission denied running {not_executable}: {not_executable} is not executable",
         StartProblem.NOT_EXECUTABLE),
        (LaunchSpec("folder", ("./",), FIXTURES), "is a folder", StartProblem.NOT_EXECUTABLE),
        (LaunchSpec("lost", ("true",), tmp_path / "missing"), "does not exist",
         StartProblem.SETUP),
    ]

    async def main() -> None:
        async with open_bot_pool() as pool:
            for spec, expected, problem in cases:
                with pytest.raises(BotStartError) as info:
                    await pool.start(spec, log_path=tmp_path / f"{spec.name}.log")
                message = str(info.value)
                assert message.startswith(f"bot {spec.name!r} could not be started: ")
                assert expected in message
                assert info.value.problem is problem and not info.value.slow
                assert "Traceback" not in message
                assert info.value.__cause__ is None
                assert live_children() == set()

    trio.run(main)


def test_bad_arguments_fail_before_anything_starts(tmp_path: Path, mark: str) -> None:
    with pytest.raises(ValueError, match="argv"):
        LaunchSpec("empty", (), FIXTURES)
    with pytest.raises(ValueError, match="env"):
        LaunchSpec("badenv", ("true",), FIXTURES, {"LEVEL": 3})  # type: ignore[dict-item]

    async def main() -> None:
        async with open_bot_pool() as pool:
            with pytest.raises(ValueError, match="transport"):
                await pool.start(
                    make_spec("listener.py", mark),
                    log_path=tmp_path / "x.log",
                    transport="carrier-pigeon",  # type: ignore[arg-type]
                )
            assert live_children() == set()
        with pytest.raises(ArenaBug, match="closed"):  # the caller's bug
            await pool.start(make_spec("listener.py", mark), log_path=tmp_path / "x.log")

    trio.run(main)


# --- logs -----------------------------------------------------------------------------------


def test_flooding_bot_is_capped_and_never_blocked(tmp_path: Path, mark: str) -> None:
    """A bot writing 50 MB to stderr before it listens still becomes ready (so the arena
    kept draining its pipe) and its log stops at the cap, with one line saying so."""
    log = tmp_path / "flood.log"
    cap = 1 << 20

    async def main() -> None:
        async with open_bot_pool() as pool:
            bot = await pool.start(make_spec("flood.py", mark), log_path=log, log_cap=cap)
            await bot.stop()

    trio.run(main)
    data = log.read_bytes()
    header_end = data.index(b"\n") + 1
    marker = f"[arena] log truncated at {cap} bytes".encode()
    assert data.count(marker) == 1
    body = data[header_end : data.index(marker)]
    assert body.endswith(b"\n") and len(body) - cap in (0, 1)  # the cap, then a newline
    assert len(data) < cap + 1024


def test_restart_appends_to_the_same_log_and_watch_sees_a_crash(tmp_path: Path, mark: str) -> None:
    """A crash is visible to the caller (running, returncode, wait), and a restart is a
    stop plus a start that appends a new run, with its own header, to the seat's log."""
    log = tmp_path / "seat1.log"
    log.write_text("an earlier arena was killed mid-li")

    async def main() -> None:
        async with open_bot_pool() as pool:
            first = await pool.start(make_spec("listener.py", mark), log_path=log)
            os.kill(first.pid, signal.SIGKILL)  # a crash, as far as the arena can tell
            assert await first.wait() == -signal.SIGKILL
            assert not first.running and first.returncode == -signal.SIGKILL
            assert await first.stop() == -signal.SIGKILL

            second = await pool.start(make_spec("listener.py", mark), log_path=log)
            assert second.pid != first.pid and second.address != first.address
            assert second.running
        assert not second.running  # the pool stopped it

    trio.run(main)
    text = log.read_text()
    assert text.startswith("an earlier arena was killed mid-li\n===== [arena] ")
    assert text.count("\n===== [arena] ") == 2
    assert "listener was killed by signal SIGKILL" in text
    assert text.rstrip().endswith("listener was killed by signal SIGTERM")


# --- stopping -------------------------------------------------------------------------------


def test_bot_ignoring_sigterm_is_killed_after_the_grace_period(tmp_path: Path, mark: str) -> None:
    async def main() -> None:
        async with open_bot_pool() as pool:
            bot = await pool.start(
                make_spec("ignores_term.py", mark), log_path=tmp_path / "i.log", grace=0.5
            )
            start = time.monotonic()
            assert await bot.stop() == -signal.SIGKILL
            assert time.monotonic() - start >= 0.5  # it had its grace period
            assert not alive(bot.pid)

    trio.run(main)


def test_grandchild_ignoring_sigterm_dies_with_the_group(tmp_path: Path, mark: str) -> None:
    pidfile = tmp_path / "grandchild.pid"

    async def main() -> None:
        async with open_bot_pool() as pool:
            bot = await pool.start(
                make_spec("spawns_grandchild.py", mark, FIXTURE_PIDFILE=str(pidfile)),
                log_path=tmp_path / "g.log",
                grace=0.3,
            )
            grandchild = int(pidfile.read_text())
            pgid = pgid_of(bot.pid)
            assert alive(grandchild) and pgid_of(grandchild) == pgid
            assert await bot.stop() == -signal.SIGKILL
            assert not alive(bot.pid) and not alive(grandchild)
            assert group_members(pgid) == set()

    trio.run(main)


def test_bot_that_exits_by_itself_takes_its_group_along(tmp_path: Path, mark: str) -> None:
    """Nothing of a dead bot lingers until the next stop: its helpers go when it goes."""
    pidfile = tmp_path / "grandchild.pid"

    async def main() -> None:
        async with open_bot_pool() as pool:
            bot = await pool.start(
                make_spec(
                    "spawns_grandchild.py",
                    mark,
                    FIXTURE_PIDFILE=str(pidfile),
                    FIXTURE_EXIT_AFTER="0.3",
                ),
                log_path=tmp_path / "e.log",
            )
            grandchild = int(pidfile.read_text())
            assert await bot.wait() == 4
            assert not bot.running and not alive(grandchild)

    trio.run(main)


def test_pool_exit_stops_its_bots_in_parallel(tmp_path: Path, mark: str) -> None:
    async def main() -> None:
        async with open_bot_pool() as pool:
            bots = [
                await pool.start(
                    make_spec("ignores_term.py", mark), log_path=tmp_path / f"{seat}.log", grace=1.0
                )
                for seat in range(4)
            ]
            start = time.monotonic()
        # One after the other would take four grace periods; together, little more than one.
        assert time.monotonic() - start < 3.0
        assert [b.returncode for b in bots] == [-signal.SIGKILL] * 4

    trio.run(main)


@pytest.mark.parametrize("how", ["error", "cancelled", "KeyboardInterrupt"])
def test_pool_cleans_up_however_it_is_left(tmp_path: Path, mark: str, how: str) -> None:
    """An exception, an outer cancellation or a KeyboardInterrupt inside the pool still
    stops every bot in order (the footer in each log shows the arena's cleanup ran)."""
    bots: list[BotProcess] = []

    async def main() -> None:
        with trio.CancelScope() as outer:
            async with open_bot_pool() as pool:
                for script in ("listener.py", "ignores_term.py"):
                    bots.append(
                        await pool.start(
                            make_spec(script, mark), log_path=tmp_path / f"{script}.log", grace=0.3
                        )
                    )
                if how == "error":
                    raise RuntimeError("boom")
                if how == "KeyboardInterrupt":
                    raise KeyboardInterrupt
                outer.cancel()  # as a timeout or a parent's cancellation would
                await trio.sleep_forever()
        assert outer.cancelled_caught

    expected = {"error": RuntimeError, "KeyboardInterrupt": KeyboardInterrupt}.get(how)
    if expected is None:
        trio.run(main)
    else:
        with pytest.raises(expected):
            trio.run(main)
    assert [b.returncode for b in bots] == [-signal.SIGTERM, -signal.SIGKILL]
    for b in bots:
        assert "[arena] " in b.log_path.read_text().splitlines()[-1]


def test_cancelled_start_leaves_nothing(tmp_path: Path, mark: str) -> None:
    async def main() -> None:
        async with open_bot_pool() as pool:
            with trio.move_on_after(0.3) as scope:
                await pool.start(make_spec("never_listens.py", mark), log_path=tmp_path / "c.log")
            assert scope.cancelled_caught
            assert marked_pids(mark) == set()

    trio.run(main)


# --- the arena dying ------------------------------------------------------------------------


class Driven(NamedTuple):
    driver: subprocess.Popen[str]
    bot_pid: int
    grandchild: int
    socket: Path
    log: Path


def _start_driver(tmp_path: Path, mark: str) -> Driven:
    """Run driver.py, an arena in miniature, until its bot (with a grandchild) is ready."""
    log = tmp_path / "kid.log"
    pidfile = tmp_path / "grandchild.pid"
    config = {
        "log_path": str(log),
        "env": {"EUCHRE_TEST_MARK": mark, "FIXTURE_PIDFILE": str(pidfile)},
    }
    driver = subprocess.Popen(
        [sys.executable, str(FIXTURES / "driver.py"), json.dumps(config)],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert driver.stdout is not None
    line = driver.stdout.readline()
    driver.stdout.close()
    assert line, "the driver exited before starting its bot"
    started = json.loads(line)
    driven = Driven(
        driver,
        started["pid"],
        int(pidfile.read_text()),
        Path(started["address"].removeprefix("unix:")),
        log,
    )
    assert alive(driven.bot_pid) and alive(driven.grandchild) and driven.socket.exists()
    return driven


def test_sigkilled_arena_leaves_no_bot_or_grandchild(tmp_path: Path, mark: str) -> None:
    """kill -9 of the arena: PDEATHSIG takes the bot, the watchdog takes the rest of its
    group (a grandchild ignoring SIGTERM) and tidies the socket and its directory away,
    within a second or two."""
    run = _start_driver(tmp_path, mark)
    pgid = pgid_of(run.bot_pid)
    assert len(group_members(pgid)) == 3  # watchdog, bot, grandchild
    run.driver.kill()
    run.driver.wait()
    assert wait_until(lambda: not group_members(pgid), timeout=2.0)
    assert not alive(run.bot_pid) and not alive(run.grandchild)
    assert not run.socket.parent.exists()
    assert "kid was killed" not in run.log.read_text()  # the arena's cleanup never ran


def test_ctrl_c_on_the_arena_stops_bots_in_order(tmp_path: Path, mark: str) -> None:
    """SIGINT to the arena process (what Ctrl-C sends) runs the shielded cleanup."""
    run = _start_driver(tmp_path, mark)
    pgid = pgid_of(run.bot_pid)
    run.driver.send_signal(signal.SIGINT)
    assert run.driver.wait(timeout=10) != 0
    assert group_members(pgid) == set()
    assert not run.socket.parent.exists()
    assert run.log.read_text().rstrip().endswith("kid was killed by signal SIGKILL")


def _trio_threads() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name.startswith("Trio thread")]


@pytest.fixture
def short_trio_thread_idle(monkeypatch: pytest.MonkeyPatch) -> None:
    """Trio's own idle threads exit after IDLE_TIMEOUT (10 s); make it 0.05 s so that a
    bot tied to such a thread by PDEATHSIG would die within the test."""
    from trio._core import _thread_cache

    assert _thread_cache.IDLE_TIMEOUT > 0  # fail loudly if trio renames it
    monkeypatch.setattr(_thread_cache, "IDLE_TIMEOUT", 0.05)


def test_pdeathsig_would_kill_a_bot_forked_from_one_of_trios_threads(
    mark: str, short_trio_thread_idle: None
) -> None:
    """The control for the next test: trio.lowlevel.open_process forks in one of trio's threads,
    and PDEATHSIG kills the child as soon as that idle thread exits, which is why
    arena.procs.processes forks in the trio thread."""
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)

    def pdeathsig() -> None:
        libc.prctl(1, signal.SIGKILL, 0, 0, 0)

    async def main() -> None:
        proc = await trio.lowlevel.open_process(
            [sys.executable, "-c", "import time; time.sleep(30)"], preexec_fn=pdeathsig
        )
        with trio.fail_after(5):
            assert await proc.wait() == -signal.SIGKILL

    trio.run(main)


def test_bot_outlives_trios_idle_threads(
    tmp_path: Path, mark: str, short_trio_thread_idle: None
) -> None:
    async def main() -> None:
        async with open_bot_pool() as pool:
            bot = await pool.start(make_spec("listener.py", mark), log_path=tmp_path / "w.log")
            for _ in range(3):  # make sure trio's threads exist, then let them all idle out
                await trio.to_thread.run_sync(time.sleep, 0.01)
            with trio.fail_after(5):
                while _trio_threads():
                    await trio.sleep(0.05)
            await trio.sleep(0.2)
            assert bot.running and alive(bot.pid)
            assert await bot.stop() == -signal.SIGTERM

    trio.run(main)


# --- the sandbox ---------------------------------------------------------------------------


def sealed_spec(script: str, mark: str, **env: str) -> LaunchSpec:
    from arena.settings.limits import Sandbox
    from arena.settings.manifest import python_runtime

    return replace(make_spec(script, mark, **env),
                   sandbox=Sandbox(read_only=tuple(python_runtime())))


def test_a_sealed_bot_sees_only_its_sandbox_and_still_stops_gracefully(
        tmp_path: Path, mark: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Its own pid namespace, a clean environment, no host files beyond its folder and
    runtime, a read-only folder, its socket at /run/euchre; and SIGTERM reaches the bot
    itself (not bwrap, which would end it with SIGKILL), so it exits in its grace."""
    from arena.procs.processes import sandbox_problem

    if sandbox_problem() is not None:
        pytest.skip(sandbox_problem())
    monkeypatch.setenv("ARENA_SECRET_SETTING", "42")  # the arena's environment: not passed on
    secret = tmp_path / "secret.txt"
    secret.write_text("the deal")
    log = tmp_path / "sealed.log"
    checkout = FIXTURES.parent.parent
    spec = sealed_spec("sealed_report.py", mark,
                       FIXTURE_PROBE=f"{secret}:{tmp_path}:{checkout}:{FIXTURES.parent}")

    async def main() -> None:
        async with open_bot_pool() as pool:
            bot = await pool.start(spec, log_path=log)
            # held by a descriptor (so no link the bot makes is followed): the socket itself
            assert bot.sandboxed and os.readlink(socket_path(bot)) == "/run/euchre/bot.sock"
            with socket.socket(socket.AF_UNIX) as s:
                s.connect(str(socket_path(bot)))
            assert await bot.stop() == 0  # it handled SIGTERM itself

    trio.run(main)
    text = log.read_text()
    assert "EUCHRE_BOT_ADDRESS=unix:/run/euchre/bot.sock, sandboxed" in text
    assert "uid=65534 " in text
    pids = re.search(r"^pids=(.*)$", text, re.M)[1].split(",")
    assert len(pids) <= 3, pids  # bwrap's init, the bot, maybe its own python helper
    env = set(re.search(r"^env=(.*)$", text, re.M)[1].split(","))
    assert "ARENA_SECRET_SETTING" not in env and "EUCHRE_TEST_MARK" in env  # the manifest's
    assert {"PATH", "HOME", "LANG", "EUCHRE_BOT_ADDRESS"} <= env
    assert "READABLE" not in text, text
    assert text.count(": blocked (") == 2
    # of the checkout, only the arena's packages, its venv and the bot's own folder
    listed = set(re.search(rf"^probe {checkout}: lists (.*)$", text, re.M)[1].split(","))
    assert listed <= {".venv", "arena", "sample_bots", "tests"}, listed
    assert f"probe {FIXTURES.parent}: lists proc_fixtures\n" in text
    assert "own folder: read-only" in text
    assert not (FIXTURES / "written-by-bot").exists()
    assert "home=/tmp tmp=[]" in text
    assert "got SIGTERM, exiting cleanly" in text


def test_a_sealed_bot_cannot_listen_on_tcp_or_run_a_command_outside(tmp_path: Path, mark: str) -> None:
    from arena.settings.limits import Sandbox

    async def main() -> None:
        async with open_bot_pool() as pool:
            with pytest.raises(BotStartError, match="no network, so it cannot listen on TCP"):
                await pool.start(sealed_spec("listener.py", mark), log_path=tmp_path / "a.log",
                                 transport="tcp")
            # the arena's Python is outside a sandbox that does not bind it
            bare = replace(make_spec("listener.py", mark), sandbox=Sandbox())
            with pytest.raises(BotStartError, match=r"is outside the sandbox.*read_only"):
                await pool.start(bare, log_path=tmp_path / "b.log")

    trio.run(main)


def test_a_child_in_a_new_session_dies_with_its_sealed_bot(tmp_path: Path, mark: str) -> None:
    """The limit of an unsealed bot (see the module docstring) is gone in a sandbox: the
    pid namespace ends every process in it when the bot's sandbox ends."""
    spec = sealed_spec("escapes.py", mark)

    async def main() -> None:
        async with open_bot_pool() as pool:
            bot = await pool.start(spec, log_path=tmp_path / "g.log")
            assert wait_until(lambda: len(marked_pids(mark)) >= 2, 5)
            await bot.stop()

    trio.run(main)
    assert wait_until(lambda: not marked_pids(mark), 5), "a process outlived its sandbox"
