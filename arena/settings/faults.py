"""Faults: what a bot did wrong, as the arena rules it.

A fault is never an error of the arena: it is recorded against the bot's seat and the
game goes on to its ruling (forfeit, or a random legal action in the bot's place).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from arena.settings.errors import BotError


class FaultKind(Enum):
    TIMEOUT = "timeout"
    CRASHED = "crashed"
    DISCONNECTED = "disconnected"
    MALFORMED = "malformed"
    ILLEGAL_ACTION = "illegal_action"
    REFUSED_RULES = "refused_rules"
    START_FAILED = "start_failed"
    BOT_ERROR = "bot_error"
    """Its handler raised an error: the call's status carries a summary, its log (stderr)
    the traceback, when the bot uses the SDK."""


class StartProblem(Enum):
    """Why a bot process could not be made ready (a start_failed fault), so that what to
    fix can be said for that cause and no other: a missing program is not fixed by
    listening sooner, nor a bot that listens elsewhere by building it."""

    MISSING = "missing"
    """Its program is not there: not on PATH, or no file at the path given."""
    NOT_EXECUTABLE = "not_executable"
    """The program is there but may not be run (no execute permission, a folder)."""
    OUTSIDE_SANDBOX = "outside_sandbox"
    """The program is outside what the sandbox lets a bot see."""
    EXITED = "exited"
    """It ran and exited (or was killed) before it listened."""
    NEVER_LISTENED = "never_listened"
    """It ran but did not listen on its address in time (perhaps only slow)."""
    LISTENS_ELSEWHERE = "listens_elsewhere"
    """It listens, but on an address other than the one it was given."""
    REFUSED_SOCKET = "refused_socket"
    """Its socket is not one the arena may connect to (a link, another process's)."""
    HANDSHAKE = "handshake"
    """It listened but did not answer Hello properly."""
    SETUP = "setup"
    """Nothing of the bot's yet: its working folder, its log, its sandbox."""


class BotFault(BotError):
    """Raised by the layers that talk to a bot when the bot misbehaved (the game loop
    rules it as a fault). `start` says why a start failed (start_failed only)."""

    def __init__(self, kind: FaultKind, detail: str, *,
                 start: StartProblem | None = None) -> None:
        self.kind = kind
        self.detail = detail
        self.start = start
        super().__init__(f"{kind.value}: {detail}")


@dataclass(frozen=True, slots=True)
class Fault:
    kind: FaultKind
    seat: int
    hand_number: int
    decision_number: int
    detail: str
    substituted: bool
    """True: the arena played a random legal action instead; False: the team forfeited."""
