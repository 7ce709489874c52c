"""Actions a seat can take, as interned immutable values.

Every action the engine offers is one of a fixed, small set of objects built here once,
so that legal-action lists cost no allocation and a decoded action from a bot compares
equal to the engine's own by value.
"""

from __future__ import annotations

from enum import IntEnum

from arena.core.cards import NUM_CARD_IDS, SUITS, Card, Suit, card_name

_INTERNED: dict[tuple[int, int | None, int | None, bool], Action] = {}


class ActionKind(IntEnum):
    PASS = 0
    """Round 1 or 2: pass. Alone round: do not go alone."""
    ORDER_UP = 1
    """Round 1: accept the upcard as trump (the dealer's word is "pick it up")."""
    NAME_TRUMP = 2
    """Round 2, or the dealer when the joker is turned up: name a trump suit."""
    DISCARD = 3
    """The dealer, after taking the upcard: put one card face down."""
    GO_ALONE = 4
    """The alone round (when any player may go alone): play without a partner."""
    PLAY = 5
    """Play a card to the trick."""


class Action:
    """An immutable action. Instances are interned: equal actions are the same object, so
    checking one against a legal list is an identity test, and a malformed one (a card
    or suit that does not exist) is refused when it is made, not deep in the engine."""

    __slots__ = ("alone", "card", "kind", "suit")
    kind: ActionKind
    suit: Suit | None
    card: Card | None
    alone: bool
    """With ORDER_UP or NAME_TRUMP: the caller goes alone (when only makers may)."""

    def __new__(
        cls,
        kind: ActionKind,
        suit: Suit | int | None = None,
        card: Card | None = None,
        alone: bool = False,
    ) -> Action:
        key = (kind, suit, card, alone)
        found = _INTERNED.get(key)
        if (
            found is not None
            and (card is None or type(card) is int)
            and (suit is None or type(suit) in (Suit, int))
            and type(alone) is bool
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
        needs_card = kind in (ActionKind.DISCARD, ActionKind.PLAY)
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
        _INTERNED[key] = _INTERNED[(kind, suit, card, alone)] = obj
        return obj

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("actions are immutable")

    def __reduce__(self) -> tuple[type[Action], tuple[ActionKind, Suit | None, Card | None, bool]]:
        return (Action, (self.kind, self.suit, self.card, self.alone))

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
        assert self.card is not None
        return f"{'discard' if k is ActionKind.DISCARD else 'play'} {card_name(self.card)}"


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
