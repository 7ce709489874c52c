"""The record of a game as domain values: what the match runner writes, what the replay
viewer shows and what verification replays. The codec turns it into the GameRecord
message of proto/euchre/v1/record.proto and back.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from enum import Enum

from arena.core.actions import Action
from arena.core.cards import Card
from arena.core.game import GameState
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
    """From the bot's manifest: what the arena ran, not what the bot says."""
    digest: str = ""
    reported_name: str = ""
    """What the bot said of itself in its handshake, kept beside the arena's record."""
    reported_version: str = ""
    sandboxed: bool = False
    """Played sealed (or by the arena itself); False: the seat could have seen secrets."""


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
    table_id: str = ""
    """The opaque id the bots were told (game_id is the arena's own)."""

    @property
    def sandboxed(self) -> bool:
        """Every seat was played sealed."""
        return all(s.sandboxed for s in self.seats)


class Recorder:
    """Keeps a GameLog in step with the GameState it records, action by action, so that
    the runner and anything else that plays games write records the same way."""

    def __init__(self, game: GameState, log: GameLog) -> None:
        self.game = game
        self.log = log
        self._new_hand()

    def _new_hand(self) -> None:
        game = self.game
        hand = game.hand
        self.log.hands.append(
            HandLog(game.hand_number, hand.dealer, tuple(tuple(h) for h in hand.hands), hand.kitty)
        )

    def apply(
        self,
        apply: Callable[[Action, int], HandResult | None],
        action: Action,
        seat: int,
        think_us: int = 0,
        substituted: bool = False,
    ) -> HandResult | None:
        """Applies the action with `apply` (the game's, or an event feed's) and records it;
        an illegal action raises before anything is recorded."""
        game = self.game
        hand = game.hand
        hand_log = self.log.hands[-1]
        tricks_before = len(hand.tricks)
        result = apply(action, seat)
        hand_log.actions.append(LoggedAction(seat, action, think_us, substituted))
        if len(hand.tricks) > tricks_before:
            hand_log.trick_winners.append(hand.tricks[-1].winner)
        if result is not None:
            hand_log.result = result
            hand_log.scores_after = (game.scores[0], game.scores[1])
            if not game.over:
                self._new_hand()
        return result

    def finish(self, end: GameEnd, winning_team: int | None) -> GameLog:
        log = self.log
        log.end = end
        log.winning_team = winning_team
        log.final_scores = (self.game.scores[0], self.game.scores[1])
        return log
