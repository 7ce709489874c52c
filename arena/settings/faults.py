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


class BotFault(BotError):
    """Raised by the layers that talk to a bot when the bot misbehaved (the game loop
    rules it as a fault)."""

    def __init__(self, kind: FaultKind, detail: str) -> None:
        self.kind = kind
        self.detail = detail
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
