"""The record of a game as domain values: what the match runner writes, what the replay
viewer shows and what verification replays. The codec turns it into the GameRecord
message of proto/euchre/v1/record.proto and back.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from enum import Enum

from arena.core.actions import Action
from arena.core.cards import Card
from arena.core.game import (
    ActionTaken,
    GameEnded,
    GameEvent,
    GameState,
    HandDealt,
    HandEnded,
    TrickCompleted,
)
from arena.core.hand import HandResult
from arena.core.rules import RULES_EDITION, RuleSet
from arena.settings.faults import Fault
from arena.settings.limits import SeatLimits
from arena.settings.spec import TimeControl

SCHEMA_VERSION = 1


STALLED_AFTER = 100
"""Hands thrown in one after another (every seat passed, under rules without
stick-the-dealer) after which the arena ends a game as stalled, a draw: bots that never
make trump would otherwise redeal for ever and hold a ladder up all night. Honest bots
never come near it (a hand of the heuristic bots is thrown in about one time in ten)."""


def thrown_in_run(results: Sequence[HandResult]) -> int:
    """How many of the last hands were thrown in, one after another."""
    run = 0
    for r in reversed(results):
        if r.maker is not None:
            break
        run += 1
    return run


class GameEnd(Enum):
    COMPLETED = "completed"
    FORFEIT = "forfeit"
    """A bot fault: the other team is credited with the win, scores stay as they stood."""
    STALLED = "stalled"
    """STALLED_AFTER hands in a row thrown in: a draw, scores as they stood, the hand just
    dealt left unplayed."""


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
    limits: SeatLimits | None = None
    """What bounded a sealed process (None: not sealed, the arena's own, or not known)."""


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
    """Each seat's cards as dealt, by seat."""
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
    """None while unfinished, and for a draw (see `drawn`)."""
    end: GameEnd | None = None
    faults: list[Fault] = field(default_factory=list)
    started_ms: int = 0
    finished_ms: int = 0
    schema_version: int = SCHEMA_VERSION
    table_id: str = ""
    """The opaque id the bots were told (game_id is the arena's own)."""
    rules_edition: int = RULES_EDITION
    """The reading of the rules the game was played by (arena.core.rules.RULES_EDITION)."""
    time_control: TimeControl | None = None
    """What the game was played under; None in records written before it was kept."""

    @property
    def drawn(self) -> bool:
        """Nobody won: played to its end level (league play), or stalled."""
        return self.winning_team is None and self.end in (GameEnd.COMPLETED, GameEnd.STALLED)

    def points_of_team(self, team: int) -> float:
        """1 for a win, 0.5 for a draw, 0 for a loss: what ratings count."""
        return 0.5 if self.drawn else float(self.winning_team == team)

    @property
    def sandboxed(self) -> bool:
        """Every seat was played sealed."""
        return all(s.sandboxed for s in self.seats)


class Recorder:
    """Keeps a GameLog in step with the game it records, from the game's own events (what
    GameState.apply() returns, full information), so that the runner and anything else
    that plays games write records the same way."""

    def __init__(self, game: GameState, log: GameLog) -> None:
        self.game = game
        self.log = log
        self._scores = (game.scores[0], game.scores[1])
        self.record((game.dealt,))

    def record(
        self, events: Iterable[GameEvent], think_us: int = 0, substituted: bool = False
    ) -> None:
        """Records the events of one action (think_us and substituted are that action's),
        or the opening deal."""
        log = self.log
        for e in events:
            if isinstance(e, ActionTaken):
                assert e.action is not None, "the record is made from the game's own events"
                log.hands[-1].actions.append(LoggedAction(e.seat, e.action, think_us, substituted))
            elif isinstance(e, TrickCompleted):
                log.hands[-1].trick_winners.append(e.trick.winner)
            elif isinstance(e, HandEnded):
                log.hands[-1].result = e.result
                log.hands[-1].scores_after = self._scores = e.scores
            elif isinstance(e, HandDealt):
                log.hands.append(HandLog(e.hand_number, e.dealer, e.hands, e.kitty))
            elif isinstance(e, GameEnded):
                self._scores = e.scores

    def apply(
        self,
        apply: Callable[[Action, int], Iterable[GameEvent]],
        action: Action,
        seat: int,
        think_us: int = 0,
        substituted: bool = False,
    ) -> tuple[GameEvent, ...]:
        """Applies the action with `apply` (the game's, or an event feed's) and records
        the events it returns; an illegal action raises before anything is recorded."""
        events = tuple(apply(action, seat))
        self.record(events, think_us, substituted)
        return events

    def finish(self, end: GameEnd, winning_team: int | None) -> GameLog:
        log = self.log
        log.end = end
        log.winning_team = winning_team
        log.final_scores = self._scores
        return log
