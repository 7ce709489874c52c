"""Starting, watching and stopping bot processes: the only place the arena touches them.

A bot is a program the user names by a command line. It is told where to listen through
``EUCHRE_BOT_ADDRESS`` (gRPC target syntax: ``unix:/tmp/euchre-XXXX/bot-1.sock`` by default,
or ``127.0.0.1:PORT``) and the arena, elsewhere, connects to it. This module knows nothing
about gRPC or Euchre; it only promises that a bot it started is listening, that its output
is kept (and bounded), and that nothing it started outlives its stop, the pool, or the
arena itself.

The API, and the one way to do each thing::

    spec = LaunchSpec(name="alice", argv=("python", "bot.py"), cwd=Path("bots/alice"),
                      env={"LEVEL": "3"})
    async with open_bot_pool() as pool:            # owns every process it starts
        bot = await pool.start(spec, log_path=logdir / "alice-seat0.log")
        bot.address, bot.pid, bot.log_path          # where to connect, what runs, its log
        bot.running, bot.returncode                 # watch without waiting
        await bot.wait()                            # until it exits by itself
        await bot.stop()                            # SIGTERM, grace, SIGKILL, reaped
        bot = await pool.start(spec, log_path=...)  # restart = stop + start
    # leaving the pool stops whatever is still running, even on error or Ctrl-C

``pool.start`` forks in the calling trio thread (a few milliseconds, on purpose: see
`_with_pdeathsig`), which must be the main thread or an arena.threads.bridges.LoopThread's (a
bot dies with the thread that started it), and returns only once the address accepts a
connection; otherwise it raises
`BotStartError` (the message names the bot, the command, the reason and the end of its
log) and leaves nothing running. Per-process settings (``transport``, ``startup_timeout``,
``log_cap``, ``grace``) are keyword arguments of ``start``, so a slow-starting bot can be
given more time without touching the others. Why a pool and no single-bot helper: a match
keeps one process per seat across many games and restarts crashed ones, and the pipe
draining needs a nursery that outlives any one game; one bot is simply a pool of one.

Guarantees, and how each is kept:

* Stopping sends SIGTERM to the bot's whole process group, waits ``grace`` seconds for the
  bot to exit, then SIGKILLs the group, so helpers the bot spawned die with it. When a bot
  exits by itself the rest of its group is SIGKILLed at once: nothing of a dead bot lingers.
* The bot is not in the arena's process group, so a Ctrl-C at the terminal reaches only the
  arena, which then stops its bots in order (cleanup is shielded from cancellation and
  bounded in time). It gets a process group of its own rather than a session of its own
  (setsid) because the watchdog below must share its group, and a process may only join
  a group in its own session; for signals the effect is the same.
* If the arena is killed outright (``kill -9``), two independent mechanisms act. The bot has
  ``PR_SET_PDEATHSIG=SIGKILL`` (Linux), so the kernel kills it with its parent. Its
  grandchildren have no such link, so each bot's group also holds a tiny *watchdog*
  process that blocks reading a pipe whose only writer is the arena; when the arena dies
  the pipe reaches EOF and the watchdog SIGKILLs the group, itself included (after
  removing the bot's socket and, once empty, the pool's socket directory).
* The watchdog also makes group signals safe: it is the group leader (the group id is its
  pid) and the arena reaps it last, so the group id can never be reused by an unrelated
  process while the arena may still signal it.
* stdout and stderr share one pipe that the arena drains continuously into the log file
  (`_CappedLog`), up to ``log_cap`` bytes per run; the rest is read and discarded, so a flooding bot
  neither blocks nor costs the arena memory. Each run starts with a header line (time,
  command, address), so appending across restarts is readable.

* A sealed bot (``LaunchSpec.sandbox``, see arena.procs.sandbox) runs under bwrap in its own
  pid namespace: its group holds the watchdog, bwrap, the namespace's init and the bot.
  Stopping sends SIGTERM to the bot's processes but not to bwrap, whose death would end
  the namespace with SIGKILL at once; bwrap's exit status 128+N reads as signal N. Its
  socket is in the sandbox's own tmpfs, reached through /proc/PID/root, so a sealed bot
  has no host folder to write in and leaves nothing behind.

Limits, stated so nobody relies on more: an *unsealed* bot that moves a child into a new
session or process group (``setsid``, ``setpgid``) takes that child out of the arena's
reach; a sealed bot cannot, since everything in its pid namespace dies with it. With
``transport="tcp"`` the free port is found by binding port 0 and closing it, so another
program could take it before the bot does (the bot then fails to start, or in the worst
case the readiness probe reaches the wrong listener).
"""

from __future__ import annotations

import contextlib
import io
import os
import shlex
import shutil
import signal
import socket
import stat
import struct
import subprocess
import sys
import tempfile
import threading
from collections.abc import AsyncIterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from types import MappingProxyType

import trio

from arena import ADDRESS_ENV
from arena.procs import cgroups, seccomp
from arena.procs.sandbox import (
    SOCKET_DIR,
    SOCKET_NAME,
    SandboxUnavailable,
    find_bwrap,
    find_prlimit,
    host_uid,
    sandbox_argv,
    sealed_env,
    unreadable_for,
    visible_inside,
)
from arena.settings.errors import ArenaBug, BotError, MachineError
from arena.settings.faults import StartProblem
from arena.settings.limits import Sandbox, SeatLimits
from arena.settings.spec import Transport
from arena.threads.bridges import may_start_processes

__all__ = [
    "BotPool",
    "BotProcess",
    "BotProcessError",
    "BotStartError",
    "LaunchSpec",
    "Transport",
    "helper_pids",
    "open_bot_pool",
    "require_sandbox",
    "sandbox_problem",
]


# After the bot exits and its group is SIGKILLed, the group is gone and the pipe reaches
# EOF within milliseconds, unless a process escaped the group (setsid) and holds the pipe,
# or killed orphans linger as zombies under an init that does not reap; don't wait long.
_SETTLE_AFTER_EXIT = 1.0
WATCH_EVERY = 0.25
"""How often the watchdog of a bot without a cgroup measures it (arena.procs.cgroups)."""
# How long stop() waits after SIGKILL before giving up on a process the kernel won't end
# (uninterruptible sleep on a dead NFS mount and the like).
_KILL_TIMEOUT = 5.0
_CHUNK = 64 * 1024
FREEZE_WAIT = 0.05
"""Longest a call's end waits for its bot's freeze to finish (BotProcess.settle): past it
the bot is left freezing, as it soon will be, rather than the game held up."""
# AF_UNIX paths are at most 107 bytes on Linux (104 on macOS); stay well clear.
_MAX_SOCKET_PATH = 100
_TAIL_READ = 64 * 1024

# The watchdog (see the module docstring). It must not get PDEATHSIG itself: it has to
# outlive the arena long enough to see the EOF and kill the group. Its SIGTERM/SIGINT/SIGHUP
# are ignored first thing, so that a stop's SIGTERM to the group cannot remove it early.
# It only ever acts when the arena is gone (a live arena SIGKILLs it before closing the
# pipe), so it also does the arena's tidying: the bot's socket, then the pool's directory,
# which the last watchdog finds empty (a sealed bot's socket dies with its sandbox).
# Otherwise every kill -9 would leave them in /tmp. A bot frozen in its cgroup would not
# die of SIGKILL (nor of PDEATHSIG) until thawed, so the watchdog thaws it first.
_WATCHDOG_CODE = """\
import os, signal, sys
for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
    signal.signal(sig, signal.SIG_IGN)
while os.read(0, 64):
    pass
for tidy, path in zip((os.unlink, os.rmdir), sys.argv[1:3]):
    try:
        if path:
            tidy(path)
    except OSError:
        pass
for spec in sys.argv[3:]:
    path, _, value = spec.partition("=")
    try:
        with open(path, "w") as f:
            f.write(value)
    except OSError:
        pass
os.killpg(0, signal.SIGKILL)
"""

# No Python runs in a child between fork and exec (no preexec_fn), so subprocess uses
# vfork: gRPC, running in the arena, installs fork handlers that start threads in a forked
# child, and the child's closing of inherited descriptors then aborts it before exec (seen
# here: 2 to 6 bots in 30 died with SIGABRT). vfork runs no fork handlers. PDEATHSIG is
# set by util-linux's setpriv, which then execs the bot.
_SETPRIV = shutil.which("setpriv") if sys.platform.startswith("linux") else None


def _with_pdeathsig(argv: Sequence[str], uid: int | None = None) -> list[str]:
    """Tie the bot's life to the arena's: the kernel SIGKILLs it when the arena dies.

    PDEATHSIG fires when the *thread* that started the child exits, which is why the arena
    starts bots synchronously from the trio thread and never from trio's own threads
    (those exit after a few idle seconds and would take the bot with them), and why that
    trio thread must be the main thread or an arena.threads.bridges.LoopThread's: `BotPool.start`
    refuses any other (arena.threads.bridges.may_start_processes). Where setpriv is missing the
    watchdog alone ends the group when the arena dies.
    """
    if _SETPRIV is None:
        if uid is not None:
            raise SandboxUnavailable("setpriv (from util-linux) is needed to run sealed bots "
                                     "as nobody when the arena runs as root")
        return list(argv)
    # One setpriv for both: a change of uid after PDEATHSIG was set would clear it.
    as_user = [] if uid is None else [f"--reuid={uid}", f"--regid={uid}", "--clear-groups"]
    return [_SETPRIV, "--pdeathsig", "KILL", *as_user, "--", *argv]


def _sealed_argv(sandbox: Sandbox, argv: Sequence[str], cwd: Path, env: Mapping[str, str],
                 passed: list[int]) -> list[str]:
    """The whole command line of a sealed bot; `passed` holds the seccomp filter's
    descriptor and gets the options' (bwrap reads both)."""
    bwrap, uid = find_bwrap(), host_uid()

    def source(path: Path) -> Path:
        if uid is None:
            return path
        return _staging.source(uid, path, directory=path.is_dir())

    cmd = sandbox_argv(bwrap, find_prlimit(), sandbox, argv=argv, cwd=cwd, env=env,
                       seccomp_fd=passed[0], source=source)
    passed.append(_memfd("bwrap-args", cmd.options))
    staged_bwrap = str(source(Path(bwrap)))
    return [*_staging.enter(), *_with_pdeathsig(
        [staged_bwrap, *cmd.argv(passed[1])[1:]], cmd.uid)]


def _check_runnable(spec: LaunchSpec, env: Mapping[str, str], run_as: int | None = None
                    ) -> None:
    """The plain errors for a command that cannot run, found before anything starts (the
    setpriv wrapper would otherwise turn them into an exit code). A command holding a
    slash is a path from the bot's working folder (an absolute one, as {here} makes it,
    stays itself); a bare name is looked up on the bot's PATH only, as exec does, never
    in its folder. `run_as`: the host uid a sealed bot runs as, when not the arena's."""
    cmd = spec.argv[0]
    if "/" in cmd:
        path = Path(os.path.normpath(spec.cwd / cmd))
        if not path.exists():
            named = "" if os.path.isabs(cmd) else f"{cmd}: "
            raise _plain_start_error(spec, f"command not found: {named}there is no {path}",
                                     StartProblem.MISSING)
        if path.is_dir():
            raise _plain_start_error(spec, f"permission denied running {cmd}: {path} is a "
                                     "folder", StartProblem.NOT_EXECUTABLE)
        if not os.access(path, os.X_OK):
            raise _plain_start_error(spec, f"permission denied running {cmd}: {path} is not "
                                     "executable", StartProblem.NOT_EXECUTABLE)
    else:
        search = env.get("PATH", os.defpath)
        found = shutil.which(cmd, path=search)
        if found is None:
            raise _plain_start_error(spec, f"command not found: {cmd} is in no folder of the "
                                     f"bot's PATH ({search})", StartProblem.MISSING)
        path = Path(found)
    if run_as is not None and not _executable_by(path, run_as):
        # root may run any file with an execute bit; the bot's uid needs its own
        raise _plain_start_error(
            spec, f"permission denied running {cmd}: {path} may not be executed by uid "
            f"{run_as} (nobody), which sealed bots run as when the arena runs as root",
            StartProblem.NOT_EXECUTABLE)
    if spec.sandbox is not None and not visible_inside(path.absolute(), spec.sandbox, spec.cwd):
        raise _plain_start_error(
            spec,
            f"{path} is outside the sandbox: it sees only /usr, /bin, /lib*, the bot's "
            f"folder and the manifest's read_only paths (add {path.parent} to read_only)",
            StartProblem.OUTSIDE_SANDBOX,
        )


def _executable_by(path: Path, uid: int) -> bool:
    """Whether `uid`, with no groups but its own (setpriv --clear-groups), may execute
    the file at `path` by its mode (its folders are bwrap's to reach, see _Staging)."""
    try:
        st = path.stat()
    except OSError:
        return True  # gone since: exec will say so
    if st.st_uid == uid:
        return bool(st.st_mode & stat.S_IXUSR)
    if st.st_gid == uid:
        return bool(st.st_mode & stat.S_IXGRP)
    return bool(st.st_mode & stat.S_IXOTH)


_sandbox_checked: str | None = None
# bwrap's own environment. Its first process stays inside the sandbox as pid 1, where
# the bot can read /proc/1/environ: so it gets nothing of the arena's.
_BWRAP_ENV = {"PATH": "/usr/bin:/bin"}


def sandbox_problem() -> str | None:
    """None when bot sandboxes work on this machine, else one line saying why not.

    Asked once per process (a trial sandbox costs a few milliseconds): what makes it fail,
    a kernel without unprivileged user namespaces or a missing bwrap, does not change
    while the arena runs."""
    global _sandbox_checked
    if _sandbox_checked is None:
        _sandbox_checked = _try_sandbox()
    return _sandbox_checked or None


def require_sandbox(how_to_skip: str) -> None:
    """Raises SandboxUnavailable (the machine's), in one line that says why and how to go
    on without a sandbox, when bots cannot be sealed here."""
    problem = sandbox_problem()
    if problem is not None:
        raise SandboxUnavailable(
            f"cannot seal bots in a sandbox here: {problem}. To play without one (every "
            f"bot then runs with your privileges and can read what you can, and the games "
            f"are marked unsandboxed): {how_to_skip}"
        )


def _try_sandbox() -> str:
    passed: list[int] = []
    try:
        passed.append(_memfd("seccomp", seccomp.program()))
        argv = _sealed_argv(Sandbox(), ["/bin/true"], Path("/usr"), {}, passed)
        done = subprocess.run(argv, capture_output=True, timeout=30, stdin=subprocess.DEVNULL,
                              env=_BWRAP_ENV, pass_fds=passed)
    except (SandboxUnavailable, seccomp.SeccompUnsupported) as e:
        return str(e)
    except (OSError, subprocess.TimeoutExpired) as e:
        return f"bubblewrap could not be run: {e}"
    finally:
        _close_all(passed)
    if done.returncode != 0:
        why = done.stderr.decode(errors="replace").strip().splitlines()
        return f"bubblewrap cannot make a sandbox here: {why[-1] if why else done.returncode}"
    return ""


class BotProcessError(MachineError):
    """A bot process the machine would not end: not even SIGKILL ended it in time."""


class BotStartError(BotError):
    """A bot could not be made ready: its command would not run, it exited, or it did not
    listen in time (a worker rules it a fault of the bot's seat, arena.play.process_cache).
    The message is meant for a person and is complete on its own; `problem` says which
    it was, for advice that fits (arena.check.checkbot)."""

    def __init__(self, message: str, *, spec: LaunchSpec, problem: StartProblem) -> None:
        super().__init__(message)
        self.spec = spec
        self.problem = problem

    @property
    def slow(self) -> bool:
        """It ran but did not listen in time: perhaps only the machine was slow, so the
        caller may try again with more time (arena.play.process_cache)."""
        return self.problem is StartProblem.NEVER_LISTENED


@dataclass(frozen=True)
class LaunchSpec:
    """What to start, built by the caller from a bot manifest; checked here so a bad
    manifest fails at construction and not in a child process."""

    name: str
    argv: tuple[str, ...]
    cwd: Path
    env: Mapping[str, str] = field(default_factory=dict)
    sandbox: Sandbox | None = None
    """None: run with the arena's privileges and environment (trusted bots only)."""

    def __post_init__(self) -> None:
        argv = tuple(self.argv)
        if not argv or not all(isinstance(a, str) for a in argv):
            raise ValueError(f"bot {self.name!r}: argv must be a non-empty sequence of str")
        env = dict(self.env)
        if not all(isinstance(k, str) and isinstance(v, str) for k, v in env.items()):
            raise ValueError(f"bot {self.name!r}: env keys and values must be str")
        object.__setattr__(self, "argv", argv)
        object.__setattr__(self, "cwd", Path(self.cwd))
        object.__setattr__(self, "env", MappingProxyType(env))

    @property
    def command(self) -> str:
        return shlex.join(self.argv)


def describe_exit(returncode: int) -> str:
    if returncode < 0:
        try:
            return f"was killed by signal {signal.Signals(-returncode).name}"
        except ValueError:
            return f"was killed by signal {-returncode}"
    return f"exited with code {returncode}"


def _group_has_live_members(pgid: int) -> bool:
    """Whether a process of the group still runs (zombies do not count).

    Signal 0 sends nothing, so asking is safe even after the watchdog is reaped: while any
    member exists the group id stays reserved, and once none does the caller stops asking.
    But killed orphans are re-parented to init, and a container's init may take seconds to
    reap them; their zombies still answer signal 0, so on Linux /proc tells them apart.
    """
    try:
        os.killpg(pgid, 0)
    except (ProcessLookupError, PermissionError):  # PermissionError: another user's group now
        return False
    members = _group_members(pgid)
    return members is None or bool(members)


def _group_members(pgid: int) -> dict[int, int] | None:
    """The live processes of a group, as pid -> parent pid; None where /proc can't tell."""
    try:
        entries = os.listdir("/proc")
    except OSError:
        return None
    members = {}
    for entry in entries:
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as f:
                fields = f.read().rpartition(b")")[2].split()
        except OSError:
            continue
        if len(fields) > 2 and fields[2] == b"%d" % pgid and fields[0] not in (b"Z", b"X"):
            members[int(entry)] = int(fields[1])
    return members


def _ends_a_line(path: Path) -> bool:
    try:
        with open(path, "rb") as f:
            if f.seek(0, os.SEEK_END) == 0:
                return True
            f.seek(-1, os.SEEK_END)
            return f.read(1) == b"\n"
    except OSError:
        return True


def _now() -> str:
    return datetime.now().astimezone().isoformat(timespec="seconds")


async def _wait_reaped(popen: subprocess.Popen[bytes]) -> int:
    """Wait for exit without a thread: a pidfd becomes readable when the process exits.

    Trio's own Process.wait would do this too, but trio.lowlevel.open_process forks from
    one of trio's own threads, which PDEATHSIG cannot tolerate (see _with_pdeathsig).
    """
    if popen.returncode is not None:
        return popen.returncode
    pidfd = None
    if hasattr(os, "pidfd_open"):
        with contextlib.suppress(OSError):
            pidfd = os.pidfd_open(popen.pid)
    if pidfd is not None:
        try:
            await trio.lowlevel.wait_readable(pidfd)
        finally:
            trio.lowlevel.notify_closing(pidfd)
            os.close(pidfd)
        return popen.wait()
    delay = 0.005
    while (returncode := popen.poll()) is None:
        await trio.sleep(delay)
        delay = min(delay * 2, 0.1)
    return returncode


class _CappedLog:
    """One bot's log file: opened for appending, so runs follow each other in it, and
    holding at most ``cap`` bytes of the bot's output per run (the module docstring's
    promise). Output past the cap is dropped after one ``[arena] log truncated`` line; the
    arena's own lines (a run's header, its exit) are never capped, and each starts on a line
    of its own even when the bot's output, or a killed arena's, stopped mid-line.

    A failed write (disk full and the like) closes the file and the rest is dropped: the
    caller keeps draining the bot regardless. Plain blocking writes from the trio thread: a
    local log file write lands in the page cache in microseconds, and a thread hop per
    chunk would cost more. One object serves one run; a restart opens a new one.
    """

    def __init__(self, path: Path, cap: int) -> None:
        """Opens (creating its folder) or raises OSError."""
        self.path = path
        path.parent.mkdir(parents=True, exist_ok=True)
        self._file: io.FileIO | None = open(path, "ab", buffering=0)  # noqa: SIM115 - see close
        self._cap = cap
        self._written = 0  # output bytes of this run kept so far
        self._truncated = False
        self._ends_line = _ends_a_line(path)  # a killed arena may have left half a line
        self._start = 0  # where this run's output begins; see mark_start
        self._end: int | None = None  # where this run's output ended, once it has

    def write_output(self, data: bytes) -> None:
        """The bot's output, kept up to the cap of this run."""
        if self._truncated:
            return
        room = self._cap - self._written
        if len(data) <= room:
            self._write(data)
            self._written += len(data)
            return
        self._write(data[:room])
        self._written = self._cap
        self._truncated = True
        self.write_line(
            f"[arena] log truncated at {self._cap} bytes; "
            f"the rest of this run's output is discarded"
        )

    def write_line(self, line: str) -> None:
        """One line of the arena's own, on a line of its own, outside the cap."""
        prefix = b"" if self._ends_line else b"\n"
        self._write(prefix + line.encode() + b"\n")

    def _write(self, data: bytes) -> None:
        if not data or self._file is None:
            return
        try:
            self._file.write(data)
        except OSError:
            # Disk full or similar: the caller keeps draining (the bot must not block);
            # logging stops.
            self.close()
            return
        self._ends_line = data.endswith(b"\n")

    def mark_start(self) -> None:
        """This run's output begins here (after its header): `tail` reads from here on."""
        if self._file is not None:
            with contextlib.suppress(OSError):
                self._start = self._file.tell()

    def mark_end(self) -> None:
        """This run's output ended here: `tail` reads no further (not the exit line)."""
        if self._file is not None:
            with contextlib.suppress(OSError):
                self._end = self._file.tell()

    def close(self) -> None:
        file, self._file = self._file, None
        if file is not None:
            with contextlib.suppress(OSError):
                file.close()

    def tail(self, lines: int) -> str:
        """The last `lines` lines of this run's output (at most _TAIL_READ bytes of it)."""
        try:
            with open(self.path, "rb") as f:
                end = f.seek(0, os.SEEK_END) if self._end is None else self._end
                start = max(self._start, end - _TAIL_READ)
                f.seek(start)
                data = f.read(end - start)
        except OSError:
            return ""
        text = data.decode("utf-8", errors="replace").rstrip("\n")
        return "\n".join(text.splitlines()[-lines:]) if text else ""


class BotProcess:
    """One running bot (and its process group). Obtained from `BotPool.start`.

    ``returncode`` is None while the bot runs, then its exit status in `subprocess`
    convention (negative = killed by that signal). `wait` and `stop` return only once the
    whole group is gone and the log is closed, so a caller that restarts after them never
    overlaps two runs in one log or one seat.
    """

    def __init__(
        self,
        *,
        spec: LaunchSpec,
        address: str,
        told_address: str,
        log_path: Path,
        popen: subprocess.Popen[bytes],
        watchdog: subprocess.Popen[bytes],
        lifeline: int,
        output: int,
        log: _CappedLog,
        grace: float,
        socket_path: Path | None,
        group: cgroups.BotGroup | None = None,
    ) -> None:
        self.spec = spec
        self.group = group
        """A sealed bot's control group (arena.procs.cgroups); kind 'none' where there is none."""
        self._frozen = False
        self.sandboxed = spec.sandbox is not None
        self.address = address
        """Where the arena connects (for a sealed bot, its socket's descriptor)."""
        self.told_address = told_address
        """What the bot was told in EUCHRE_BOT_ADDRESS: the address every message to a
        person names, since it is the only one the bot knows."""
        self.log_path = log_path
        self.pid = popen.pid
        self._popen = popen
        self._watchdog = watchdog
        self._pgid = watchdog.pid
        self._group_reaped = False
        self._lifeline = lifeline
        self._output = trio.lowlevel.FdStream(output)
        self._log = log
        self._grace = grace
        self._socket_path = socket_path
        self._socket_fd: int | None = None  # a sealed bot's socket, held (see _find_sealed_socket)
        self._init_pid: int | None = None
        self._peer_problem: str | None = None
        self._over: str | None = None  # the limit the watchdog stopped it for
        self._returncode: int | None = None
        self._gave_up = False
        self._exited = trio.Event()  # the bot itself was reaped
        self._drained = trio.Event()  # its output pipe reached EOF
        self._closed = trio.Event()  # group reaped, log closed, socket removed
        # Shielded: once started, supervision must run to the end even if the pool's nursery
        # is cancelled, or the process would never be reaped. stop() bounds it instead.
        self._run_scope = trio.CancelScope(shield=True)
        self._drain_scope = trio.CancelScope()

    def __repr__(self) -> str:
        if self._returncode is not None:
            state = describe_exit(self._returncode)
        else:
            state = "running" if self.running else "would not die"
        return f"<BotProcess {self.spec.name!r} pid={self.pid} {self.address} {state}>"

    @property
    def running(self) -> bool:
        return self._returncode is None and not self._gave_up

    @property
    def returncode(self) -> int | None:
        return self._returncode

    async def wait(self) -> int:
        """Wait until the bot exits by itself (or is stopped) and is fully cleaned up.

        Raises `BotProcessError` only if a stop gave up on a process SIGKILL did not end.
        """
        await self._closed.wait()
        return self._result()

    @trio.lowlevel.enable_ki_protection
    async def stop(self) -> int:
        """SIGTERM the group, wait up to ``grace`` s for the bot, SIGKILL the group, reap.

        Safe to call repeatedly and after the bot has exited. Shielded: a caller being
        cancelled (Ctrl-C) must not leave a half-stopped process, and the time is bounded
        by ``grace`` plus a few seconds anyway. Returns the exit status; raises
        `BotProcessError` if even SIGKILL did not end the bot within those seconds.
        """
        with trio.CancelScope(shield=True):
            self.thaw()  # a frozen process handles no SIGTERM (and, in v1, dies only thawed)
            if self._returncode is None:
                self._terminate()
                with trio.move_on_after(self._grace):
                    await self._exited.wait()
            self._signal_group(signal.SIGKILL)
            with trio.move_on_after(_KILL_TIMEOUT):
                await self._closed.wait()
            if not self._closed.is_set():
                self._gave_up = True
                self._run_scope.cancel()
                await self._closed.wait()
        return self._result()

    def freeze(self) -> None:
        """Stops every process of a sealed bot until `thaw` (its cgroup's freezer, or
        SIGSTOP to each process of its pid namespace where there is none), so that it
        runs only while the arena waits on it. Unsealed bots are left running."""
        if (self.group is None or self.group.kind == "off" or self._frozen
                or self._returncode is not None):
            return
        self._frozen = True
        try:
            if self.group.kind == "none":
                self._signal_namespace(signal.SIGSTOP)
            else:
                self.group.freeze()
        except OSError:
            self._frozen = False

    async def settle(self) -> None:
        """Returns once a freeze has caught every process of the bot (at most
        FREEZE_WAIT): the kernel freezes a busy process only when it next catches it,
        which on a loaded machine can be milliseconds, and meanwhile the next seat may
        be deciding. A bot left running into its partner's turn would be a channel between
        them (tests/procs/test_sandbox_seal.py's contention test finds it). Polled on trio's
        clock, so other games go on while one waits."""
        group = self.group
        if not self._frozen or group is None or group.kind not in ("v1", "v2"):
            return
        with trio.move_on_after(FREEZE_WAIT):
            delay = 0.0002
            while True:
                try:
                    if group.frozen():
                        return
                except OSError:  # the bot is gone with its group
                    return
                await trio.sleep(delay)
                delay = min(delay * 2, 0.002)

    def thaw(self) -> None:
        if not self._frozen:
            return
        self._frozen = False
        assert self.group is not None
        with contextlib.suppress(OSError):
            if self.group.kind == "none":
                self._signal_namespace(signal.SIGCONT)
            else:
                self.group.thaw()

    def over_limit(self) -> str | None:
        """'memory' or 'processes' when the bot was stopped for going over that limit
        (by its cgroup, or by the watchdog where there is none), else None."""
        if self._over is not None:
            return self._over
        return None if self.group is None else self.group.over_limit()

    def seat_limits(self) -> SeatLimits | None:
        """What bounds this sealed bot and what holds it, for the records of its games
        (None unsealed)."""
        if self.spec.sandbox is None or self.group is None:
            return None
        lim = self.spec.sandbox.limits
        kind = self.group.kind
        kept_by = {"v1": "cgroup v1", "v2": "cgroup v2", "none": "watchdog"}.get(kind, kind)
        return SeatLimits(kept_by, self.group.enforced, lim.memory_mb, lim.processes,
                          lim.tmp_mb, lim.shm_mb, lim.file_size_mb, lim.open_files,
                          self.group.cpus)

    def namespace_members(self) -> list[int]:
        """The host pids of every process in the bot's pid namespace (none unsealed)."""
        init = self._init_pid
        if not self.sandboxed or init is None:
            return []
        try:
            ns = os.stat(f"/proc/{init}/ns/pid")
        except OSError:
            return []
        members = []
        for entry in os.listdir("/proc"):
            if entry.isdigit():
                try:
                    st = os.stat(f"/proc/{entry}/ns/pid")
                except OSError:
                    continue
                if (st.st_ino, st.st_dev) == (ns.st_ino, ns.st_dev):
                    members.append(int(entry))
        return members

    async def _watch_limits(self) -> None:
        """Where no cgroup holds them: the bot's memory (the resident memory of every
        process of its pid namespace, and what its /tmp and /dev/shm hold) and its
        process count, every WATCH_EVERY seconds; over either, the bot is stopped at once
        (SIGKILL to its group) and `over_limit` says which. Cancelled with the run."""
        assert self.spec.sandbox is not None
        lim = self.spec.sandbox.limits
        page = os.sysconf("SC_PAGE_SIZE")
        while True:
            await trio.sleep(WATCH_EVERY)
            if self._init_pid is None:  # frozen or not: memory held between calls counts
                continue
            members = self.namespace_members()
            used = 0
            for pid in members:
                with contextlib.suppress(OSError, ValueError, IndexError), \
                        open(f"/proc/{pid}/statm") as f:
                    used += int(f.read().split()[1]) * page
            for place in ("tmp", "dev/shm"):
                with contextlib.suppress(OSError):
                    st = os.statvfs(f"/proc/{self._init_pid}/root/{place}")
                    used += (st.f_blocks - st.f_bfree) * st.f_frsize
            # bwrap's init is in the namespace too, and the bot's processes are counted
            # against `processes` by the kernel as well (RLIMIT_NPROC per namespace)
            over = ("memory" if used > lim.memory_mb << 20
                    else "processes" if len(members) > lim.processes + 1 else None)
            if over is not None:
                self._over = over
                self._signal_group(signal.SIGKILL)
                return

    def _signal_namespace(self, sig: int) -> None:
        for pid in self.namespace_members():
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, sig)

    def log_tail(self, lines: int = 20) -> str:
        """The last lines this run wrote to its log, for error messages about a crash."""
        return self._log.tail(lines)

    def _result(self) -> int:
        if self._returncode is None:
            raise BotProcessError(
                f"bot {self.spec.name!r} (pid {self.pid}) did not exit even after SIGKILL; "
                f"giving up on it"
            )
        return self._returncode

    def _terminate(self) -> None:
        """SIGTERM to the bot's processes, for a graceful stop.

        A sealed bot's group also holds bwrap and the init of its pid namespace, which
        must not get it: bwrap would die at once and take the namespace, bot included,
        down with SIGKILL, leaving the bot no grace. So they are left out (by pid, and by
        being bwrap's children)."""
        if not self.sandboxed:
            self._signal_group(signal.SIGTERM)
            return
        if self._group_reaped:
            return
        members = _group_members(self._pgid) or {}
        spared = {self.pid, self._pgid} | {p for p, parent in members.items() if parent == self.pid}
        for pid in members.keys() - spared:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGTERM)

    def _signal_group(self, sig: int) -> None:
        # Only while the watchdog is unreaped: until then the group id cannot be reused.
        if not self._group_reaped:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self._pgid, sig)

    def _group_exists(self) -> bool:
        return _group_has_live_members(self._pgid)

    @trio.lowlevel.enable_ki_protection
    async def _run(self) -> None:
        """Supervise from spawn to cleanup; started in the pool's nursery."""
        try:
            with self._run_scope:
                async with trio.open_nursery() as nursery:
                    nursery.start_soon(self._drain)
                    if self.group is not None and self.group.kind != "off" and not {
                            "memory", "processes"} <= set(self.group.enforced):
                        nursery.start_soon(self._watch_limits)
                    self._returncode = _bot_status(await _wait_reaped(self._popen),
                                                   self.sandboxed)
                    self._exited.set()
                    self._signal_group(signal.SIGKILL)
                    await _wait_reaped(self._watchdog)
                    self._group_reaped = True
                    # SIGKILL is queued at once but a process takes a moment to finish
                    # dying; wait() promises the whole group is gone, so wait for that too.
                    with trio.move_on_after(_SETTLE_AFTER_EXIT):
                        await self._drained.wait()
                        while self._group_exists():
                            await trio.sleep(0.01)
                    self._drain_scope.cancel()
        finally:
            self._finish()

    @trio.lowlevel.enable_ki_protection
    async def _drain(self) -> None:
        # Never stop reading while the pipe is open: a bot whose pipe fills up blocks.
        with self._drain_scope:
            try:
                while data := await self._output.receive_some(_CHUNK):
                    self._log.write_output(data)
            except (trio.BrokenResourceError, trio.ClosedResourceError, OSError):
                pass
            finally:
                self._drained.set()

    def _finish(self) -> None:
        # Closing the lifeline first: if supervision was abandoned, the watchdog (if still
        # alive) takes the group down.
        with contextlib.suppress(OSError):
            os.close(self._lifeline)
        self._output.close()
        self._log.mark_end()
        if self._returncode is not None:
            exit_text = describe_exit(self._returncode)
            self._log.write_line(f"[arena] {_now()} {self.spec.name} {exit_text}")
        else:
            self._log.write_line(
                f"[arena] {_now()} {self.spec.name} (pid {self.pid}) did not exit after SIGKILL"
            )
        self._log.close()
        if self._socket_path is not None and not self.sandboxed:  # (a sandbox takes its own)
            with contextlib.suppress(OSError):
                self._socket_path.unlink()
        if self._socket_fd is not None:
            with contextlib.suppress(OSError):
                os.close(self._socket_fd)
            self._socket_fd = None
        if self.group is not None:
            self.group.close()
        self._closed.set()

    async def _wait_ready(self, timeout: float) -> tuple[StartProblem, str] | None:
        """None once the address accepts a connection, else why it never will."""
        delay = 0.01
        told = self.told_address
        with trio.move_on_after(timeout):
            while not self._exited.is_set():
                if self.sandboxed and self._socket_fd is None:
                    problem = self._find_sealed_socket()
                    if problem is not None:
                        return StartProblem.REFUSED_SOCKET, problem
                if await self._accepts_connection():
                    return None
                if self._peer_problem is not None:
                    return StartProblem.REFUSED_SOCKET, self._peer_problem
                with trio.move_on_after(delay):
                    await self._exited.wait()
                delay = min(delay * 1.5, 0.1)
            return (StartProblem.EXITED,
                    f"{describe_exit(self._returncode or 0)} before listening on {told}")
        # Not only slow when it listens somewhere else: more time would not help. A bot
        # listening on the address it was told by now (the time ran out between its bind
        # and the arena's next look) is only slow, and is given more time.
        elsewhere = self.listening_on()
        if elsewhere and told not in elsewhere:
            return (StartProblem.LISTENS_ELSEWHERE,
                    f"did not listen on {told} within {timeout:g} s: it listens on "
                    f"{', '.join(elsewhere)} instead")
        return StartProblem.NEVER_LISTENED, f"did not listen on {told} within {timeout:g} s"

    def as_told(self, text: str) -> str:
        """`text` (a connection's error, say) with the address the arena connects to
        replaced by the one the bot was told, which is all its author knows of."""
        if self.address == self.told_address:
            return text
        text = text.replace(self.address, self.told_address)
        ours, theirs = self.address.removeprefix("unix:"), self.told_address.removeprefix("unix:")
        return text.replace(ours, theirs) if ours != self.address else text

    def listening_on(self) -> list[str]:
        """The addresses the bot's processes listen on, as the bot names them (a sealed
        bot's paths are those of its sandbox): unix sockets and TCP ports. Read from
        /proc, the sockets its processes hold matched against their network namespace's
        tables; empty where /proc cannot tell."""
        if self.sandboxed:
            pids = self.namespace_members()
        else:
            pids = [p for p in (_group_members(self._pgid) or {}) if p != self._pgid]
        held: set[str] = set()
        for pid in pids:
            with contextlib.suppress(OSError):
                for fd in os.listdir(f"/proc/{pid}/fd"):
                    with contextlib.suppress(OSError):
                        link = os.readlink(f"/proc/{pid}/fd/{fd}")
                        if link.startswith("socket:["):
                            held.add(link[8:-1])
        if not held:
            return []
        return _listeners(f"/proc/{pids[0]}/net", held)

    def _find_sealed_socket(self) -> str | None:
        """A sealed bot listens in its sandbox's own SOCKET_DIR; the arena reaches it
        through /proc/PID/root of the sandbox's first process, bwrap's child, without
        following any link the bot made (see `_open_socket_beneath`). Once found, the
        socket is held by a descriptor and the address names the descriptor, so every
        later connection reaches that very socket, whatever the bot does to its folder.
        Returns why the bot cannot be reached, when it made its socket a link or other
        than a socket."""
        init = _first_child(self.pid)
        if init is None:
            return None
        self._init_pid = init
        try:
            fd = _open_socket_beneath(f"/proc/{init}/root", f"{SOCKET_DIR}/{SOCKET_NAME}")
        except _NotASocket as e:
            return str(e)
        if fd is not None:
            self._socket_fd = fd
            self._socket_path = Path(f"/proc/self/fd/{fd}")
            self.address = f"unix:{self._socket_path}"
        return None

    async def _accepts_connection(self) -> bool:
        if self.sandboxed and self._socket_fd is None:
            return False
        target: str | tuple[str, int]
        if self._socket_path is not None:
            if not self.sandboxed and not self._socket_path.exists():
                return False
            family, target = socket.AF_UNIX, os.fspath(self._socket_path)
        else:
            host, _, port = self.address.rpartition(":")
            family, target = socket.AF_INET, (host, int(port))
        sock = trio.socket.socket(family, socket.SOCK_STREAM)
        try:
            with trio.move_on_after(1.0):
                await sock.connect(target)
                if self.sandboxed:
                    self._peer_problem = self._check_peer(sock.getsockopt(
                        socket.SOL_SOCKET, socket.SO_PEERCRED, struct.calcsize("3i")))
                    return self._peer_problem is None
                return True
            return False
        except OSError:
            return False
        finally:
            sock.close()

    def _check_peer(self, cred: bytes) -> str | None:
        """The process listening on the socket must be one of this bot's sandbox (its pid
        namespace is the sandbox's first process's): a socket passed in from elsewhere,
        or a listener the bot does not own, is refused before the first call."""
        pid = struct.unpack("3i", cred)[0]
        try:
            theirs = os.stat(f"/proc/{pid}/ns/pid")
            ours = os.stat(f"/proc/{self._init_pid}/ns/pid")
        except OSError:
            return "the process listening on its socket is gone"
        if (theirs.st_dev, theirs.st_ino) != (ours.st_dev, ours.st_ino):
            return (f"its socket is served by process {pid}, which is not in the bot's "
                    f"sandbox: refused")
        return None

    def _start_failure(self, problem: StartProblem, reason: str) -> BotStartError:
        tail = self.log_tail(20)
        lines = [
            f"bot {self.spec.name!r} failed to start: {reason}",
            f"  command: {self.spec.command}",
            f"  cwd: {self.spec.cwd}",
            f"  log: {self.log_path}",
        ]
        if tail:
            lines.append("  last lines of its log:")
            lines += [f"    | {line}" for line in tail.splitlines()]
        else:
            lines.append("  its log is empty: it printed nothing")
        return BotStartError("\n".join(lines), spec=self.spec, problem=problem)


_SO_ACCEPTCON = 0x10000
"""The flag of a listening socket in /proc/net/unix."""
_TCP_LISTEN = "0A"


def _listeners(net: str, inodes: set[str]) -> list[str]:
    """The listening sockets among `inodes`, from a network namespace's tables in `net`
    (/proc/PID/net): unix ones as unix:PATH (unix-abstract:NAME), TCP ones as HOST:PORT."""
    found: list[str] = []
    with contextlib.suppress(OSError), open(f"{net}/unix") as f:
        next(f, None)
        for line in f:
            cols = line.split(maxsplit=7)
            if len(cols) < 7 or cols[6] not in inodes or not int(cols[3], 16) & _SO_ACCEPTCON:
                continue
            path = cols[7].strip() if len(cols) == 8 else ""
            if path.startswith("@"):
                found.append(f"unix-abstract:{path[1:]}")
            elif path:
                found.append(f"unix:{path}")
    for table in ("tcp", "tcp6"):
        with contextlib.suppress(OSError), open(f"{net}/{table}") as f:
            next(f, None)
            for line in f:
                cols = line.split()
                if len(cols) < 10 or cols[3] != _TCP_LISTEN or cols[9] not in inodes:
                    continue
                host, _, port = cols[1].partition(":")
                found.append(f"{_hex_host(host)}:{int(port, 16)}")
    return sorted(set(found))


def _hex_host(text: str) -> str:
    """An address of /proc/net/tcp (hex, in the kernel's byte order) as people write it."""
    raw = bytes.fromhex(text)
    if len(raw) == 4:
        return socket.inet_ntop(socket.AF_INET, raw[::-1])
    words = b"".join(raw[i:i + 4][::-1] for i in range(0, 16, 4))
    return f"[{socket.inet_ntop(socket.AF_INET6, words)}]"


class _NotASocket(Exception):
    """What a sealed bot left at its socket's place is not a socket."""


def _open_socket_beneath(root: str, relative: str) -> int | None:
    """An O_PATH descriptor of the socket at `relative` under `root`, reached without
    following any symbolic link (O_NOFOLLOW at every step), or None while it is not there.

    The arena follows exactly one link, /proc/PID/root, its own way into the sandbox. The
    rest is the bot's to make: a link it planted at its socket's place would otherwise be
    resolved against the arena's root (the host's) and could point at another bot's
    socket, or at one the bot was given by its manifest, which would then answer for it.
    Raises `_NotASocket` when something other than a socket stands there.
    """
    flags = os.O_PATH | os.O_NOFOLLOW | os.O_CLOEXEC
    parts = [p for p in relative.split("/") if p]
    try:
        fd = os.open(root, os.O_PATH | os.O_DIRECTORY | os.O_CLOEXEC)
    except OSError:
        return None
    try:
        for part in parts[:-1]:
            try:
                nxt = os.open(part, flags | os.O_DIRECTORY, dir_fd=fd)
            except NotADirectoryError:
                raise _NotASocket(f"the sandbox's {relative} is reached through a link: "
                                  f"refused") from None
            except OSError:
                return None
            os.close(fd)
            fd = nxt
        try:
            found = os.open(parts[-1], flags, dir_fd=fd)
        except OSError:
            return None
    finally:
        os.close(fd)
    mode = os.fstat(found).st_mode
    if stat.S_ISSOCK(mode):
        return found
    os.close(found)
    if stat.S_ISLNK(mode):
        raise _NotASocket(f"its socket {relative} is a symbolic link: refused (the arena "
                          f"connects only to a socket the bot made in its own sandbox)")
    return None  # a file still being made into a socket, or junk: not yet


def _first_child(pid: int) -> int | None:
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as f:
            children = f.read().split()
        return int(children[0]) if children else None
    except OSError:  # a kernel without CONFIG_PROC_CHILDREN: look the long way
        members = _group_members(os.getpgid(pid)) or {}
        return next((p for p, parent in members.items() if parent == pid), None)


def _bot_status(code: int, sandboxed: bool) -> int:
    """bwrap exits with 128 + N when the bot died of signal N; say it as subprocess would."""
    if sandboxed and 128 < code < 128 + signal.NSIG:
        return -(code - 128)
    return code


_JOIN = 'while [ "$1" != -- ]; do echo $$ >"$1" || exit 126; shift; done; shift; exec "$@"'


def _make_group(sandbox: Sandbox, cpus: str | None) -> cgroups.BotGroup:
    """The bot's control group, or one of kind 'none' (the watchdog's) where the
    hierarchy refuses."""
    lim = sandbox.limits
    try:
        return cgroups.make_group(memory_mb=lim.memory_mb, processes=lim.processes, cpus=cpus)
    except OSError:
        return cgroups.BotGroup("none")


def _joining(group: cgroups.BotGroup, argv: list[str]) -> list[str]:
    """`argv`, run by a shell that first moves itself into the bot's group: so every
    process of the bot, from bwrap on, is counted, and nothing runs before it is."""
    files = group.join_files
    if not files:
        return argv
    return ["/bin/sh", "-c", _JOIN, "sh", *map(str, files), "--", *argv]


def _memfd(name: str, data: bytes) -> int:
    """A descriptor to read `data` from, from its start (a child gets it by pass_fds)."""
    fd = os.memfd_create(name, os.MFD_CLOEXEC)
    try:
        os.write(fd, data)
        os.lseek(fd, 0, os.SEEK_SET)
    except BaseException:
        os.close(fd)
        raise
    return fd


def _close_all(fds: Sequence[int]) -> None:
    for fd in fds:
        with contextlib.suppress(OSError):
            os.close(fd)


class _Staging:
    """As root, how bwrap, running as nobody, reaches host paths nobody cannot.

    A sealed bot started by root runs as nobody on the host (arena.procs.sandbox.host_uid), and
    so does bwrap, which resolves every path it binds with nobody's rights: a Python
    under /root, or a bot's folder in a private one, would be out of its reach. (bwrap's
    --ro-bind-fd does not help: it turns the descriptor back into a path first.) So the
    arena keeps one mount namespace of its own, held by a helper process that lives as
    long as the arena (it reads a pipe only the arena writes): in it, a small tmpfs that
    anyone may pass through (0711) holds read-only bind mounts of exactly the paths
    nobody cannot reach, and bwrap starts in that namespace and binds them from there.
    The host's mounts never change, and the namespace ends with the arena, however it
    ends. Nothing becomes readable to anyone on the host."""

    def __init__(self) -> None:
        self._helper: subprocess.Popen[bytes] | None = None
        self._lifeline = -1
        # One folder on the host for every arena, always empty there: each arena mounts
        # its tmpfs over it inside its own namespace, so nothing is left behind when an
        # arena ends, however it ends.
        self._root = Path("/run/euchre-arena")
        self._staged: dict[Path, Path] = {}

    def _start(self) -> None:
        self._root.mkdir(parents=True, exist_ok=True)
        r, w = os.pipe()
        try:
            self._helper = subprocess.Popen(
                ["unshare", "--mount", "--propagation", "private", "--", "/bin/sh", "-c",
                 'mount -t tmpfs -o mode=0711,size=64k euchre-stage "$0" && echo ready && '
                 'exec cat >/dev/null', str(self._root)],
                stdin=r, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                env=_BWRAP_ENV, process_group=0,
            )
        finally:
            os.close(r)
        assert self._helper.stdout is not None
        ready = self._helper.stdout.readline()
        if ready != b"ready\n":
            why = self._helper.stderr.read().decode(errors="replace").strip() \
                if self._helper.stderr else ""
            os.close(w)
            self._helper.wait()
            self._helper = None
            raise SandboxUnavailable(f"cannot make the arena's mount namespace for sealed "
                                     f"bots run by root: {why or 'unshare failed'}")
        self._lifeline = w

    def enter(self) -> list[str]:
        """The prefix that starts a command in the staging namespace."""
        if self._helper is None:
            return []
        return ["nsenter", f"--mount=/proc/{self._helper.pid}/ns/mnt", "--"]

    def source(self, uid: int, path: Path, *, directory: bool) -> Path:
        """Where bwrap, running as `uid` in the staging namespace, finds `path`."""
        path = Path(os.path.abspath(path))
        if unreadable_for(uid, path, directory=directory, itself=True) is not None:
            raise SandboxUnavailable(
                f"{path} cannot be read by uid {uid} (nobody), which sealed bots run as when "
                f"the arena runs as root: make it readable by others (chmod o+r, and o+x "
                f"for a folder), or run the arena as an ordinary user")
        if unreadable_for(uid, path, directory=directory) is None:
            return path
        staged = self._staged.get(path)
        if staged is not None:
            return staged
        if self._helper is None:
            self._start()
        staged = self._root / str(len(self._staged))
        make = "mkdir" if directory else "touch"
        done = subprocess.run(
            [*self.enter(), "/bin/sh", "-c",
             f'{make} "$1" && mount --bind -o ro "$0" "$1"', str(path), str(staged)],
            capture_output=True, env=_BWRAP_ENV, stdin=subprocess.DEVNULL,
        )
        if done.returncode != 0:
            raise SandboxUnavailable(
                f"cannot bind {path} for a sealed bot run by root: "
                f"{done.stderr.decode(errors='replace').strip()}")
        self._staged[path] = staged
        return staged


_staging = _Staging()


def helper_pids() -> set[int]:
    """The arena's own helper processes that live as long as it does (see _Staging)."""
    helper = _staging._helper
    return set() if helper is None else {helper.pid}


def _free_tcp_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]  # typeshed: getsockname() -> Any (family-dependent)
        return port


def _plain_start_error(spec: LaunchSpec, problem: str,
                       cause: StartProblem = StartProblem.SETUP) -> BotStartError:
    return BotStartError(
        f"bot {spec.name!r} could not be started: {problem}\n  command: {spec.command}\n"
        f"  cwd: {spec.cwd}",
        spec=spec, problem=cause,
    )


def _spawn(
    spec: LaunchSpec,
    *,
    address: str,
    socket_path: Path | None,
    log_path: Path,
    log_cap: int,
    grace: float,
    cpus: str | None = None,
) -> BotProcess:
    """Start the watchdog and the bot, synchronously, in the calling (trio) thread.

    Synchronous on purpose (see _with_pdeathsig); a fork+exec costs a few milliseconds.
    A sealed bot has no `socket_path` yet: it is found inside its sandbox once it runs.
    """
    if not spec.cwd.is_dir():
        raise _plain_start_error(spec, f"working directory {spec.cwd} does not exist")
    passed: list[int] = []  # descriptors bwrap reads (and closes) as it starts
    group: cgroups.BotGroup | None = None
    if spec.sandbox is None:
        _check_runnable(spec, {**os.environ, **spec.env})
        env = {**os.environ, "PYTHONUNBUFFERED": "1", **spec.env, ADDRESS_ENV: address}
        argv = _with_pdeathsig(spec.argv)
        shown_address = address
    else:
        shown_address = f"unix:{SOCKET_DIR}/{SOCKET_NAME}"
        sealed = sealed_env(shown_address, spec.env)
        _check_runnable(spec, sealed, host_uid())
        env = _BWRAP_ENV
        try:
            passed.append(_memfd("seccomp", seccomp.program()))
            argv = _sealed_argv(spec.sandbox, spec.argv, spec.cwd, sealed, passed)
            group = _make_group(spec.sandbox, cpus)
            argv = _joining(group, argv)
        except (SandboxUnavailable, seccomp.SeccompUnsupported) as e:
            _close_all(passed)
            raise _plain_start_error(spec, f"no sandbox: {e}") from None
        except BaseException:
            _close_all(passed)
            raise
    try:
        log = _CappedLog(log_path, log_cap)  # closed by BotProcess
    except OSError as e:
        _close_all(passed)
        raise _plain_start_error(spec, f"cannot open log file {log_path}: {e.strerror}") from None

    try:
        out_r, out_w = os.pipe()
    except OSError:
        log.close()
        raise
    try:
        life_r, life_w = os.pipe()
    except OSError:
        for fd in (out_r, out_w):
            os.close(fd)
        log.close()
        raise
    watchdog = bot = None
    try:
        tidy = ["", ""] if socket_path is None else [str(socket_path), str(socket_path.parent)]
        thaw = group.thaw_file() if group is not None else None
        if thaw is not None:
            tidy.append(f"{thaw[0]}={thaw[1]}")
        watchdog = subprocess.Popen(
            [sys.executable, "-I", "-S", "-c", _WATCHDOG_CODE, *tidy],
            stdin=life_r,
            stdout=subprocess.DEVNULL,
            stderr=out_w,
            process_group=0,
        )
        try:
            bot = subprocess.Popen(
                argv,
                cwd=spec.cwd,
                env=env,
                stdin=subprocess.DEVNULL,
                stdout=out_w,
                stderr=subprocess.STDOUT,
                process_group=watchdog.pid,
                pass_fds=passed,
            )
        except FileNotFoundError:
            raise _plain_start_error(spec, f"command not found: {spec.argv[0]}",
                                     StartProblem.MISSING) from None
        except PermissionError:
            raise _plain_start_error(
                spec, f"permission denied running {spec.argv[0]} (is it executable?)",
                StartProblem.NOT_EXECUTABLE) from None
        except OSError as e:
            raise _plain_start_error(spec, f"{spec.argv[0]}: {e.strerror or e}") from None
    except BaseException:
        if watchdog is not None:
            watchdog.kill()
            watchdog.wait()
        if group is not None:
            group.close()
        for fd in (out_r, life_w):
            os.close(fd)
        log.close()
        raise
    finally:
        os.close(out_w)
        os.close(life_r)
        _close_all(passed)

    proc = BotProcess(
        spec=spec,
        address=address,
        told_address=shown_address,
        log_path=log_path,
        popen=bot,
        watchdog=watchdog,
        lifeline=life_w,
        output=out_r,
        log=log,
        grace=grace,
        socket_path=socket_path,
        group=group,
    )
    # The header doubles as the separator between runs appended to one log.
    log.write_line(
        f"===== [arena] {_now()} start {spec.name} pid {bot.pid}: {spec.command} "
        f"(cwd {spec.cwd}, {ADDRESS_ENV}={shown_address}"
        f"{', sandboxed' if spec.sandbox is not None else ', NOT sandboxed'}) ====="
    )
    log.mark_start()
    return proc


class BotPool:
    """Owns every bot it starts; get one from `open_bot_pool`."""

    def __init__(self, nursery: trio.Nursery) -> None:
        self._nursery = nursery
        self._procs: set[BotProcess] = set()
        self._socket_dir: Path | None = None
        self._counter = 0
        self._closing = False

    async def start(
        self,
        spec: LaunchSpec,
        *,
        log_path: Path,
        transport: Transport = "unix",
        startup_timeout: float = 10.0,
        log_cap: int = 1 << 20,
        grace: float = 2.0,
        cpus: str | None = None,
    ) -> BotProcess:
        """Start one bot and return it once its address accepts connections.

        A sealed bot runs in a control group of its own (arena.procs.cgroups), on `cpus` (a
        cpuset, e.g. "1") where given; the caller freezes it when it waits on nothing.

        Raises `BotStartError` (with nothing left running) if it cannot be made ready.
        ``log_cap`` bounds each run's output in ``log_path`` (appended to, never replaced);
        ``grace`` is how long `BotProcess.stop` lets it handle SIGTERM. ``startup_timeout``
        may be ``math.inf``: a bot that exits or fails still ends the wait at once, so only
        one that stays up without ever listening would be waited for forever.
        """
        if self._closing:
            raise ArenaBug("this bot pool is closed")
        if not may_start_processes():
            raise ArenaBug(
                f"bot {spec.name!r} not started from thread "
                f"{threading.current_thread().name!r}: a bot dies with the thread that "
                "started it (PDEATHSIG), so bots are started only from the main thread or "
                "an arena.threads.bridges.LoopThread's, which lives until it is closed")
        if not startup_timeout > 0:  # NaN fails too; math.inf waits as long as it takes
            raise ValueError("startup_timeout must be a positive number of seconds")
        if log_cap < 0 or grace < 0:
            raise ValueError("log_cap and grace must not be negative")
        self._counter += 1
        socket_path: Path | None = None
        if spec.sandbox is not None:
            if transport != "unix":
                raise _plain_start_error(
                    spec, "a sandboxed bot has no network, so it cannot listen on TCP: use "
                    "the unix transport, or run without the sandbox"
                )
            address = "unix:(inside its sandbox, once it runs)"
        elif transport == "unix":
            socket_path = self._make_socket_dir() / f"bot-{self._counter}.sock"
            address = f"unix:{socket_path}"
        elif transport == "tcp":
            address = f"127.0.0.1:{_free_tcp_port()}"
        else:
            raise ValueError(f"unknown transport {transport!r}; expected 'unix' or 'tcp'")

        proc = _spawn(
            spec,
            address=address,
            socket_path=socket_path,
            log_path=Path(log_path),
            log_cap=log_cap,
            grace=grace,
            cpus=cpus,
        )
        self._procs.add(proc)
        self._nursery.start_soon(self._supervise, proc)
        try:
            problem = await proc._wait_ready(startup_timeout)
        except BaseException:
            await proc.stop()
            raise
        if problem is not None:
            await proc.stop()
            raise proc._start_failure(*problem)
        return proc

    async def _supervise(self, proc: BotProcess) -> None:
        try:
            await proc._run()
        finally:
            self._procs.discard(proc)

    def _make_socket_dir(self) -> Path:
        # mkdtemp makes it 0700, so no other user can connect to (or replace) a bot's socket.
        if self._socket_dir is None:
            path = tempfile.mkdtemp(prefix="euchre-")
            if len(path) > _MAX_SOCKET_PATH - 24:  # a long $TMPDIR, as on macOS
                os.rmdir(path)
                path = tempfile.mkdtemp(prefix="euchre-", dir="/tmp")
            os.chmod(path, 0o700)
            self._socket_dir = Path(path)
        return self._socket_dir

    @trio.lowlevel.enable_ki_protection
    async def _close(self) -> None:
        self._closing = True
        try:
            with trio.CancelScope(shield=True):
                async with trio.open_nursery() as nursery:
                    for proc in list(self._procs):
                        nursery.start_soon(_stop_quietly, proc)
        finally:
            if self._socket_dir is not None:
                shutil.rmtree(self._socket_dir, ignore_errors=True)


async def _stop_quietly(proc: BotProcess) -> None:
    # At pool exit an unkillable process is already reported in its log; raising here would
    # hide whatever error is ending the pool.
    with contextlib.suppress(BotProcessError):
        await proc.stop()


@contextlib.asynccontextmanager
async def open_bot_pool() -> AsyncIterator[BotPool]:
    """A pool whose processes are all stopped when the block ends, however it ends.

    The nursery is an implementation detail, so an exception from the block comes out as
    itself, not wrapped in an ExceptionGroup: the pool's own tasks never raise, hence a
    group holding a single exception can only be carrying the block's.
    """
    unwrapped: BaseException | None = None
    try:
        async with trio.open_nursery() as nursery:
            pool = BotPool(nursery)
            try:
                yield pool
            finally:
                await pool._close()
    except BaseExceptionGroup as group:
        if len(group.exceptions) != 1:
            raise
        unwrapped = group.exceptions[0]
    if unwrapped is not None:
        # Raised outside the except clause so its __context__ stays what the caller had.
        raise unwrapped
