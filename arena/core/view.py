"""What a seat may know: the one module that decides hidden information.

Everything a bot is asked with, everything it is told happened, and everything a viewer
shows from a seat goes through here: seat_view() builds what a seat may know of the
state at a moment, and seat_event() what it is told of each event of the game's stream
(GameState.apply()'s events, which hold full information). A seat may not see:

- another seat's cards, or the kitty but for the upcard;
- the dealer's discard, unless it is the dealer: another seat sees only that the dealer
  discarded (its view has no discard, its event no card); the same for a lone player's
  discard in an exchange;
- a card a partner gives a lone player (Cornwall), but for the two of them; a card
  passed face down (railroading), but for the giver, until the loner takes it into the
  hand;
- its own cards while, as the dealer of a turned joker, it names trump: it has not looked
  at them yet (its view holds no cards, and it is dealt a HandStarted without them).

Nothing hidden enters a view or a seat's event, so no later layer can leak it by accident.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from arena.core.actions import Action, ActionKind
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
from arena.core.hand import HandState, Phase
from arena.core.rules import RuleSet

# --- the rules of hidden information ---------------------------------------------------


def _looks_at_own_cards(seat: int, dealer: int, naming_blind: bool) -> bool:
    """Every seat looks at its cards, but the dealer while naming trump on a turned joker
    (`naming_blind`: the hand is in DEALER_NAMES_TRUMP, which a turned joker opens)."""
    return not (naming_blind and seat == dealer)


def _sees_discard(seat: int, dealer: int) -> bool:
    """Only the dealer sees the card it put down."""
    return seat == dealer


def _sees_card_of(seat: int, taken: ActionTaken) -> bool:
    """Whether `seat` sees the card of another seat's action: a discard is seen by whoever
    put it down, a card given by the giver and the lone player given it, a card passed
    face down by the giver alone; played cards by everyone."""
    action = taken.action
    if action is None or action.card is None or taken.kind is ActionKind.PLAY:
        return True
    if seat == taken.seat:
        return True
    return taken.kind is ActionKind.GIVE and seat == action.seat


# --- what a seat may know of the state --------------------------------------------------


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
    cards_in_hands: tuple[int, ...] = ()
    """How many cards each seat holds now, by seat (public: the deal, the plays and the
    exchanges say it)."""
    gave: Card | None = None
    """The card this seat gave (or passed face down to) a lone partner."""
    set_aside: tuple[Card, ...] = ()
    """Cards this seat, playing alone, put face down in an exchange (not a railroaded card
    set aside unseen)."""

    def cards_held(self) -> list[int]:
        """How many cards each seat holds (public facts: what was dealt, played, taken up
        and exchanged)."""
        return list(self.cards_in_hands)

    def visible_cards(self) -> set[Card]:
        """Every card this view reveals (for checks that nothing hidden leaked)."""
        cards = set(self.hand) | {self.upcard} | set(self.set_aside)
        if self.discard is not None:
            cards.add(self.discard)
        if self.gave is not None:
            cards.add(self.gave)
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
    looking = _looks_at_own_cards(seat, hand.dealer, phase is Phase.DEALER_NAMES_TRUMP)
    current = None
    if phase is Phase.PLAY and hand.trick_plays:
        current = TrickView(hand.trick_leader, tuple(hand.trick_plays), None)
    # Turned down once round 1 ended without a taker (a dealer's pass in the alone round
    # is no pass of the upcard); a turned joker is never turned down.
    round2 = (
        phase is not Phase.BID_ROUND_1
        and phase is not Phase.DEALER_NAMES_TRUMP
        and not hand.trump_from_upcard
    )
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
        sitting_out=tuple(s for s in range(hand.seats) if hand.sitting_out[s]),
        discard=hand.discarded if _sees_discard(seat, hand.dealer) else None,
        cards_in_hands=tuple(len(h) for h in hand.hands),
        gave=hand.gave[seat],
        set_aside=tuple(hand.set_aside[seat]),
        tricks=tuple(TrickView(t.leader, t.plays, t.winner) for t in hand.tricks),
        current_trick=current,
        tricks_won=(hand.tricks_won[0], hand.tricks_won[1]),
        legal_actions=tuple(hand.legal_actions()) if not over and seat == hand.turn else (),
    )


_PRIVATE_OR_PLAY = frozenset(
    {ActionKind.DISCARD, ActionKind.PLAY, ActionKind.GIVE, ActionKind.PASS_CARD}
)


# --- what a seat is told happened ------------------------------------------------------


@dataclass(frozen=True, slots=True)
class HandStarted:
    """A hand was dealt, as one seat is told of it: its own cards (sorted), or none for
    the dealer who names trump on a turned joker."""

    hand_number: int
    dealer: int
    upcard: Card
    hand: tuple[Card, ...]


Event = HandStarted | ActionTaken | TrickCompleted | HandEnded | GameEnded
"""What one seat is told happened: the game's events through seat_event()."""


def seat_event(event: GameEvent, seat: int) -> Event:
    """What `seat` is told of one event of the game: a deal as its own HandStarted, and
    another seat's discard as an ActionTaken without its card; the rest is public."""
    if isinstance(event, HandDealt):
        looking = _looks_at_own_cards(seat, event.dealer, event.dealer_names_blind)
        cards = tuple(sorted(event.hands[seat])) if looking else ()
        return HandStarted(event.hand_number, event.dealer, event.upcard, cards)
    if isinstance(event, ActionTaken) and not _sees_card_of(seat, event):
        return ActionTaken(event.seat, None, event.kind)
    return event


def seat_events(events: Iterable[GameEvent], seat: int) -> list[Event]:
    """seat_event() of each event, in order."""
    return [seat_event(e, seat) for e in events]
