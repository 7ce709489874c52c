"""The rules core: cards, rule sets, the hand and game state machine and its events,
scoring, and what a seat may know (the seat view, each seat's events). Pure: it imports
no I/O (no trio, grpc, rich, os, subprocess or files), so bots, benchmarks and replays
drive it directly and it is the only judge of legality."""

from arena.core.actions import Action, ActionKind
from arena.core.cards import JOKER, Card, Suit, card_name, parse_card
from arena.core.errors import IllegalActionError, RulesCoreError, RuleSetError
from arena.core.events import EventFeed
from arena.core.game import (
    ActionTaken,
    GameEnded,
    GameEvent,
    GameState,
    HandDealt,
    HandEnded,
    TrickCompleted,
    deck_order,
    first_dealer_for,
)
from arena.core.hand import HandResult, HandState, Phase, Trick
from arena.core.rules import (
    PRESETS,
    FirstLead,
    LoneDefender,
    RuleSet,
    WhoMayGoAlone,
    preset,
    rules_from_options,
)
from arena.core.scoring import Outcome, Score, score_hand
from arena.core.view import (
    Event,
    HandStarted,
    SeatView,
    TrickView,
    hand_view,
    seat_event,
    seat_events,
    seat_view,
)

__all__ = [
    "JOKER",
    "PRESETS",
    "Action",
    "ActionKind",
    "ActionTaken",
    "Card",
    "Event",
    "EventFeed",
    "FirstLead",
    "GameEnded",
    "GameEvent",
    "GameState",
    "HandDealt",
    "HandEnded",
    "HandResult",
    "HandStarted",
    "HandState",
    "IllegalActionError",
    "LoneDefender",
    "Outcome",
    "Phase",
    "RuleSet",
    "RuleSetError",
    "RulesCoreError",
    "Score",
    "SeatView",
    "Suit",
    "Trick",
    "TrickCompleted",
    "TrickView",
    "WhoMayGoAlone",
    "card_name",
    "deck_order",
    "first_dealer_for",
    "hand_view",
    "parse_card",
    "preset",
    "rules_from_options",
    "score_hand",
    "seat_event",
    "seat_events",
    "seat_view",
]
