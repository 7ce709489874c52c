"""The rules core: cards, rule sets, the hand and game state machine, scoring, and the
seat view. Pure: it imports no I/O (no trio, grpc, rich, os, subprocess or files), so
bots, benchmarks and replays drive it directly and it is the only judge of legality."""

from arena.core.actions import Action, ActionKind
from arena.core.cards import JOKER, Card, Suit, card_name, parse_card
from arena.core.errors import IllegalActionError, RulesCoreError, RuleSetError
from arena.core.game import GameState, deck_order, first_dealer_for
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
from arena.core.view import SeatView, TrickView, hand_view, seat_view

__all__ = [
    "JOKER",
    "PRESETS",
    "Action",
    "ActionKind",
    "Card",
    "FirstLead",
    "GameState",
    "HandResult",
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
    "seat_view",
]
