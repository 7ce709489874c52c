"""What each seat is told happened, as the game goes on.

Like the seat view, this decides hidden information, so it lives in the rules core: the
only thing a seat sees of another seat's discard is that it happened, and the dealer who
names trump on a turned joker is dealt no visible cards until after naming.
"""

from __future__ import annotations

from dataclasses import dataclass

from arena.core.actions import Action, ActionKind
from arena.core.cards import Card
from arena.core.game import GameState
from arena.core.hand import HandResult, Phase, Trick


@dataclass(frozen=True, slots=True)
class HandStarted:
    hand_number: int
    dealer: int
    upcard: Card
    hand: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class ActionTaken:
    seat: int
    action: Action | None
    """None when the action's card is hidden from this seat (another seat's discard)."""
    kind: ActionKind


@dataclass(frozen=True, slots=True)
class TrickCompleted:
    trick: Trick


@dataclass(frozen=True, slots=True)
class HandEnded:
    result: HandResult
    scores: tuple[int, int]


@dataclass(frozen=True, slots=True)
class GameEnded:
    scores: tuple[int, int]
    winning_team: int
    forfeit: bool = False


Event = HandStarted | ActionTaken | TrickCompleted | HandEnded | GameEnded


class EventFeed:
    """Applies actions to a game and keeps, for each seat, the events it has not yet been
    told. A match runner takes them with take(seat) when it next writes to that seat."""

    __slots__ = ("_pending", "game")

    def __init__(self, game: GameState) -> None:
        self.game = game
        self._pending: list[list[Event]] = [[] for _ in range(game.rules.seats)]
        self._hand_started()

    def _hand_started(self) -> None:
        game = self.game
        hand = game.hand
        hidden_dealer = hand.phase is Phase.DEALER_NAMES_TRUMP
        for seat, pending in enumerate(self._pending):
            cards = () if hidden_dealer and seat == hand.dealer else tuple(sorted(hand.hands[seat]))
            pending.append(HandStarted(game.hand_number, hand.dealer, hand.upcard, cards))

    def apply(self, action: Action, seat: int | None = None) -> HandResult | None:
        game = self.game
        hand = game.hand
        actor = hand.turn
        tricks_before = len(hand.tricks)
        result = game.apply(action, seat)
        hidden = action.kind is ActionKind.DISCARD
        for s, pending in enumerate(self._pending):
            shown = None if hidden and s != actor else action
            pending.append(ActionTaken(actor, shown, action.kind))
        if len(hand.tricks) > tricks_before:
            self._broadcast(TrickCompleted(hand.tricks[-1]))
        if result is not None:
            scores = (game.scores[0], game.scores[1])
            self._broadcast(HandEnded(result, scores))
            if game.over:
                assert game.winner is not None
                self._broadcast(GameEnded(scores, game.winner))
            else:
                self._hand_started()
        return result

    def forfeit(self, losing_team: int) -> None:
        """Ends the feed of a game stopped by a fault: the other team is credited."""
        g = self.game
        self._broadcast(GameEnded((g.scores[0], g.scores[1]), 1 - losing_team, forfeit=True))

    def _broadcast(self, event: Event) -> None:
        for pending in self._pending:
            pending.append(event)

    def take(self, seat: int) -> list[Event]:
        events = self._pending[seat]
        self._pending[seat] = []
        return events
