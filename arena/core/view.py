"""The one function that builds what a seat may know at a moment.

Everything a bot is asked with, and everything a viewer shows from a seat, goes through
seat_view(). Hidden information is decided here and nowhere else: another seat's cards,
the kitty and (but for the dealer) the discard never enter a view, so no later layer can
leak them by accident.
"""

from __future__ import annotations

from dataclasses import dataclass

from arena.core.actions import Action, ActionKind
from arena.core.cards import JOKER, Card
from arena.core.game import GameState
from arena.core.hand import HandState, Phase
from arena.core.rules import RuleSet


@dataclass(frozen=True, slots=True)
class TrickView:
    leader: int
    plays: tuple[tuple[int, Card], ...]
    winner: int | None
    """None while the trick is being played."""


@dataclass(frozen=True, slots=True)
class SeatView:
    seat: int
    rules: RuleSet
    hand_number: int
    dealer: int
    scores: tuple[int, int]
    phase: Phase
    turn: int | None
    """The seat to act (None once the hand is over)."""
    hand: tuple[Card, ...]
    """This seat's cards; empty for the dealer naming trump on a turned joker, who has not
    looked at them yet."""
    upcard: Card
    upcard_turned_down: bool
    """Round 2 or later with nobody having ordered it up."""
    dealer_took_upcard: bool
    auction: tuple[tuple[int, Action], ...]
    """Every public decision before play: bids, trump named, going alone or not."""
    trump: int | None
    maker: int | None
    alone: tuple[int, ...]
    sitting_out: tuple[int, ...]
    discard: Card | None
    """The dealer's discard: only in the dealer's own view."""
    tricks: tuple[TrickView, ...]
    current_trick: TrickView | None
    tricks_won: tuple[int, int]
    legal_actions: tuple[Action, ...] = ()
    """What this seat may do now: empty unless it is this seat's turn."""

    def cards_held(self) -> list[int]:
        """How many cards each seat holds, from public facts only: what was dealt, less
        what was played, plus the upcard while the dealer who took it discards."""
        counts = [self.rules.cards_per_hand] * self.rules.seats
        for t in (*self.tricks, *((self.current_trick,) if self.current_trick else ())):
            for seat, _ in t.plays:
                counts[seat] -= 1
        if self.dealer_took_upcard and self.phase is Phase.DEALER_DISCARD:
            counts[self.dealer] += 1
        return counts

    def visible_cards(self) -> set[Card]:
        """Every card this view reveals (for checks that nothing hidden leaked)."""
        cards = set(self.hand) | {self.upcard}
        if self.discard is not None:
            cards.add(self.discard)
        for t in (*self.tricks, *((self.current_trick,) if self.current_trick else ())):
            cards.update(c for _, c in t.plays)
        return cards


def seat_view(game: GameState, seat: int) -> SeatView:
    return hand_view(game.hand, seat, game.hand_number, (game.scores[0], game.scores[1]))


def hand_view(
    hand: HandState, seat: int, hand_number: int = 0, scores: tuple[int, int] = (0, 0)
) -> SeatView:
    """The view of one seat in one hand (seat_view() adds the game's score and number)."""
    phase = hand.phase
    over = phase is Phase.HAND_OVER
    looking = not (phase is Phase.DEALER_NAMES_TRUMP and seat == hand.dealer)
    current = None
    if phase is Phase.PLAY and hand.trick_plays:
        current = TrickView(hand.trick_leader, tuple(hand.trick_plays), None)
    # Turned down once round 1 ended without a taker (a dealer's pass in the alone round
    # is no pass of the upcard); a turned joker is never turned down.
    round2 = phase is not Phase.BID_ROUND_1 and not hand.trump_from_upcard and hand.upcard != JOKER
    return SeatView(
        seat=seat,
        rules=hand.rules,
        hand_number=hand_number,
        dealer=hand.dealer,
        scores=scores,
        phase=phase,
        turn=None if over else hand.turn,
        hand=tuple(sorted(hand.hands[seat])) if looking else (),
        upcard=hand.upcard,
        upcard_turned_down=round2,
        dealer_took_upcard=hand.dealer_took_upcard,
        auction=tuple((s, a) for s, a in hand.history if a.kind not in _PRIVATE_OR_PLAY),
        trump=hand.trump,
        maker=hand.maker,
        alone=tuple(hand.alone),
        sitting_out=tuple(s for s in range(4) if hand.sitting_out[s]),
        discard=hand.discarded if seat == hand.dealer else None,
        tricks=tuple(TrickView(t.leader, t.plays, t.winner) for t in hand.tricks),
        current_trick=current,
        tricks_won=(hand.tricks_won[0], hand.tricks_won[1]),
        legal_actions=tuple(hand.legal_actions()) if not over and seat == hand.turn else (),
    )


_PRIVATE_OR_PLAY = frozenset({ActionKind.DISCARD, ActionKind.PLAY})
