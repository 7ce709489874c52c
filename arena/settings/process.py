"""How a run's bot processes are started, held and stopped: one value for every run.

A match, a ladder and check-bot each hold one `ProcessSettings` and hand it whole to the
runner, which hands it to every game slot, local or on a Ray worker (it pickles: plain
values only). The command lines build it from the same options (arena.cli.args), and a
ladder file from its keys of the same names (ladder.config.ladder_file); nothing below them takes
these settings one by one.

None of them changes how a game is judged (the rules, the deals, the time control and
the fault policy do, and are a ladder's stored settings): a ladder database is resumed
under other process settings as under another executor.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

from arena.settings.limits import DEFAULT_CAPS, Limits
from arena.settings.spec import Transport

__all__ = ["TRANSPORTS", "ProcessSettings"]

TRANSPORTS: tuple[Transport, ...] = ("unix", "tcp")


@dataclass(frozen=True)
class ProcessSettings:
    """The settings of every bot process a run starts."""

    log_dir: Path
    """The folder of the bots' logs: one file per process, appended to across restarts."""
    transport: Transport = "unix"
    """Where bots listen: a unix socket (the only channel a sealed bot has) or loopback
    TCP (unsealed bots only)."""
    start_limit: float = 10.0
    """Seconds a bot may take to listen (math.inf: as long as it takes); a manifest's own
    `startup_timeout` wins. A bot slow to start is started again with twice the time
    (arena.play.process_cache)."""
    grace: float = 2.0
    """Seconds a bot has to exit after SIGTERM before its process group is killed."""
    sandbox: bool = True
    """Seal every bot process (arena.procs.sandbox); false only for trusted bots."""
    limits: Limits = DEFAULT_CAPS
    """The caps of every sealed bot; a manifest's [limits] ask for less, never more."""
    fresh_processes: bool = False
    """New processes for every game, instead of keeping them between games."""

    def __post_init__(self) -> None:
        if self.transport not in TRANSPORTS:
            raise ValueError(f"transport {self.transport!r}: expected one of "
                             f"{', '.join(TRANSPORTS)}")
        if not self.start_limit > 0:  # NaN fails too
            raise ValueError("start_limit must be a positive number of seconds")
        if not (0 <= self.grace < math.inf):
            raise ValueError("grace must be a number of seconds of 0 or more")
        if not isinstance(self.limits, Limits):
            raise ValueError("limits must be arena.settings.limits.Limits")
        if self.transport == "tcp" and self.sandbox:
            raise ValueError("a sandboxed bot has no network, so it cannot listen on TCP")
