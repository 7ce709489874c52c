"""Actions a seat can take, as interned immutable values.

Every action the engine offers is one of a fixed, small set of objects built here once,
so that legal-action lists cost no allocation and a decoded action from a bot compares
equal to the engine's own by value.
"""

from __future__ import annotations

from enum import IntEnum

from arena.core.cards import NUM_CARD_IDS, SUITS, Card, Suit, card_name

_INTERNED: dict[tuple[int, int | None, int | None, bool, int | None], Action] = {}
MAX_SEATS = 6


class ActionKind(IntEnum):
    PASS = 0
    """Round 1 or 2: pass. Alone round: do not go alone. The dealer's pickup: leave the
    upcard. A loner's ask: ask nobody. Railroading: pass no card (the partner), or set the
    passed card aside unseen (the loner)."""
    ORDER_UP = 1
    """Round 1: accept the upcard as trump (the dealer's word is "pick it up")."""
    NAME_TRUMP = 2
    """Round 2, the dealer when the joker is turned up, or round 1 on a turned joker bid
    on: name a trump suit."""
    DISCARD = 3
    """Put one card face down: the dealer after taking the upcard, a lone player after a
    partner's GIVE, or in place of a railroaded card it takes."""
    GO_ALONE = 4
    """The alone round (when any player may go alone, or a defender may): play without a
    partner."""
    PLAY = 5
    """Play a card to the trick."""
    ASK = 6
    """A lone player asks `seat` (a partner) for a card: Cornwall's ask, or railroading at
    six seats, where the loner chooses which partner passes."""
    GIVE = 7
    """A partner gives `card` to the lone player `seat` (Cornwall): the loner sees it, no
    one else does."""
    PASS_CARD = 8
    """A partner passes `card` face down to the lone player `seat` (railroading): nobody
    but the giver sees it unless the loner takes it."""


class Action:
    """An immutable action. Instances are interned: equal actions are the same object, so
    checking one against a legal list is an identity test, and a malformed one (a card
    or suit that does not exist) is refused when it is made, not deep in the engine."""

    __slots__ = ("alone", "card", "kind", "seat", "suit")
    kind: ActionKind
    suit: Suit | None
    card: Card | None
    alone: bool
    """With ORDER_UP or NAME_TRUMP: the caller goes alone (when only makers may, and the
    dealer's partner who must)."""
    seat: int | None
    """With ASK: the partner asked; with GIVE and PASS_CARD: the lone player served."""

    def __new__(
        cls,
        kind: ActionKind,
        suit: Suit | int | None = None,
        card: Card | None = None,
        alone: bool = False,
        seat: int | None = None,
    ) -> Action:
        key = (kind, suit, card, alone, seat)
        found = _INTERNED.get(key)
        if (
            found is not None
            and (card is None or type(card) is int)
            and (suit is None or type(suit) in (Suit, int))
            and type(alone) is bool
            and (seat is None or type(seat) is int)
        ):
            return found  # (True == 1 and 1.0 == 1 hash alike: those go on to be refused)
        kind = ActionKind(kind)
        if type(alone) is not bool:
            raise ValueError(f"alone must be true or false, not {alone!r}")
        if suit is not None:
            if isinstance(suit, bool) or not isinstance(suit, int):
                raise ValueError(f"no such suit: {suit!r}")
            suit = Suit(suit)
        needs_suit = kind is ActionKind.NAME_TRUMP
        needs_card = kind in _CARD_KINDS
        needs_seat = kind in _SEAT_KINDS
        if needs_seat != (seat is not None):
            raise ValueError(f"{kind.name.lower()} {'needs' if needs_seat else 'takes no'} seat")
        if seat is not None and (
            not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < MAX_SEATS
        ):
            raise ValueError(f"no such seat: {seat!r}")
        if needs_suit != (suit is not None):
            raise ValueError(f"{kind.name.lower()} {'needs' if needs_suit else 'takes no'} suit")
        if needs_card != (card is not None):
            raise ValueError(f"{kind.name.lower()} {'needs' if needs_card else 'takes no'} card")
        if card is not None and (
            not isinstance(card, int) or isinstance(card, bool) or not 0 <= card < NUM_CARD_IDS
        ):
            raise ValueError(f"no such card: {card!r}")
        if alone and kind not in (ActionKind.ORDER_UP, ActionKind.NAME_TRUMP):
            raise ValueError(f"{kind.name.lower()} cannot be made alone")
        obj = object.__new__(cls)
        object.__setattr__(obj, "kind", kind)
        object.__setattr__(obj, "suit", suit)
        object.__setattr__(obj, "card", card)
        object.__setattr__(obj, "alone", alone)
        object.__setattr__(obj, "seat", seat)
        _INTERNED[key] = _INTERNED[(kind, suit, card, alone, seat)] = obj
        return obj

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("actions are immutable")

    def __reduce__(
        self,
    ) -> tuple[type[Action], tuple[ActionKind, Suit | None, Card | None, bool, int | None]]:
        return (Action, (self.kind, self.suit, self.card, self.alone, self.seat))

    def __repr__(self) -> str:
        return f"Action({self})"

    def __str__(self) -> str:
        k = self.kind
        if k is ActionKind.PASS:
            return "pass"
        if k is ActionKind.ORDER_UP:
            return "order up alone" if self.alone else "order up"
        if k is ActionKind.NAME_TRUMP:
            assert self.suit is not None
            name = self.suit.name.lower()
            return f"name {name} alone" if self.alone else f"name {name}"
        if k is ActionKind.GO_ALONE:
            return "go alone"
        if k is ActionKind.ASK:
            return f"ask seat {self.seat} for a card"
        assert self.card is not None
        if k is ActionKind.GIVE:
            return f"give {card_name(self.card)} to seat {self.seat}"
        if k is ActionKind.PASS_CARD:
            return f"pass {card_name(self.card)} face down to seat {self.seat}"
        return f"{'discard' if k is ActionKind.DISCARD else 'play'} {card_name(self.card)}"


_CARD_KINDS = frozenset({ActionKind.DISCARD, ActionKind.PLAY, ActionKind.GIVE, ActionKind.PASS_CARD})
_SEAT_KINDS = frozenset({ActionKind.ASK, ActionKind.GIVE, ActionKind.PASS_CARD})

PASS = Action(ActionKind.PASS)
ORDER_UP = Action(ActionKind.ORDER_UP)
ORDER_UP_ALONE = Action(ActionKind.ORDER_UP, alone=True)
GO_ALONE = Action(ActionKind.GO_ALONE)
NAME_TRUMP = tuple(Action(ActionKind.NAME_TRUMP, suit=s) for s in SUITS)
NAME_TRUMP_ALONE = tuple(Action(ActionKind.NAME_TRUMP, suit=s, alone=True) for s in SUITS)
DISCARD = tuple(Action(ActionKind.DISCARD, card=c) for c in range(NUM_CARD_IDS))
PLAY = tuple(Action(ActionKind.PLAY, card=c) for c in range(NUM_CARD_IDS))


def order_up(alone: bool = False) -> Action:
    return ORDER_UP_ALONE if alone else ORDER_UP


def name_trump(suit: Suit | int, alone: bool = False) -> Action:
    return (NAME_TRUMP_ALONE if alone else NAME_TRUMP)[suit]


def discard(card: Card) -> Action:
    return DISCARD[card]


def play(card: Card) -> Action:
    return PLAY[card]


ASK = tuple(Action(ActionKind.ASK, seat=s) for s in range(MAX_SEATS))
GIVE = tuple(
    tuple(Action(ActionKind.GIVE, card=c, seat=s) for s in range(MAX_SEATS))
    for c in range(NUM_CARD_IDS)
)
PASS_CARD = tuple(
    tuple(Action(ActionKind.PASS_CARD, card=c, seat=s) for s in range(MAX_SEATS))
    for c in range(NUM_CARD_IDS)
)


def ask(seat: int) -> Action:
    return ASK[seat]


def give(card: Card, to: int) -> Action:
    return GIVE[card][to]


def pass_card(card: Card, to: int) -> Action:
    return PASS_CARD[card][to]
