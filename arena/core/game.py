"""A game: hands until a team reaches the target score (by two, with that option), or,
in league play, a fixed number of hands, which may end level: a draw.

Every deal is a pure function of (game seed, hand number), and the first dealer of the
seed, so a game is reproduced exactly from its seed and its actions: this is what lets a
ladder replay an interrupted game and a viewer re-check a record against the rules.

GameState.apply() says what each action caused, as events in the order they happened: the
one stream that the record, the replay and every seat's feed are made from. The events
hold full information (every seat's cards in a deal, every discard); what a seat may be
told of them is decided in arena.core.view, with the seat view.
"""

from __future__ import annotations

from dataclasses import dataclass
from random import Random

from arena.core.actions import Action, ActionKind
from arena.core.cards import Card, build_deck
from arena.core.errors import IllegalActionError
from arena.core.hand import HandResult, HandState, Phase, Trick
from arena.core.rules import RULES_EDITION, RuleSet

MAX_SEED = (1 << 63) - 1
_FIRST_DEALER_STREAM = 0xFFFFFFFF


def _check_seed(seed: int) -> None:
    if not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
        raise ValueError(f"game seed must be a whole number from 0 to 2**63-1, not {seed!r}")


def deck_order(rules: RuleSet, seed: int, hand_number: int) -> list[Card]:
    """The shuffled deck of one hand. Each (seed, hand) pair seeds its own generator, so
    hand 40 does not require dealing hands 0 to 39 first."""
    _check_seed(seed)
    if not 0 <= hand_number < _FIRST_DEALER_STREAM:
        raise ValueError(f"hand number out of range: {hand_number}")
    deck = list(build_deck(rules.deck))
    Random((seed << 32) | hand_number).shuffle(deck)
    return deck


def first_dealer_for(seed: int, seats: int = 4) -> int:
    _check_seed(seed)
    return Random((seed << 32) | _FIRST_DEALER_STREAM).randrange(seats)


# --- what happens in a game ----------------------------------------------------------


@dataclass(frozen=True, slots=True)
class HandDealt:
    """A hand was dealt: every seat's cards as dealt, by seat, and the kitty, upcard
    first. Full information: a seat is told of it as a HandStarted (arena.core.view)."""

    hand_number: int
    dealer: int
    hands: tuple[tuple[Card, ...], ...]
    kitty: tuple[Card, ...]
    dealer_names_blind: bool = False
    """A turned joker: the dealer names trump before looking (so is shown no cards)."""

    @property
    def upcard(self) -> Card:
        return self.kitty[0]


@dataclass(frozen=True, slots=True)
class ActionTaken:
    seat: int
    action: Action | None
    """None when the action's card is hidden from this seat (another seat's discard);
    never None in GameState.apply()'s events."""
    kind: ActionKind


@dataclass(frozen=True, slots=True)
class TrickCompleted:
    trick: Trick


@dataclass(frozen=True, slots=True)
class HandEnded:
    result: HandResult
    scores: tuple[int, int]
    """The game's scores with this hand counted."""


@dataclass(frozen=True, slots=True)
class GameEnded:
    scores: tuple[int, int]
    winning_team: int | None
    """None for a draw (league play: level after the last hand; or a game the arena
    stopped as stalled, never from GameState.apply())."""
    forfeit: bool = False
    """Stopped by a bot's fault (the other team credited): never from GameState.apply()."""


GameEvent = HandDealt | ActionTaken | TrickCompleted | HandEnded | GameEnded
"""What happens in a game, with full information."""

_TAKEN: tuple[dict[Action, tuple[ActionTaken]], ...] = tuple({} for _ in range(6))
"""The events of an action that completes no trick, one constant per (seat, action):
actions are interned, so most calls of apply() allocate nothing for their events."""


def _taken(seat: int, action: Action) -> tuple[ActionTaken]:
    events = (ActionTaken(seat, action, action.kind),)
    _TAKEN[seat][action] = events
    return events


class GameState:
    """Scores, the dealer rotation and the current hand. Thrown-in hands pass the deal."""

    __slots__ = (
        "dealt",
        "edition",
        "first_dealer",
        "hand",
        "hand_number",
        "over",
        "results",
        "rules",
        "scores",
        "seed",
        "winner",
    )

    def __init__(self, rules: RuleSet, seed: int, first_dealer: int | None = None,
                 edition: int = RULES_EDITION) -> None:
        self.rules = rules
        self.edition = edition
        """The reading of the rules its hands are played by (a record's, when replayed)."""
        self.seed = seed
        if first_dealer is None:
            first_dealer = first_dealer_for(seed, rules.seats)
        elif not 0 <= first_dealer < rules.seats:
            raise ValueError(f"first dealer must be a seat from 0 to {rules.seats - 1}")
        self.first_dealer = first_dealer
        self.scores = [0, 0]
        self.hand_number = 0
        self.results: list[HandResult] = []
        self.over = False
        self.winner: int | None = None
        """The winning team, once the game is over (None too for a draw)."""
        self.dealt: HandDealt
        """The deal of the current hand: the first event of a game's stream, before any
        action (apply() returns those of later hands)."""
        self.hand = self._deal()

    def _deal(self) -> HandState:
        number = self.hand_number
        dealer = (self.first_dealer + number) % self.rules.seats
        hand: HandState = HandState.deal(self.rules, dealer, deck_order(self.rules, self.seed, number),
                                         self.edition)
        self.dealt = HandDealt(
            number, dealer, tuple(map(tuple, hand.hands)), hand.kitty,
            hand.phase is Phase.DEALER_NAMES_TRUMP,
        )
        return hand

    @property
    def turn(self) -> int:
        return self.hand.turn

    @property
    def phase(self) -> Phase:
        return self.hand.phase

    def legal_actions(self) -> list[Action]:
        return [] if self.over else self.hand.legal_actions()

    def apply(self, action: Action, seat: int | None = None) -> tuple[GameEvent, ...]:
        """Applies the action of the seat to act (`seat`, when given, must be it) and
        returns what it caused, in order: ActionTaken; TrickCompleted when it completed a
        trick; HandEnded when it ended the hand, then HandDealt for the next hand (already
        dealt) or GameEnded. An illegal action raises IllegalActionError and changes
        nothing."""
        if self.over:
            raise IllegalActionError(action, "a finished game", "the game is over")
        hand = self.hand
        actor = hand.turn
        before = len(hand.tricks)
        hand.apply(action, seat)
        try:
            taken = _TAKEN[actor][action]
        except KeyError:
            taken = _taken(actor, action)
        result = hand.result
        if len(hand.tricks) == before:
            if result is None:  # most actions: a constant, nothing allocated
                return taken
            return taken + self._hand_over(result)
        events = (taken[0], TrickCompleted(hand.tricks[-1]))
        if result is None:
            return events
        return events + self._hand_over(result)

    def _hand_over(self, result: HandResult) -> tuple[HandEnded, HandDealt | GameEnded]:
        self.results.append(result)
        scores = self.scores
        team = result.score.team
        rules = self.rules
        if team is not None:
            scores[team] += result.score.points
        if rules.hand_limit is not None:
            if len(self.results) == rules.hand_limit:
                lead = scores[0] - scores[1]
                return self._end(result, None if lead == 0 else int(lead < 0))
        elif team is not None:
            leader = int(scores[1] > scores[0])
            if scores[leader] >= rules.target and (
                not rules.win_by_two or scores[leader] - scores[1 - leader] >= 2
            ):
                return self._end(result, leader)
        self.hand_number += 1
        self.hand = self._deal()
        return HandEnded(result, (scores[0], scores[1])), self.dealt

    def _end(self, result: HandResult, winner: int | None) -> tuple[HandEnded, GameEnded]:
        self.over = True
        self.winner = winner
        final = (self.scores[0], self.scores[1])
        return HandEnded(result, final), GameEnded(final, winner)


def derive_seed(seed: int, index: int) -> int:
    """The index-th game seed of a match or ladder seeded with `seed` (splitmix64), so
    every game's deals are fixed by one number and its place in the schedule."""
    _check_seed(seed)
    x = (seed + (index + 1) * 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
    return (x ^ (x >> 31)) & MAX_SEED
