"""A game: hands until a team reaches the target score.

Every deal is a pure function of (game seed, hand number), and the first dealer of the
seed, so a game is reproduced exactly from its seed and its actions: this is what lets a
ladder replay an interrupted game and a viewer re-check a record against the rules.
"""

from __future__ import annotations

from random import Random

from arena.core.actions import Action
from arena.core.cards import Card, build_deck
from arena.core.errors import IllegalActionError
from arena.core.hand import HandResult, HandState, Phase
from arena.core.rules import RuleSet

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


class GameState:
    """Scores, the dealer rotation and the current hand. Thrown-in hands pass the deal."""

    __slots__ = (
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

    def __init__(self, rules: RuleSet, seed: int, first_dealer: int | None = None) -> None:
        self.rules = rules
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
        """The winning team, once the game is over."""
        self.hand = self._deal()

    def _deal(self) -> HandState:
        dealer = (self.first_dealer + self.hand_number) % self.rules.seats
        return HandState.deal(self.rules, dealer, deck_order(self.rules, self.seed, self.hand_number))

    @property
    def turn(self) -> int:
        return self.hand.turn

    @property
    def phase(self) -> Phase:
        return self.hand.phase

    def legal_actions(self) -> list[Action]:
        return [] if self.over else self.hand.legal_actions()

    def apply(self, action: Action, seat: int | None = None) -> HandResult | None:
        """Applies an action; returns the hand's result when this action ended a hand (the
        next hand is then already dealt, unless the game is over)."""
        if self.over:
            raise IllegalActionError(action, "a finished game", "the game is over")
        hand = self.hand
        hand.apply(action, seat)
        if hand.phase is not Phase.HAND_OVER:
            return None
        result = hand.result
        assert result is not None
        self.results.append(result)
        team = result.score.team
        if team is not None:
            self.scores[team] += result.score.points
            if self.scores[team] >= self.rules.target:
                self.over = True
                self.winner = team
        if not self.over:
            self.hand_number += 1
            self.hand = self._deal()
        return result


def derive_seed(seed: int, index: int) -> int:
    """The index-th game seed of a match or ladder seeded with `seed` (splitmix64), so
    every game's deals are fixed by one number and its place in the schedule."""
    _check_seed(seed)
    x = (seed + (index + 1) * 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
    return (x ^ (x >> 31)) & MAX_SEED
