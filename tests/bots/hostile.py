"""A hostile bot, for the fair-play tests: `python hostile.py MODE`.

It plays legal moves (chosen at random, never alone, so games finish) and, in its MODE, attacks the
arena, the host or the other bots the way a competitor might, then reports every attempt
on stdout, one line each, flushed:

    ATTEMPT <what>: BLOCKED <why>
    ATTEMPT <what>: LEAK <what it got>

A sealed bot can write nothing the test could read, so its log (stdout) is the only
channel back. It also says `GAMEID <id>` at every StartGame (the id it was told). Modes,
each tried at the process's first StartGame unless said otherwise:

  peek    read /proc/*/cmdline, /proc/*/environ and the descriptors of every pid it can
          see; list pid 1's cwd; open each path of HOSTILE_SECRETS (':'-separated); list
          /tmp, HOME, /run and its socket folder; print its whole environment (`ENV k=v`)
  signal  SIGSTOP and SIGKILL every visible pid outside its own tree, and the pid in
          HOSTILE_VICTIM_PID (a process of the test's)
  net     TCP to 127.0.0.1:HOSTILE_PORT (the test listens there) and to the ports in
          HOSTILE_PORTS and a few well-known ones, also on ::1; UDP to HOSTILE_PORT
          (the test answers) and out to the internet; every unix socket it can find or
          guess, the paths in HOSTILE_SECRETS, and the abstract socket HOSTILE_ABSTRACT
  write   write into each path of HOSTILE_SECRETS, its own folder, the arena's packages
          and the Python runtime; and into the sandbox's root, past /tmp's size limit
  share   at every StartGame and every Decide (reported at StartGame and a game's first
          Decide, later only if found): look for markers left by another process (files
          in /tmp, HOME, /dev/shm and its own folder, the abstract socket
          "@euchre-hostile-share", a System V shared memory segment), then, at
          StartGame, leave its own (each carries a token drawn per process)
  hog     at its 3rd decision, allocate (and touch) 16 MiB at a time until MemoryError;
          then print `HOG hit the limit at N MiB` and exit with status 3
  escape  double-fork a child into a new session that execs `/usr/bin/sleep 3600.MARK`
          (MARK from HOSTILE_MARK) and print `ESCAPED pid <pid>`

Safety, should it ever run unsealed: it never prints another process's command line or
environment values (only pids, program names and variable names), never signals a pid
of the scan with anything but 0 unless pid 1 is bubblewrap, and writes only a harmless
comment line where it should not be able to write.
"""

from __future__ import annotations

import contextlib
import ctypes
import errno
import os
import random
import secrets
import signal
import socket
import stat
import subprocess
import sys
import sysconfig
import threading
import time
from pathlib import Path

from arena.core.actions import ActionKind
from arena.sdk import Bot, run

MODE = sys.argv[1] if len(sys.argv) > 1 else "peek"
TOKEN = secrets.token_hex(8)
"""This process's own marker: whatever carries another token was left by someone else."""
CHUNK = 16 << 20
HOG_CAP_MB = 2048
SHARE_ABSTRACT = b"\0euchre-hostile-share"
SHARE_SHM_KEY = 0x45554348
SHARE_PREFIX = "hostile-share-"
WRITE_MARK = "# hostile.py was here; a sealed bot must not be able to write this\n"
WELL_KNOWN_PORTS = (22, 53, 80, 443, 631, 2375, 3306, 5432, 6379, 8080, 50051)


# --- reporting ----------------------------------------------------------------------


def say(line: str) -> None:
    print(line.replace("\n", "\\n").replace("\r", "\\r"), flush=True)


def blocked(what: str, why: str) -> None:
    say(f"ATTEMPT {what}: BLOCKED {why}")


def leak(what: str, got: str) -> None:
    say(f"ATTEMPT {what}: LEAK {got}")


def why(e: BaseException) -> str:
    if isinstance(e, OSError) and e.errno is not None:
        return f"{errno.errorcode.get(e.errno, e.errno)} ({e.strerror})"
    return f"{type(e).__name__}: {e}"


def attack(fn):
    """Runs one attack; a bug in it is reported as an attempt that is neither blocked
    nor a leak, which fails the test instead of passing it silently."""
    try:
        fn()
    except Exception as e:  # every failure is reported
        say(f"ATTEMPT {getattr(fn, '__name__', 'attack')}: ERROR {why(e)}")


def secrets_paths() -> list[str]:
    return [p for p in os.environ.get("HOSTILE_SECRETS", "").split(":") if p]


def shorten(items, n: int = 8) -> str:
    items = list(items)
    more = f" (+{len(items) - n} more)" if len(items) > n else ""
    return ", ".join(map(str, items[:n])) + more


# --- processes ----------------------------------------------------------------------


def visible_pids() -> list[int]:
    return sorted(int(p) for p in os.listdir("/proc") if p.isdigit())


def read_bytes(path: str, limit: int = 1 << 16) -> bytes:
    with open(path, "rb") as f:
        return f.read(limit)


def cmdline(pid: int) -> str:
    try:
        return read_bytes(f"/proc/{pid}/cmdline").replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return ""


def parent(pid: int) -> int | None:
    try:
        text = read_bytes(f"/proc/{pid}/stat").decode(errors="replace")
        return int(text.rsplit(")", 1)[1].split()[1])
    except (OSError, IndexError, ValueError):
        return None


def own_tree() -> set[int]:
    """This process, its ancestors and its descendants, as far as /proc shows them."""
    me = os.getpid()
    parents = {pid: parent(pid) for pid in visible_pids()}
    tree = {me}
    changed = True
    while changed:  # descendants
        changed = False
        for pid, pp in parents.items():
            if pp in tree and pid not in tree:
                tree.add(pid)
                changed = True
    p = parents.get(me)
    while p:  # ancestors
        tree.add(p)
        p = parents.get(p) or parent(p)
    return tree


def is_mine(pid: int, tree: set[int]) -> bool:
    cmd = cmdline(pid)
    return pid in tree or "hostile.py" in cmd or "bwrap" in cmd.split(" ")[0]


def sealed() -> bool:
    """Whether pid 1 is bubblewrap, i.e. this process is in a pid namespace of its own."""
    return "bwrap" in cmdline(1).split(" ")[0]


def program(pid: int) -> str:
    return os.path.basename(cmdline(pid).split(" ")[0]) or "?"


# --- files --------------------------------------------------------------------------


def _read_only_bound() -> set[Path]:
    """What the arena binds in read-only for a `{python}` bot besides its folder: the
    Python it runs and the arena's packages (public code, wherever installed)."""
    import importlib.util

    bound = {Path(sys.prefix).resolve(), Path(sys.base_prefix).resolve()}
    for package in ("arena", "sample_bots"):
        spec = importlib.util.find_spec(package)
        if spec is not None and spec.origin:
            bound.add(Path(spec.origin).resolve().parent)
    return bound


def foreign_files(root: str, mine=lambda p: False) -> list[str]:
    """What lies under `root` other than the way to this bot's own folder, the folder
    itself, the way to the Python it runs (bound in read-only, wherever it lives), and
    what `mine` says is its own."""
    cwd = Path.cwd().resolve()
    ancestors = {str(p) for p in cwd.parents}
    bound = _read_only_bound()
    for runtime in bound:
        ancestors |= {str(p) for p in runtime.parents}
    found = []
    for dirpath, dirnames, filenames in os.walk(root, onerror=lambda e: None):
        keep = []
        for d in dirnames:
            full = os.path.join(dirpath, d)
            if full == str(cwd) or full in {str(p) for p in bound}:
                continue  # its own folder, its Python or the arena's code, read-only
            if full in ancestors:
                keep.append(d)
            elif not mine(full):
                found.append(full + "/")
        dirnames[:] = keep
        found += [os.path.join(dirpath, f) for f in filenames
                  if not mine(os.path.join(dirpath, f))]
    return found


def private_devices() -> set[int]:
    """The file systems that belong to this sandbox alone: its root (where bubblewrap makes
    the folders it binds things into) and its /tmp."""
    return {os.stat(p).st_dev for p in ("/", "/tmp")}


def try_read(path: str) -> tuple[bool, str]:
    try:
        if os.path.isdir(path):
            names = os.listdir(path)
            if os.stat(path).st_dev in private_devices():
                return False, (f"only the sandbox's own folder of that name is there "
                               f"(holding {shorten(sorted(names), 5) or 'nothing'})")
            return True, f"listed {len(names)} entries: {shorten(sorted(names), 5)}"
        size = os.path.getsize(path)
        head = read_bytes(path, 16)
        return True, f"read {path} ({size} bytes, starting {head[:16]!r})"
    except OSError as e:
        return False, why(e)


# --- the attacks --------------------------------------------------------------------


def peek_processes() -> None:
    tree = own_tree()
    pids = visible_pids()
    say("PIDS " + " ".join(map(str, pids)))
    foreign = []
    for pid in pids:
        if is_mine(pid, tree):
            say(f"PID {pid} {cmdline(pid)}")
        else:
            foreign.append(pid)
            say(f"PID {pid} (not mine) {program(pid)}")
    what = "see other processes in /proc"
    if foreign:
        leak(what, f"{len(foreign)} processes not mine: "
                   + shorten(f"{p} {program(p)}" for p in foreign))
    else:
        blocked(what, f"only my own processes are visible (pids {shorten(pids)})")


def peek_environs() -> None:
    mine = set(os.environ) | {"PWD", "OLDPWD", "_", "SHLVL"}
    for pid in visible_pids():
        if pid == os.getpid():
            continue
        what = f"read /proc/{pid}/environ"
        try:
            raw = read_bytes(f"/proc/{pid}/environ", 1 << 20)
        except OSError as e:
            blocked(what, why(e))
            continue
        keys = {item.split(b"=", 1)[0].decode(errors="replace")
                for item in raw.split(b"\0") if item}
        extra = sorted(keys - mine)
        if extra:
            # Values are printed only for the test's own canaries (HOSTILE_*), so that the
            # test can see them leak without this bot copying anything else it found.
            canaries = [item.decode(errors="replace") for item in raw.split(b"\0")
                        if item.startswith(b"HOSTILE_") and item.split(b"=", 1)[0].decode()
                        not in os.environ]
            leak(what, f"{program(pid)}'s environment holds {len(extra)} variables I was "
                       f"not given: {shorten(extra, 12)}; {shorten(canaries)}")
        else:
            blocked(what, f"it holds nothing but my own environment ({len(keys)} variables)")


def peek_descriptors() -> None:
    tree = own_tree()
    for pid in visible_pids():
        if pid == os.getpid():
            continue
        what = f"open the files of /proc/{pid}/fd"
        try:
            fds = os.listdir(f"/proc/{pid}/fd")
        except OSError as e:
            blocked(what, why(e))
            continue
        files = []
        for fd in fds:
            with contextlib.suppress(OSError):
                target = os.readlink(f"/proc/{pid}/fd/{fd}")
                if target.startswith("/") and not target.startswith(("/dev/", os.getcwd())):
                    files.append(target)
        opened = []
        for target in files:
            ok, got = try_read(target)
            if ok:
                opened.append(got)
        if opened and pid not in tree:
            leak(what, shorten(opened, 3))
        elif opened:
            leak(what, f"descriptors of my own sandbox lead to host files: {shorten(opened, 3)}")
        else:
            blocked(what, f"no host file behind its {len(fds)} descriptors")


def peek_pid1_cwd() -> None:
    what = "list /proc/1/cwd"
    try:
        names = set(os.listdir("/proc/1/cwd"))
    except OSError as e:
        blocked(what, why(e))
        return
    extra = names - set(os.listdir("."))
    if extra:
        leak(what, f"entries not in my folder: {shorten(sorted(extra))}")
    else:
        blocked(what, "it is my own folder")


def peek_secrets() -> None:
    for path in secrets_paths():
        ok, got = try_read(path)
        (leak if ok else blocked)(f"open {path}", got)


def peek_folders() -> None:
    for label, root in (("/tmp", "/tmp"), ("HOME", os.environ.get("HOME", "/tmp")),
                        ("/run", "/run")):
        what = f"list {label} ({root})"
        if root == "/run":
            found = foreign_files(root, mine=lambda p: p in ("/run/euchre",
                                                             "/run/euchre/bot.sock"))
        else:
            found = foreign_files(root)
        if found:
            leak(what, f"{len(found)} entries not mine: {shorten(found)}")
        else:
            blocked(what, "nothing there but the way to my own folder")
    what = "list my socket folder /run/euchre"
    try:
        names = sorted(os.listdir("/run/euchre"))
    except OSError as e:
        blocked(what, why(e))
        return
    if set(names) - {"bot.sock"}:
        leak(what, shorten(names))
    else:
        blocked(what, f"it holds only my own socket ({shorten(names)})")


def peek_environment() -> None:
    for key, value in sorted(os.environ.items()):
        say(f"ENV {key}={value}")


def signal_others() -> None:
    tree = own_tree()
    others = [p for p in visible_pids() if not is_mine(p, tree)]
    what = "SIGSTOP and SIGKILL every other visible process"
    if not others:
        blocked(what, f"no process outside my own is visible (pids {shorten(visible_pids())})")
        return
    hit = []
    for pid in others:
        sigs = (signal.SIGSTOP, signal.SIGKILL) if sealed() else (0,)
        for sig in sigs:
            try:
                os.kill(pid, sig)
                hit.append(f"{pid} {program(pid)} sig {int(sig)}")
            except OSError:
                pass
    if hit:
        leak(what, f"signalled: {shorten(hit)}")
    else:
        blocked(what, f"{len(others)} visible, none could be signalled")


def signal_victim() -> None:
    victim = int(os.environ["HOSTILE_VICTIM_PID"])
    if victim in own_tree():
        blocked(f"signal victim {victim}", "that pid is one of my own here")
        return
    for name, sig in (("SIGSTOP", signal.SIGSTOP), ("SIGKILL", signal.SIGKILL)):
        what = f"{name} the victim pid {victim}"
        try:
            os.kill(victim, sig)
        except OSError as e:
            blocked(what, why(e))
        else:
            leak(what, "the signal was delivered")
    what = f"pidfd_open the victim pid {victim}"
    try:
        fd = os.pidfd_open(victim)
    except OSError as e:
        blocked(what, why(e))
    else:
        os.close(fd)
        leak(what, "got a pidfd")


def tcp(host: str, port: int, family=socket.AF_INET, timeout: float = 1.0,
        hello: bool = False) -> str | None:
    """None when connected (and a hello sent, only to the test's own listener), else why
    not."""
    s = socket.socket(family, socket.SOCK_STREAM)
    s.settimeout(timeout)
    try:
        s.connect((host, port))
        if hello:
            with contextlib.suppress(OSError):
                s.sendall(f"hostile {TOKEN}\n".encode())
        return None
    except OSError as e:
        return why(e)
    finally:
        s.close()


def net_tcp() -> None:
    port = int(os.environ["HOSTILE_PORT"])
    for host, family in (("127.0.0.1", socket.AF_INET), ("::1", socket.AF_INET6)):
        what = f"TCP connect to {host}:{port}"
        failure = tcp(host, port, family, hello=True)
        if failure is None:
            leak(what, "connected")
        else:
            blocked(what, failure)
    extra = [int(p) for p in os.environ.get("HOSTILE_PORTS", "").split(",") if p]
    ports = sorted(set(extra) | set(WELL_KNOWN_PORTS))
    what = f"TCP connect to the host's loopback ports {shorten(ports, 40)}"
    opened = [p for p in ports if tcp("127.0.0.1", p, timeout=0.3) is None]
    if opened:
        leak(what, f"connected to {shorten(opened, 40)}")
    else:
        blocked(what, "none accepted")
    what = "TCP connect out to 1.1.1.1:443"
    failure = tcp("1.1.1.1", 443, timeout=1.0)
    (blocked(what, failure) if failure else leak(what, "connected"))


def net_udp() -> None:
    port = int(os.environ["HOSTILE_PORT"])
    what = f"UDP sendto 127.0.0.1:{port} and wait for the answer"
    u = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    u.settimeout(0.5)
    try:
        u.sendto(f"hostile {TOKEN}".encode(), ("127.0.0.1", port))
        data, peer = u.recvfrom(4096)
    except OSError as e:
        blocked(what, f"sent into my own network, no answer: {why(e)}")
    else:
        leak(what, f"answered {data[:40]!r} from {peer}")
    finally:
        u.close()
    what = "UDP sendto 1.1.1.1:53"
    u = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        u.sendto(b"\0", ("1.1.1.1", 53))
    except OSError as e:
        blocked(what, why(e))
    else:
        leak(what, "sent: there is a route out")
    finally:
        u.close()
    what = "list network interfaces"
    names = [n for _, n in socket.if_nameindex()]
    if set(names) - {"lo"}:
        leak(what, shorten(names))
    else:
        blocked(what, f"only {shorten(names)}")


def unix_candidates() -> list[str]:
    found = []
    for root in ("/tmp", "/run"):
        for dirpath, _, filenames in os.walk(root, onerror=lambda e: None):
            for f in filenames:
                full = os.path.join(dirpath, f)
                with contextlib.suppress(OSError):
                    if stat.S_ISSOCK(os.lstat(full).st_mode):
                        found.append(full)
    for path in secrets_paths():
        found.append(path)
        if os.path.isdir(path):
            with contextlib.suppress(OSError):
                found += [os.path.join(path, n) for n in os.listdir(path)]
    # pid 1 (bubblewrap) knows every host folder it bound: a writable one (a socket
    # folder on the host, say) would have siblings: the other bots' folders.
    what = "find a writable host folder in bubblewrap's command line"
    argv = cmdline(1).split(" ")
    writable = [argv[i + 1] for i, arg in enumerate(argv[:-2]) if arg in ("--bind", "--bind-try")]
    for host in writable:
        found += [str(Path(host).parent / f"bot-{n}" / "bot.sock") for n in range(1, 13)]
        found.append(str(Path(host).parent))
    if writable:
        leak(what, shorten(writable))
    elif "--unshare-all" in argv:
        blocked(what, "it binds every host folder read-only")
    else:
        blocked(what, "pid 1 is not bubblewrap")
    return [p for p in dict.fromkeys(found) if p != "/run/euchre/bot.sock"]


def unix_connect(address) -> str | None:
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.settimeout(1.0)
    try:
        s.connect(address)
        return None
    except OSError as e:
        return why(e)
    finally:
        s.close()


def net_unix() -> None:
    for path in unix_candidates():
        what = f"connect to the unix socket {path}"
        failure = unix_connect(path)
        (blocked(what, failure) if failure else leak(what, "connected"))
    name = os.environ.get("HOSTILE_ABSTRACT", "")
    if name:
        what = f"connect to the abstract unix socket @{name}"
        failure = unix_connect(b"\0" + name.encode())
        (blocked(what, failure) if failure else leak(what, "connected"))
    what = "list the abstract unix sockets in /proc/net/unix"
    try:
        lines = read_bytes("/proc/net/unix").decode(errors="replace").splitlines()[1:]
    except OSError as e:
        blocked(what, why(e))
        return
    names = [ln.split()[-1] for ln in lines if len(ln.split()) > 7 and ln.split()[-1][:1] == "@"]
    if names:
        leak(what, shorten(names))
    else:
        blocked(what, f"none in my network namespace ({len(lines)} sockets listed)")


def write_targets() -> list[str]:
    import arena

    site = sysconfig.get_paths()["purelib"]
    return [*secrets_paths(), os.getcwd(), os.path.join(os.getcwd(), "hostile.py"),
            os.path.dirname(arena.__file__), site, sys.prefix]


def write_everywhere() -> None:
    """Writes into each target: an existing file is appended to (never created: a path
    that is not in the sandbox would only be made in the sandbox's own root), a folder
    gets a new file, unless it is one of the sandbox's own (the root's skeleton, /tmp)."""
    private = private_devices()
    for path in write_targets():
        what = f"write into {path}"
        if os.path.isdir(path):
            if os.stat(path).st_dev in private:
                blocked(what, "only the sandbox's own (tmpfs) folder of that name is there")
                continue
            target = os.path.join(path, f"hostile-{TOKEN}.pth")
            try:
                fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
            except OSError as e:
                blocked(what, why(e))
                continue
            with os.fdopen(fd, "w") as f:
                f.write(WRITE_MARK)
            leak(what, f"created {target}")
        else:
            try:
                fd = os.open(path, os.O_WRONLY | os.O_APPEND)
            except OSError as e:
                blocked(what, why(e))
                continue
            with os.fdopen(fd, "w") as f:
                f.write(WRITE_MARK)
            leak(what, "appended to it")


def write_root() -> None:
    """The sandbox's root is its own, but if it is writable it is a second /tmp without
    /tmp's size limit, in the host's memory."""
    what = "write into the sandbox's root / (past /tmp's size limit)"
    target = f"/hostile-{TOKEN}"
    try:
        with open(target, "w") as f:
            f.write(WRITE_MARK)
    except OSError as e:
        blocked(what, why(e))
        return
    os.unlink(target)
    root, tmp = os.statvfs("/"), os.statvfs("/tmp")
    free, limit = root.f_bavail * root.f_frsize >> 20, tmp.f_blocks * tmp.f_frsize >> 20
    if free > limit:
        leak(what, f"created {target}: the root is writable with {free} MiB free, "
                   f"and /tmp is limited to {limit} MiB")
    else:
        blocked(what, f"writable, but only {free} MiB (/tmp: {limit} MiB)")


class Sharer:
    """The covert channel: markers other processes of the match could find."""

    def __init__(self) -> None:
        self.listener: socket.socket | None = None
        self.shm_written = False
        self.home = os.environ.get("HOME", "/tmp")
        self.places = {"/tmp": "/tmp", "HOME": self.home, "/dev/shm": "/dev/shm",
                       "my own folder": os.getcwd()}

    def look(self, when: str, quiet: bool = False) -> None:
        """Reports each place once; `quiet`: only what leaks (the look at every decision)."""
        blocked = (lambda what, why: None) if quiet else globals()["blocked"]
        for label, folder in self.places.items():
            what = f"find another process's marker in {label} ({when})"
            try:
                names = [n for n in os.listdir(folder) if n.startswith(SHARE_PREFIX)]
            except OSError as e:
                blocked(what, why(e))
                continue
            others = [n for n in names if n != SHARE_PREFIX + TOKEN]
            if others:
                leak(what, f"found {shorten(others)}")
            else:
                blocked(what, f"only my own ({len(names)})")
        what = f"find another process's marker at @{SHARE_ABSTRACT[1:].decode()} ({when})"
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.settimeout(1.0)
        try:
            s.connect(SHARE_ABSTRACT)
            token = s.recv(64).decode(errors="replace").strip()
        except OSError as e:
            blocked(what, f"nobody listens: {why(e)}")
        else:
            if token == TOKEN:
                blocked(what, "only my own listener")
            else:
                leak(what, f"another process listens there, token {token!r}")
        finally:
            s.close()
        what = f"find another process's marker in SysV shared memory ({when})"
        token = self._shm_read()
        if token is None or token == TOKEN:
            blocked(what, f"no segment with key {SHARE_SHM_KEY:#x}" if token is None
                    else "only my own segment")
        else:
            leak(what, f"a segment holds token {token!r}")

    def look_at_start(self) -> None:
        self.look("at StartGame")

    def look_at_decide(self) -> None:
        self.look("at the first Decide")

    def look_quietly(self) -> None:
        self.look("at a later Decide", quiet=True)

    def leave(self) -> None:
        for label, folder in self.places.items():
            path = os.path.join(folder, SHARE_PREFIX + TOKEN)
            try:
                with open(path, "w") as f:
                    f.write(TOKEN)
            except OSError as e:
                if label == "my own folder":
                    blocked("leave a marker in my own folder", why(e))
                else:
                    say(f"MARK could not write {path}: {why(e)}")
            else:
                if label == "my own folder":
                    leak("leave a marker in my own folder",
                         "written where every process of this bot can read it")
                else:
                    say(f"MARK wrote {path}")
        if self.listener is None:
            s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            try:
                s.bind(SHARE_ABSTRACT)
                s.listen(8)
            except OSError as e:
                s.close()
                what = "bind the abstract socket for the others"
                if e.errno == errno.EADDRINUSE:
                    leak(what, "another process holds it")
                else:
                    blocked(what, why(e))
            else:
                self.listener = s
                threading.Thread(target=self._serve, daemon=True).start()
                say(f"MARK listening at @{SHARE_ABSTRACT[1:].decode()}")
        if not self.shm_written:
            self.shm_written = self._shm_write()

    def _serve(self) -> None:
        assert self.listener is not None
        while True:
            try:
                conn, _ = self.listener.accept()
            except OSError:
                return
            with conn, contextlib.suppress(OSError):
                conn.sendall(TOKEN.encode() + b"\n")

    @staticmethod
    def _libc():
        libc = ctypes.CDLL(None, use_errno=True)
        libc.shmat.restype = ctypes.c_void_p
        libc.shmat.argtypes = (ctypes.c_int, ctypes.c_void_p, ctypes.c_int)
        libc.shmdt.argtypes = (ctypes.c_void_p,)
        return libc

    def _shm_read(self) -> str | None:
        libc = self._libc()
        shmid = libc.shmget(SHARE_SHM_KEY, 64, 0)
        if shmid < 0:
            return None
        addr = libc.shmat(shmid, None, 0)
        if addr in (None, ctypes.c_void_p(-1).value):
            return None
        try:
            return ctypes.string_at(addr, 16).decode(errors="replace")
        finally:
            libc.shmdt(addr)

    def _shm_write(self) -> bool:
        libc = self._libc()
        shmid = libc.shmget(SHARE_SHM_KEY, 64, 0o1600)  # IPC_CREAT | 0600
        if shmid < 0:
            say(f"MARK could not create the SysV segment: errno {ctypes.get_errno()}")
            return False
        addr = libc.shmat(shmid, None, 0)
        if addr in (None, ctypes.c_void_p(-1).value):
            return False
        ctypes.memmove(addr, TOKEN.encode(), 16)
        libc.shmdt(addr)
        say(f"MARK wrote SysV segment {SHARE_SHM_KEY:#x}")
        return True


def hog() -> None:
    chunks = []
    total = 0
    what = "allocate memory until something stops me"
    try:
        while total < HOG_CAP_MB << 20:
            b = bytearray(CHUNK)
            b[::4096] = b"\1" * len(range(0, CHUNK, 4096))  # touch every page
            chunks.append(b)
            total += CHUNK
    except MemoryError:
        chunks.clear()
        say(f"HOG hit the limit at {total >> 20} MiB")
        blocked(what, f"MemoryError after {total >> 20} MiB")
    else:
        chunks.clear()
        leak(what, f"allocated {total >> 20} MiB and nothing stopped me")
    os._exit(3)


ESCAPE_CODE = """\
import os, sys
os.setsid()
pid = os.fork()
if pid:
    print(pid, flush=True)
    os._exit(0)
null = os.open("/dev/null", os.O_RDWR)
os.dup2(null, 0)
os.dup2(null, 1)  # stderr stays: the arena's log pipe, held on purpose
os.execv("/usr/bin/sleep", ["sleep", sys.argv[1]])
"""


def escape() -> None:
    mark = os.environ.get("HOSTILE_MARK", "1")
    helper = subprocess.run([sys.executable, "-c", ESCAPE_CODE, f"3600.{mark}"],
                            stdout=subprocess.PIPE, stdin=subprocess.DEVNULL, timeout=10)
    pid = int(helper.stdout.split()[0])
    time.sleep(0.2)
    say(f"ESCAPED pid {pid} ({cmdline(pid).strip()}, session {os.getsid(pid)}, "
        f"mine {os.getsid(0)})")
    what = "escape into a new session that outlives me"
    if sealed():
        blocked(what, f"the child is pid {pid} of my own pid namespace (pid 1 is bubblewrap), "
                      "which ends with me")
    else:
        leak(what, f"pid {pid} runs in a session of its own outside any sandbox")


FIRST_GAME = {
    "peek": (peek_environment, peek_processes, peek_environs, peek_descriptors, peek_pid1_cwd,
             peek_secrets, peek_folders),
    "signal": (signal_others, signal_victim),
    "net": (net_tcp, net_udp, net_unix),
    "write": (write_everywhere, write_root),
    "escape": (escape,),
}


class Hostile(Bot):
    name = f"hostile-{MODE}"
    version = "1"
    author = "tests"

    def __init__(self) -> None:
        self.rng = random.Random(TOKEN)
        self.games = 0
        self.decisions = 0
        self.first_decision = False
        self.sharer = Sharer() if MODE == "share" else None

    def start_game(self, seat, seat_bots):
        say(f"GAMEID {self.game_id}")
        self.games += 1
        self.first_decision = True
        if self.games == 1:
            for fn in FIRST_GAME.get(MODE, ()):
                attack(fn)
        if self.sharer is not None:
            attack(self.sharer.look_at_start)
            attack(self.sharer.leave)

    def decide(self, view):
        self.decisions += 1
        if self.sharer is not None:  # the partner and the twin game may start later
            attack(self.sharer.look_at_decide if self.first_decision else self.sharer.look_quietly)
        self.first_decision = False
        if MODE == "hog" and self.decisions == 3:
            hog()
        # never alone: a partner who sits a hand out might not reach its 3rd decision
        legal = view.legal_actions
        together = [a for a in legal if not a.alone and a.kind is not ActionKind.GO_ALONE]
        return self.rng.choice(together or legal)


if __name__ == "__main__":
    say(f"HOSTILE {MODE} pid {os.getpid()} token {TOKEN}")
    run(Hostile())
