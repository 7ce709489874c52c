"""The record of a game as domain values: what the match runner writes, what the replay
viewer shows and what verification replays. The codec turns it into the GameRecord
message of proto/euchre/v1/record.proto and back.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

from arena.core.actions import Action
from arena.core.cards import Card
from arena.core.hand import HandResult
from arena.core.rules import RuleSet
from arena.faults import Fault

SCHEMA_VERSION = 1


class GameEnd(Enum):
    COMPLETED = "completed"
    FORFEIT = "forfeit"
    """A bot fault: the other team is credited with the win, scores stay as they stood."""


@dataclass(frozen=True, slots=True)
class SeatBot:
    seat: int
    name: str
    version: str


@dataclass(frozen=True, slots=True)
class LoggedAction:
    seat: int
    action: Action
    think_us: int = 0
    substituted: bool = False


@dataclass(slots=True)
class HandLog:
    hand_number: int
    dealer: int
    dealt: tuple[tuple[Card, ...], ...]
    """Each seat's five cards as dealt, by seat."""
    kitty: tuple[Card, ...]
    """Upcard first."""
    actions: list[LoggedAction] = field(default_factory=list)
    trick_winners: list[int] = field(default_factory=list)
    result: HandResult | None = None
    scores_after: tuple[int, int] = (0, 0)

    @property
    def upcard(self) -> Card:
        return self.kitty[0]


@dataclass(slots=True)
class GameLog:
    game_id: str
    rules: RuleSet
    seed: int
    first_dealer: int
    seats: tuple[SeatBot, ...]
    hands: list[HandLog] = field(default_factory=list)
    final_scores: tuple[int, int] = (0, 0)
    winning_team: int | None = None
    end: GameEnd | None = None
    faults: list[Fault] = field(default_factory=list)
    started_ms: int = 0
    finished_ms: int = 0
    schema_version: int = SCHEMA_VERSION
