"""The points a finished hand is worth (RULES.md section 6 and the scoring options).

Kept apart from the state machine so that every row of the table, and every option that
changes it, is one readable function that tests can call with plain numbers.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from arena.core.rules import RuleSet


class Outcome(Enum):
    THROWN_IN = "thrown_in"
    MADE = "made"
    """Makers took 3 or 4 tricks."""
    MARCH = "march"
    """Makers took all 5 (alone or not)."""
    EUCHRED = "euchred"
    """Makers took 0, 1 or 2."""


@dataclass(frozen=True, slots=True)
class Score:
    outcome: Outcome
    team: int | None
    """The team that scores (None for a thrown-in hand)."""
    points: int


def score_hand(
    rules: RuleSet,
    makers_team: int,
    maker_tricks: int,
    maker_alone: bool,
    defender_alone: bool,
) -> Score:
    defenders = 1 - makers_team
    if maker_tricks == 5:
        return Score(Outcome.MARCH, makers_team, 4 if maker_alone else 2)
    if maker_tricks >= 3:
        return Score(Outcome.MADE, makers_team, 1)
    points = 2
    if defender_alone:
        points = rules.lone_defender_euchre_points
        if maker_tricks == 0 and rules.lone_defender_march_points is not None:
            points = max(points, rules.lone_defender_march_points)
    if maker_tricks == 0:
        points = max(points, rules.super_euchre_points)
    return Score(Outcome.EUCHRED, defenders, points)
