"""What bounds a sealed bot, as plain values: the limits a manifest asks for and a match or
ladder caps (Limits, Sandbox), and what a record keeps of them for each seat (SeatLimits).
Settings, manifests and records name them; arena.procs.sandbox and arena.procs.cgroups enforce them."""

from __future__ import annotations

from dataclasses import dataclass, fields
from pathlib import Path


@dataclass(frozen=True)
class Limits:
    """Resource limits of one sealed bot process. A manifest asks for its own within the
    caps a match or ladder sets (the defaults below)."""

    memory_mb: int = 2048
    """Memory each process of the bot may write (RLIMIT_DATA), in MiB."""
    processes: int = 64
    """Processes and threads the bot may run at once (RLIMIT_NPROC)."""
    file_size_mb: int = 64
    """Largest file it may write, in MiB (RLIMIT_FSIZE)."""
    open_files: int = 1024
    """Open file descriptors per process (RLIMIT_NOFILE)."""
    tmp_mb: int = 256
    """Size of its private /tmp (also HOME), in MiB."""
    shm_mb: int = 64
    """Size of its private /dev/shm (POSIX shared memory), in MiB."""

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            if not isinstance(value, int) or isinstance(value, bool) or value < 1:
                raise ValueError(f"{f.name} must be a whole number of at least 1, not {value!r}")

    @classmethod
    def names(cls) -> tuple[str, ...]:
        return tuple(f.name for f in fields(cls))

    def over(self, cap: Limits) -> list[str]:
        """The limits that ask for more than `cap` allows, as 'key = asked (cap N)'."""
        return [
            f"{k} = {getattr(self, k)} (at most {getattr(cap, k)})"
            for k in self.names() if getattr(self, k) > getattr(cap, k)
        ]


@dataclass(frozen=True)
class Sandbox:
    """How to seal one bot process: what else it may read, and its limits."""

    read_only: tuple[Path, ...] = ()
    """Host paths bound read-only at the same place (the bot's folder is always bound)."""
    limits: Limits = Limits()


DEFAULT_CAPS = Limits()
"""The caps of a match or ladder that sets none."""


@dataclass(frozen=True, slots=True)
class SeatLimits:
    """What bounded a sealed seat, and what held it: record.proto's SeatLimits."""

    kept_by: str
    """'cgroup v2', 'cgroup v1', 'watchdog' (no cgroup) or 'off' (per process only)."""
    enforced: tuple[str, ...]
    """What the kernel held for the whole bot (memory, processes, cpu, cpuset, freezer)."""
    memory_mb: int
    processes: int
    tmp_mb: int
    shm_mb: int
    file_size_mb: int
    open_files: int
    cpus: str = ""

    def text(self) -> str:
        """One line, as `arena replay GAME` prints it."""
        by = self.kept_by
        if self.enforced:
            by += f" ({', '.join(self.enforced)})"
        # The cpuset's own list ("0", "0-1", "2,3"): named as CPUs, never read as a count.
        where = (f", on CPU{'' if self.cpus.isdigit() else 's'} {self.cpus}"
                 if self.cpus else "")
        return (f"memory {self.memory_mb} MiB, {self.processes} processes, /tmp "
                f"{self.tmp_mb} MiB, /dev/shm {self.shm_mb} MiB{where}; kept by {by}")
