"""A hostile bot of the second round, for tests/procs/test_sandbox_seal.py: `python channels.py MODE`.

Like tests/bots/hostile.py it plays legal moves at random (never alone) and reports each
attempt on stdout, one line each: `ATTEMPT <what>: BLOCKED <why>` or `ATTEMPT <what>:
LEAK <what it got>`. Modes (each tried at its process's first StartGame unless said):

  locks        the lock channel: at every StartGame and Decide, take a POSIX read lock on
               one byte of files every sandbox can read (its own folder's script, the
               Python binary, /usr/bin/env) and ask F_GETLK whether any *other* process
               holds a lock there (POSIX locks never conflict with their own process, so
               anything seen is another bot's); and check, with a child process, that
               flock and OFD locks leave state another process can see; try inotify
  sysctl       open every /proc/sys entry for writing (writing nothing), and read
               root-only.txt in its folder (the test makes it 0600, the host root's)
  forkbomb     start sleeping processes until the kernel refuses (at most 400); report
               how many ran at once
  shm          write /dev/shm full, 8 MiB at a time (at most 1 GiB)
  link-before  make its socket a symbolic link to CHANNELS_TARGET (a socket of the
               test's on the host) before listening, then listen at bot2.sock beside it
               (never where the arena looks); `link-relative` the same with the link
               relative ("bot2.sock")
  link-after   listen as usual, then at StartGame replace its socket with a link to
               CHANNELS_TARGET
  memsum       at its 3rd decision, start 3 processes that each write CHANNELS_MB MiB
               and hold it, and report what they reached
  cpuhog       from its first StartGame on, keep CHANNELS_SPIN processes busy all the
               time (to starve whoever else runs)
  contend      the contention channel between partners: the lower seat of the team
               sends a bit per decision (a pseudo-random sequence both know) by leaving
               two busy processes running after it answers (1) or none (0), and says
               `SEND <monotonic ns> <bit>`; its partner, at each of its decisions, counts
               how far it gets in a busy loop of 20 ms and says `RECV <monotonic ns> <n>`
"""

from __future__ import annotations

import contextlib
import ctypes
import errno
import fcntl
import os
import random
import secrets
import signal
import struct
import subprocess
import sys
import time

from arena.core.actions import ActionKind
from arena.sdk import Bot, run

MODE = sys.argv[1] if len(sys.argv) > 1 else "locks"
TOKEN = secrets.token_hex(8)
SOCKET_DIR = "/run/euchre"


def say(line: str) -> None:
    print(line.replace("\n", "\\n"), flush=True)


def blocked(what: str, why: str) -> None:
    say(f"ATTEMPT {what}: BLOCKED {why}")


def leak(what: str, got: str) -> None:
    say(f"ATTEMPT {what}: LEAK {got}")


def why(e: BaseException) -> str:
    if isinstance(e, OSError) and e.errno is not None:
        return f"{errno.errorcode.get(e.errno, e.errno)}"
    return f"{type(e).__name__}: {e}"


def attack(fn, *args) -> None:
    try:
        fn(*args)
    except Exception as e:  # a bug in an attack is reported, neither blocked nor a leak
        say(f"ATTEMPT {fn.__name__}: ERROR {why(e)}")


# --- locks ----------------------------------------------------------------------------

SHARED = [os.path.abspath(__file__), os.path.realpath(sys.executable), "/usr/bin/env"]
_FLOCK = "hhqqi"  # struct flock on x86-64 and arm64: type, whence, start, len, pid
_held: list = []  # open files whose locks must last as long as the process


def _getlk(fd: int, cmd: int) -> tuple[int, int, int]:
    got = fcntl.fcntl(fd, cmd, struct.pack(_FLOCK, fcntl.F_WRLCK, 0, 0, 0, 0))
    kind, _, start, _, pid = struct.unpack(_FLOCK, got)
    return kind, start, pid


def lock_and_look(when: str) -> None:
    mine = 1 + int(TOKEN, 16) % 4096  # the byte this process marks
    for path in SHARED:
        what = f"see another process's lock on {os.path.basename(path)} ({when})"
        f = open(path, "rb")  # noqa: SIM115 - held open: closing drops the locks
        _held.append(f)
        try:
            fcntl.fcntl(f, fcntl.F_SETLK, struct.pack(_FLOCK, fcntl.F_RDLCK, 0, mine, 1, 0))
        except OSError as e:
            blocked(what, f"F_SETLK failed: {why(e)}")
            continue
        kind, start, pid = _getlk(f.fileno(), fcntl.F_GETLK)
        if kind != fcntl.F_UNLCK:
            leak(what, f"a lock at byte {start} held by pid {pid}")
        else:
            blocked(what, "no lock but mine is there (F_GETLK)")


def lock_state_in_a_child() -> None:
    """Each kind of lock, taken here, looked for from a child (another lock owner)."""
    path = SHARED[-1]
    f_posix, f_flock, f_ofd = (open(path, "rb") for _ in range(3))  # noqa: SIM115
    _held.extend((f_posix, f_flock, f_ofd))
    F_OFD_GETLK, F_OFD_SETLK = 36, 37
    fcntl.fcntl(f_posix, fcntl.F_SETLK, struct.pack(_FLOCK, fcntl.F_RDLCK, 0, 7, 1, 0))
    fcntl.flock(f_flock, fcntl.LOCK_SH)
    fcntl.fcntl(f_ofd, F_OFD_SETLK, struct.pack(_FLOCK, fcntl.F_RDLCK, 0, 9, 1, 0))
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: what does the kernel say of the parent's locks?
        os.close(r)
        seen = []
        with open(path, "rb") as g:
            if _getlk(g.fileno(), fcntl.F_GETLK)[0] != fcntl.F_UNLCK:
                seen.append("POSIX")
            try:
                fcntl.flock(g, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                seen.append("flock")
            if _getlk(g.fileno(), F_OFD_GETLK)[0] != fcntl.F_UNLCK:
                seen.append("OFD")
        os.write(w, ",".join(seen).encode() or b"-")
        os._exit(0)
    os.close(w)
    seen = os.read(r, 100).decode()
    os.close(r)
    os.waitpid(pid, 0)
    for kind in ("POSIX", "flock", "OFD"):
        what = f"leave a {kind} lock another process can see"
        if kind in seen.split(","):
            leak(what, "the child saw it")
        else:
            blocked(what, "the child saw none")


def watch_files() -> None:
    libc = ctypes.CDLL(None, use_errno=True)
    fd = libc.inotify_init1(0)
    if fd < 0:
        blocked("watch a shared file with inotify", errno.errorcode[ctypes.get_errno()])
        return
    if libc.inotify_add_watch(fd, SHARED[-1].encode(), 0x1 | 0x20) < 0:  # ACCESS | OPEN
        blocked("watch a shared file with inotify", errno.errorcode[ctypes.get_errno()])
    else:
        leak("watch a shared file with inotify", "a watch on /usr/bin/env")
    os.close(fd)


# --- the host's settings, processes, memory -----------------------------------------


def sysctl() -> None:
    what = "run as root on the host"
    try:  # the test leaves a file only the host's root may read
        with open("root-only.txt") as f:
            leak(what, f"read root-only.txt: {f.read().strip()!r}")
    except OSError as e:
        blocked(what, f"root-only.txt: {why(e)}")
    writable = []
    for folder, _, files in os.walk("/proc/sys"):
        for name in files:
            path = os.path.join(folder, name)
            try:
                os.close(os.open(path, os.O_WRONLY))
            except OSError:
                continue
            writable.append(path.removeprefix("/proc/sys/"))
    what = "open a /proc/sys entry for writing"
    if writable:
        leak(what, f"{len(writable)} entries, e.g. {', '.join(writable[:3])}")
    else:
        blocked(what, "none of them")


_BOMB = """
import os, signal
children, why_stopped = [], "reached 400"
for _ in range(400):
    try:
        pid = os.fork()
    except OSError as e:
        why_stopped = os.strerror(e.errno)
        break
    if pid == 0:
        signal.pause()
        os._exit(0)
    children.append(pid)
print(f"{len(children)} processes at once ({why_stopped})", flush=True)
for pid in children:
    os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)
"""


def forkbomb() -> None:
    """In a fresh Python of its own (forking a process that runs gRPC's threads is not
    safe), while the bot's gRPC threads keep serving."""
    done = subprocess.run([sys.executable, "-c", _BOMB], capture_output=True, text=True,
                          timeout=60)
    say(f"FORKBOMB {done.stdout.strip() or done.stderr.strip()[-200:]}")


def fill_shm() -> None:
    written = 0
    chunk = b"\1" * (8 << 20)
    reason = "reached 1 GiB"
    path = f"/dev/shm/fill-{TOKEN}"
    try:
        with open(path, "wb") as f:
            while written < 1 << 30:
                f.write(chunk)
                f.flush()
                written += len(chunk)
    except OSError as e:
        reason = why(e)
    finally:
        with contextlib.suppress(OSError):
            os.unlink(path)
    say(f"SHM wrote {written >> 20} MiB ({reason})")


def memsum() -> None:
    """Three processes write CHANNELS_MB MiB each and, once done, say how much they hold
    and keep it; one the kernel killed on the way says nothing, so the sum is what the
    survivors hold at once."""
    mb = int(os.environ.get("CHANNELS_MB", "600"))
    pipes = []
    for _ in range(3):
        r, w = os.pipe()
        if os.fork() == 0:
            os.close(r)
            held, total = [], 0
            try:
                for _ in range(mb // 16):
                    b = bytearray(16 << 20)
                    b[::4096] = b"\1" * len(range(0, 16 << 20, 4096))
                    held.append(b)
                    total += 16
            except MemoryError:
                pass
            os.write(w, b"%d\n" % total)
            signal.pause()
            os._exit(0)
        os.close(w)
        pipes.append(r)
    total = 0
    for r in pipes:
        got = os.read(r, 32).strip()
        total += int(got) if got else 0
    say(f"MEMSUM the three processes held {total} MiB at once")


class Contend:
    def __init__(self) -> None:
        self.seat = -1
        self.spinners: list[int] = []
        self.sent = 0
        # Fresh bits each run (the SEND lines carry them): a fixed sequence could line up
        # with the load of whatever else the machine runs, the same way run after run.
        self.bits = random.Random()

    def send(self) -> None:
        bit = self.bits.random() < 0.5
        self.sent += 1
        if bit and not self.spinners:
            for _ in range(2):
                pid = os.fork()
                if pid == 0:
                    while True:
                        pass
                self.spinners.append(pid)
        elif not bit:
            for pid in self.spinners:
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
            self.spinners.clear()
        say(f"SEND {time.monotonic_ns()} {int(bit)}")

    def receive(self) -> None:
        end = time.monotonic_ns() + 20_000_000
        n = 0
        while time.monotonic_ns() < end:
            n += 1
        say(f"RECV {time.monotonic_ns()} {n}")


def cpuhog() -> None:
    for _ in range(int(os.environ.get("CHANNELS_SPIN", "16"))):
        if os.fork() == 0:
            while True:
                pass
    say("CPUHOG spinning")


# --- the socket -----------------------------------------------------------------------


def link_socket_to(target: str) -> None:
    path = f"{SOCKET_DIR}/bot.sock"
    with contextlib.suppress(FileNotFoundError):
        os.unlink(path)
    os.symlink(target, path)
    say(f"LINKED {path} -> {target}")


FIRST_GAME = {
    "locks": (lock_state_in_a_child, watch_files),
    "sysctl": (sysctl,),
    "forkbomb": (forkbomb,),
    "shm": (fill_shm,),
}


class Channels(Bot):
    """Plays as tests/bots/hostile.py does (at random, never alone). Not shared with it:
    each script is copied alone into a bot folder, and a sealed bot reads nothing else."""

    name = f"channels-{MODE}"
    version = "1"
    author = "tests"

    def __init__(self) -> None:
        self.rng = random.Random(TOKEN)
        self.games = 0
        self.decisions = 0
        self.contend = Contend() if MODE == "contend" else None

    def start_game(self, seat, seat_bots):
        self.games += 1
        if self.contend is not None:
            self.contend.seat = seat
        if self.games == 1:
            for fn in FIRST_GAME.get(MODE, ()):
                attack(fn)
            if MODE == "link-after":
                attack(link_socket_to, os.environ["CHANNELS_TARGET"])
            if MODE == "cpuhog":
                attack(cpuhog)
        if MODE == "locks":
            attack(lock_and_look, "at StartGame")

    def decide(self, view):
        self.decisions += 1
        if MODE == "locks":
            attack(lock_and_look, f"at decision {self.decisions}")
        if MODE == "memsum" and self.decisions == 3:
            attack(memsum)
        if self.contend is not None:
            if self.contend.seat < 2:
                self.contend.send()
            else:
                self.contend.receive()
        legal = view.legal_actions
        together = [a for a in legal if not a.alone and a.kind is not ActionKind.GO_ALONE]
        return self.rng.choice(together or legal)


if __name__ == "__main__":
    say(f"CHANNELS {MODE} pid {os.getpid()} token {TOKEN}")
    if MODE in ("link-before", "link-relative"):
        target = os.environ["CHANNELS_TARGET"] if MODE == "link-before" else "bot2.sock"
        link_socket_to(target)
        os.environ["EUCHRE_BOT_ADDRESS"] = f"unix:{SOCKET_DIR}/bot2.sock"
    if MODE == "link-after":
        time.sleep(0)  # listens as usual; the link comes at StartGame
    run(Channels())
