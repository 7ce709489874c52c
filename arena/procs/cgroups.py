"""Limits per bot, not per process, and a bot that runs only while it decides: cgroups.

Per-process limits (RLIMIT_DATA and the like, set inside the sandbox) let a bot with
three processes hold three times its memory, and say nothing of CPU. So each sealed bot
process the arena starts gets a control group of its own, which every process it starts
(and every page of its /tmp and /dev/shm, which are tmpfs) is counted in:

* **memory**: `Limits.memory_mb` for the whole bot, with no swap; over it the kernel's
  OOM killer ends a process of that bot, never another's, and the seat is ruled crashed
  with the reason (`over_limit`);
* **processes**: `Limits.processes` for the whole bot (pids), also when the arena runs
  as root (a process count a namespace's root escapes);
* **CPU**: one CPU's worth at most (a quota), and, where a game slot has CPUs of its
  own, only those (cpuset);
* **freezer**: the arena freezes the bot whenever no call of its is waiting on it and
  thaws it just before the next call, so it cannot ponder on the opponents' time, take
  CPU from whoever is deciding, or signal a partner by contention.

Which hierarchy, found once per arena process (`detect`):

* **cgroup v2**, where the arena's own cgroup is delegated to it (a systemd user session:
  ``systemd-run --user --scope -p Delegate=yes arena ...``, or a service with
  ``Delegate=yes``; as root, any writable v2 hierarchy). The arena moves itself into a
  leaf ``arena`` beside its bots' groups (v2 keeps processes only in leaves) and enables
  the controllers it was given; the ones systemd did not delegate are missing, and
  `Hold.missing` says so.
* **cgroup v1**, where its controllers are mounted and writable (as root, on most
  servers and containers of an older layout): a group under the arena's own in each of
  memory, pids, cpu, cpuset and freezer.
* **none**: no limit of these holds; `arena.procs.processes` then keeps a watchdog that sums
  the memory and counts the processes of each bot's pid namespace and stops a bot over
  either, and freezes a bot by stopping every process of its namespace (SIGSTOP).

``ARENA_CGROUPS=v2|v1|none`` forces a choice (for tests and for an operator who wants
none); ``off`` keeps neither cgroups nor the watchdog nor freezing, the sandbox as it was
before any of this, for bench/ladder.py to measure what they cost. Everything here is
plain file writes of a few bytes: freezing and thawing cost
microseconds (bench/ladder.py prints them).
"""

from __future__ import annotations

import atexit
import contextlib
import os
from dataclasses import dataclass, field
from pathlib import Path

__all__ = ["BotGroup", "Hold", "detect"]

ROOT = Path("/sys/fs/cgroup")
_V1_CONTROLLERS = ("memory", "pids", "cpu", "cpuset", "freezer")
_V2_CONTROLLERS = ("memory", "pids", "cpu", "cpuset")
CPU_PERIOD_US = 100_000


@dataclass(frozen=True)
class Hold:
    """What this machine's cgroups hold, per bot: said at the start of every run and
    kept in records."""

    kind: str
    """'v2', 'v1' or 'none'."""
    limits: tuple[str, ...]
    """Of 'memory', 'processes', 'cpu', 'cpuset', 'freezer': what a cgroup enforces."""
    missing: tuple[str, ...] = ()
    """What the hierarchy lacks (undelegated controllers, say), with the watchdog in its
    place for memory, processes and freezing."""

    def text(self) -> str:
        if self.kind == "off":
            return ("off (ARENA_CGROUPS=off): no limit per bot, no watchdog and no "
                    "pausing; per-process limits only")
        if self.kind == "none":
            return ("no cgroup here: memory and processes per bot are kept by the arena's "
                    "watchdog, bots are paused with SIGSTOP, and CPU is not limited")
        held = ", ".join(self.limits)
        more = f"; not held: {', '.join(self.missing)} (the watchdog keeps memory, " \
               f"processes and pausing)" if self.missing else ""
        return f"cgroup {self.kind} per bot: {held}{more}"


def _write(path: Path, value: str) -> None:
    with open(path, "w") as f:
        f.write(value)


def _read(path: Path) -> str:
    with open(path) as f:
        return f.read()


def _own_v1(controller: str) -> Path | None:
    """The arena's own group in a v1 controller's hierarchy, if mounted and writable."""
    mount = ROOT / controller
    if not (mount / "cgroup.procs").exists():
        return None
    try:
        lines = _read(Path("/proc/self/cgroup")).splitlines()
    except OSError:
        return None
    for line in lines:
        _, names, path = line.split(":", 2)
        if controller in names.split(","):
            own = mount / path.lstrip("/")
            return own if os.access(own, os.W_OK) else None
    return None


def _v2_mount() -> Path | None:
    """Where the v2 hierarchy is mounted: /sys/fs/cgroup on a unified machine,
    /sys/fs/cgroup/unified on a hybrid one, wherever mountinfo says otherwise."""
    if (ROOT / "cgroup.controllers").exists():
        return ROOT
    try:
        lines = _read(Path("/proc/self/mountinfo")).splitlines()
    except OSError:
        return None
    for line in lines:
        fields, _, rest = line.partition(" - ")
        parts = fields.split()
        if rest.split()[:1] == ["cgroup2"] and len(parts) > 4 and parts[3] == "/":
            return Path(parts[4].replace("\\040", " "))
    return None


def _own_v2() -> Path | None:
    try:
        lines = _read(Path("/proc/self/cgroup")).splitlines()
    except OSError:
        return None
    path = next((ln.split(":", 2)[2] for ln in lines if ln.startswith("0::")), None)
    mount = _v2_mount()
    if path is None or mount is None:
        return None
    own = mount / path.lstrip("/")
    if not os.access(own / "cgroup.procs", os.W_OK) or not os.access(
            own / "cgroup.subtree_control", os.W_OK):
        return None
    return own


class _Tree:
    """The arena's groups: made at the first bot, removed (once empty) at exit."""

    def __init__(self, kind: str, bases: dict[str, Path], missing: tuple[str, ...]) -> None:
        self.kind = kind
        self.bases = bases  # controller (v1) or "" (v2) -> the arena's own group
        self.missing = missing
        self.counter = 0

    def hold(self) -> Hold:
        if self.kind in ("none", "off"):
            return Hold(self.kind, ())
        if self.kind == "v1":
            names = {"memory": "memory", "pids": "processes", "cpu": "cpu",
                     "cpuset": "cpuset", "freezer": "freezer"}
            order = ("memory", "pids", "cpu", "cpuset", "freezer")
            return Hold("v1", tuple(names[c] for c in order if c in self.bases),
                        tuple(names[c] for c in order if c in self.missing))
        held = [c for c in _V2_CONTROLLERS if c not in self.missing]
        names2 = {"memory": "memory", "pids": "processes", "cpu": "cpu", "cpuset": "cpuset"}
        return Hold("v2", (*(names2[c] for c in held), "freezer"),
                    tuple(names2[c] for c in self.missing))


_tree: _Tree | None = None
_none = _Tree("none", {}, ())
_off = _Tree("off", {}, ())


def _reap_stale(parent: Path, freeze_file: str, thawed: str) -> None:
    """The groups of arenas that died without tidying (killed together with their bots'
    watchdogs, as a Ray worker can be): thaw their bots, which a frozen task needs before
    SIGKILL ends it, kill them, and remove the groups once empty."""
    for stale in parent.glob("euchre-arena-*"):
        pid = stale.name.rpartition("-")[2]
        if not pid.isdigit() or int(pid) == os.getpid() or Path(f"/proc/{pid}").exists():
            continue
        for group in stale.glob("bot-*"):
            with contextlib.suppress(OSError):
                _write(group / freeze_file, thawed)
            with contextlib.suppress(OSError):
                for member in _read(group / "cgroup.procs").split():
                    with contextlib.suppress(OSError):
                        os.kill(int(member), 9)
        for group in [*stale.glob("bot-*"), stale]:
            with contextlib.suppress(OSError):
                group.rmdir()


def _setup_v1() -> _Tree | None:
    bases: dict[str, Path] = {}
    for controller in reversed(_V1_CONTROLLERS):  # freezer first (see below)
        own = _own_v1(controller)
        if own is not None:
            bases[controller] = own / f"euchre-arena-{os.getpid()}"
    if "memory" not in bases or "freezer" not in bases:
        return None
    for base in bases.values():  # the freezer's first: thawed, the bots can be killed
        _reap_stale(base.parent, "freezer.state", "THAWED")
    for controller, base in bases.items():
        base.mkdir(exist_ok=True)
        if controller == "cpuset":  # a cpuset group starts empty: give it its parent's
            for name in ("cpuset.cpus", "cpuset.mems"):
                _write(base / name, _read(base.parent / name).strip() or "0")
    missing = tuple(c for c in _V1_CONTROLLERS if c not in bases)
    return _Tree("v1", bases, missing)


def _setup_v2(own: Path) -> _Tree:
    """The arena's groups under `own`, its delegated v2 group (`_own_v2`)."""
    _reap_stale(own, "cgroup.freeze", "0")
    # v2 keeps processes only in leaves: the arena moves into one of its own, beside the
    # bots' groups, before it may enable controllers for them.
    leaf = own / "arena"
    leaf.mkdir(exist_ok=True)
    for pid in _read(own / "cgroup.procs").split():
        with contextlib.suppress(OSError):  # a process that just ended
            _write(leaf / "cgroup.procs", pid)
    got = _read(own / "cgroup.controllers").split()
    wanted = [c for c in _V2_CONTROLLERS if c in got]
    if wanted:
        with contextlib.suppress(OSError):
            _write(own / "cgroup.subtree_control", " ".join(f"+{c}" for c in wanted))
    enabled = _read(own / "cgroup.subtree_control").split()
    missing = tuple(c for c in _V2_CONTROLLERS if c not in enabled)
    return _Tree("v2", {"": own}, missing)


def _get() -> _Tree:
    global _tree
    if _tree is None:
        forced = os.environ.get("ARENA_CGROUPS", "")
        tree = None
        try:
            # v2 first where it holds memory; a hybrid machine's unified hierarchy often
            # holds no controller, and then v1's, if writable, hold more
            own2 = _own_v2() if forced in ("", "v2") else None
            if own2 is not None and (forced == "v2" or "memory" in _read(
                    own2 / "cgroup.controllers").split()):
                tree = _setup_v2(own2)
            if tree is None and forced in ("", "v1"):
                tree = _setup_v1()
            if tree is None and own2 is not None:
                tree = _setup_v2(own2)
        except OSError:
            tree = None
        _tree = tree or (_off if forced == "off" else _none)
        if tree is not None:
            atexit.register(cleanup)
    return _tree


def detect() -> Hold:
    """What holds per bot on this machine (sets the arena's groups up on first use)."""
    return _get().hold()


@dataclass
class BotGroup:
    """One sealed bot's control group(s). `join_files` are where the first process of
    the bot writes its own pid before it execs the sandbox, so that everything it starts
    is counted from the first instruction."""

    kind: str
    paths: dict[str, Path] = field(default_factory=dict)
    enforced: tuple[str, ...] = ()
    """What the kernel holds for this bot as a whole (of memory, processes, cpu, cpuset,
    freezer): kept in the records of its games."""
    cpus: str = ""
    """The CPUs it runs on ("" for all)."""

    @property
    def join_files(self) -> list[Path]:
        return [p / "cgroup.procs" for p in self.paths.values()]

    def freeze(self) -> None:
        """Starts freezing the group: the kernel catches each process in turn, which on
        a loaded machine can take milliseconds (see `frozen`)."""
        if self.kind == "v1":
            _write(self.paths["freezer"] / "freezer.state", "FROZEN")
        elif self.kind == "v2":
            _write(self.paths[""] / "cgroup.freeze", "1")

    def frozen(self) -> bool:
        """Whether the kernel has caught every process of the group (True where it has
        no freezer: nothing more can be waited for)."""
        if self.kind == "v1":
            return _read(self.paths["freezer"] / "freezer.state").strip() == "FROZEN"
        if self.kind == "v2":
            return "frozen 1" in _read(self.paths[""] / "cgroup.events")
        return True

    def thaw_file(self) -> tuple[Path, str] | None:
        """The file and the value that thaw the bot, for its watchdog: a frozen bot dies
        of SIGKILL only once thawed, so a watchdog whose arena died thaws it first."""
        if self.kind == "v1":
            return self.paths["freezer"] / "freezer.state", "THAWED"
        if self.kind == "v2":
            return self.paths[""] / "cgroup.freeze", "0"
        return None

    def thaw(self) -> None:
        if self.kind == "v1":
            _write(self.paths["freezer"] / "freezer.state", "THAWED")
        elif self.kind == "v2":
            _write(self.paths[""] / "cgroup.freeze", "0")

    def over_limit(self) -> str | None:
        """Which limit the kernel enforced on this bot, if any: said when it is ruled."""
        try:
            if self.kind == "v1":
                if _events(self.paths["memory"] / "memory.oom_control", "oom_kill"):
                    return "memory"
                if "pids" in self.paths and _events(self.paths["pids"] / "pids.events",
                                                    "max"):
                    return "processes"
            elif self.kind == "v2":
                base = self.paths[""]
                if _events(base / "memory.events", "oom_kill"):
                    return "memory"
                if _events(base / "pids.events", "max"):
                    return "processes"
        except OSError:
            return None
        return None

    def close(self) -> None:
        """Removes the group(s); the caller has seen every process of the bot end."""
        for path in self.paths.values():
            with contextlib.suppress(OSError):
                path.rmdir()


def _events(path: Path, key: str) -> bool:
    try:
        text = _read(path)
    except OSError:
        return False
    return any(ln.split()[:1] == [key] and ln.split()[1] != "0" for ln in text.splitlines())


def make_group(*, memory_mb: int, processes: int, cpus: str | None) -> BotGroup:
    """A new group with a bot's limits (`cpus`: a cpuset such as "1", or None for all).
    Raises OSError when the hierarchy refuses (the caller then falls back to the
    watchdog)."""
    tree = _get()
    tree.counter += 1
    name = f"bot-{tree.counter}"
    group = BotGroup(tree.kind, enforced=tree.hold().limits)
    if tree.kind in ("none", "off"):
        return group
    if "cpuset" in group.enforced:
        group.cpus = cpus or ""
    memory = str(memory_mb << 20)
    if tree.kind == "v1":
        for controller, base in tree.bases.items():
            path = base / name
            path.mkdir()
            group.paths[controller] = path
            if controller == "memory":
                _write(path / "memory.limit_in_bytes", memory)
                with contextlib.suppress(OSError):  # only where swap accounting is on
                    _write(path / "memory.memsw.limit_in_bytes", memory)
            elif controller == "pids":
                _write(path / "pids.max", str(processes))
            elif controller == "cpu":
                _write(path / "cpu.cfs_period_us", str(CPU_PERIOD_US))
                _write(path / "cpu.cfs_quota_us", str(CPU_PERIOD_US))
            elif controller == "cpuset":
                _write(path / "cpuset.mems", _read(base / "cpuset.mems").strip() or "0")
                _write(path / "cpuset.cpus", cpus or _read(base / "cpuset.cpus").strip())
        return group
    path = tree.bases[""] / name
    path.mkdir()
    group.paths[""] = path
    if "memory" not in tree.missing:
        _write(path / "memory.max", memory)
        with contextlib.suppress(OSError):
            _write(path / "memory.swap.max", "0")
    if "pids" not in tree.missing:
        _write(path / "pids.max", str(processes))
    if "cpu" not in tree.missing:
        _write(path / "cpu.max", f"{CPU_PERIOD_US} {CPU_PERIOD_US}")
    if "cpuset" not in tree.missing and cpus:
        _write(path / "cpuset.cpus", cpus)
    return group


def cleanup() -> None:
    """Removes the arena's own groups (empty by then) at exit."""
    tree = _tree
    if tree is None or tree.kind != "v1":
        return
    for base in tree.bases.values():
        with contextlib.suppress(OSError):
            base.rmdir()
