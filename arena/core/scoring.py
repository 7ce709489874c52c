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
    """Makers took a majority of the tricks but not all (3 or 4 of 5, 4 to 6 of 7)."""
    MARCH = "march"
    """Makers took every trick (alone or not)."""
    EUCHRED = "euchred"
    """Makers fell short of a majority."""


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
    """The table of RULES.md section 6 with the rule set's points: at four seats a march
    is 2 (4 alone) and a euchre 2; six-player Euchre scores 3 (6 alone) and 3."""
    defenders = 1 - makers_team
    if maker_tricks == rules.tricks_per_hand:
        points = rules.lone_march_points if maker_alone else rules.march_points
        return Score(Outcome.MARCH, makers_team, points)
    if maker_tricks >= rules.tricks_to_make:
        return Score(Outcome.MADE, makers_team, 1)
    points = rules.euchre_points
    if defender_alone:
        points = max(points, rules.lone_defender_euchre_points)
        if maker_tricks == 0 and rules.lone_defender_march_points is not None:
            points = max(points, rules.lone_defender_march_points)
    if maker_tricks == 0:
        points = max(points, rules.super_euchre_points)
    return Score(Outcome.EUCHRED, defenders, points)
