"""What each seat is told happened, as the game goes on.

The events themselves are the game's (GameState.apply() returns them, with full
information); what a seat may be told of each is decided in arena.core.view, with the seat
view. The feed only queues each seat's share of the one stream until it is sent. The
event types are importable from here too (`Event` is what a seat is told), as the wire
and the SDK do.
"""

from __future__ import annotations

from collections.abc import Iterable

from arena.core.actions import Action
from arena.core.game import (
    ActionTaken,
    GameEnded,
    GameEvent,
    GameState,
    HandDealt,
    HandEnded,
    TrickCompleted,
)
from arena.core.view import Event, HandStarted, seat_event

__all__ = [
    "ActionTaken",
    "Event",
    "EventFeed",
    "GameEnded",
    "GameEvent",
    "HandDealt",
    "HandEnded",
    "HandStarted",
    "TrickCompleted",
]


class EventFeed:
    """Keeps, for each seat, the events it has not yet been told, filtered for it. A match
    runner gives it the game's events with tell() (or lets apply() apply the action) and
    takes a seat's with take(seat) when it next writes to that seat."""

    __slots__ = ("_pending", "game")

    def __init__(self, game: GameState) -> None:
        self.game = game
        self._pending: list[list[Event]] = [[] for _ in range(game.rules.seats)]
        self.tell((game.dealt,))

    def tell(self, events: Iterable[GameEvent]) -> None:
        """Queues each seat's view of the events (the game's own, in order)."""
        events = tuple(events)
        for seat, pending in enumerate(self._pending):
            pending.extend(seat_event(e, seat) for e in events)

    def apply(self, action: Action, seat: int | None = None) -> tuple[GameEvent, ...]:
        """Applies the action to the game and queues what it caused; returns the game's
        events (full information)."""
        events = self.game.apply(action, seat)
        self.tell(events)
        return events

    def forfeit(self, losing_team: int) -> None:
        """Ends the feed of a game stopped by a fault: the other team is credited."""
        g = self.game
        self.tell((GameEnded((g.scores[0], g.scores[1]), 1 - losing_team, forfeit=True),))

    def stalled(self) -> None:
        """Ends the feed of a game the arena stopped for its hands thrown in without end:
        a draw, the scores as they stand."""
        g = self.game
        self.tell((GameEnded((g.scores[0], g.scores[1]), None),))

    def take(self, seat: int) -> list[Event]:
        events = self._pending[seat]
        self._pending[seat] = []
        return events
