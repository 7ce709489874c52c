"""What a game is to be, before anything runs: its specification and the settings of a
match or ladder. Plain values with no I/O, so that reading a ladder file or planning a
schedule loads neither trio nor grpc nor the process module."""

from __future__ import annotations

import os
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import Enum
from typing import Literal

from arena.core.actions import Action
from arena.core.rules import RuleSet
from arena.core.view import SeatView
from arena.settings.manifest import BotManifest

__all__ = [
    "EXECUTORS",
    "LOCAL",
    "Executor",
    "FaultPolicy",
    "GameSpec",
    "HouseSeat",
    "TimeControl",
    "Transport",
    "default_concurrency",
    "require_ray",
    "seat_assignment",
]


@dataclass(frozen=True, slots=True)
class TimeControl:
    per_decision: float = 2.0
    """Seconds one decision may take."""
    bank: float = 60.0
    """Seconds for all of one seat's decisions in a game."""
    allowance: float = 0.25
    """Seconds of latency per call that are never charged (the arena's and the OS's)."""

    def __post_init__(self) -> None:
        if not (self.per_decision > 0 and self.bank > 0 and self.allowance >= 0):
            raise ValueError("time control: per_decision and bank must be positive")


Transport = Literal["unix", "tcp"]
"""How the arena reaches a bot it starts: a unix socket (the only one a sealed bot has),
or a TCP port on 127.0.0.1."""


class FaultPolicy(Enum):
    FORFEIT = "forfeit"
    """The faulting team loses the game at once."""
    SUBSTITUTE = "substitute"
    """A random legal action is played for the bot, and the game goes on."""


@dataclass(frozen=True)
class HouseSeat:
    """A seat played inside the arena by a policy (no process): `arena check-bot` uses
    them to steer a bot into the situations it must handle."""

    name: str
    policy: Callable[[SeatView, random.Random], Action]


@dataclass(frozen=True)
class GameSpec:
    game_id: str
    """The arena's own id (records, storage); bots are told `table_id` instead."""
    rules: RuleSet
    seed: int
    first_dealer: int
    seat_bots: tuple[BotManifest | HouseSeat, ...]
    """The bot in each seat (team = seat % 2)."""
    time_control: TimeControl = field(default_factory=TimeControl)
    fault_policy: FaultPolicy = FaultPolicy.FORFEIT
    table_id: str = ""
    """What the bots are told the game is called: opaque, so that it tells nothing of the
    schedule (which would name the deal). Empty: the game_id."""
    family: int = 0
    """The process family that plays it (see arena.play.process_cache)."""


def seat_assignment(
    bot_a: BotManifest, bot_b: BotManifest, a_team: int, seats: int = 4
) -> tuple[BotManifest, ...]:
    """The bots by seat when bot_a plays as team a_team (the seats of its parity: two of
    four, or three of six)."""
    return tuple(bot_a if seat % 2 == a_team else bot_b for seat in range(seats))


EXECUTORS = ("local", "ray")


@dataclass(frozen=True, slots=True)
class Executor:
    """Where the games run. Not part of a ladder's settings: a database filled by one
    executor is resumed by the other, as the games are the same games."""

    kind: Literal["local", "ray"] = "local"
    """'local': every game in this process, on trio. 'ray': every game on an arena worker
    process of a Ray cluster (arena.play.ray_executor), this process only handing out games
    and taking back their records."""
    address: str | None = None
    """Ray: the address of a running cluster (as `ray start --head` prints it, or
    "auto"); None: a cluster of this machine alone, started for the run and stopped after."""
    workers: int | None = None
    """Ray: arena worker processes (each asks the cluster for one CPU); None: one per game
    at once, up to the games at once."""

    def __post_init__(self) -> None:
        if self.kind not in EXECUTORS:
            raise ValueError(f"executor {self.kind!r}: expected one of {', '.join(EXECUTORS)}")
        if self.workers is not None and self.workers < 1:
            raise ValueError("executor: workers must be at least 1")


LOCAL = Executor()
"""Every game in this process: the default."""


def require_ray() -> None:
    """MachineError, saying how to install it, where Ray is missing (checked before a run
    starts, not when its first game would)."""
    import importlib.util

    if importlib.util.find_spec("ray") is None:
        from arena.settings.errors import MachineError

        raise MachineError("executor 'ray' needs Ray, an extra of the arena: "
                          "pip install 'euchre-arena[ray]'")


def default_concurrency() -> int:
    """One game per core this process may run on (a container's CPU set, not the host's)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):  # not Linux
        return os.cpu_count() or 1
