"""What a hand's points are worth in the game: the chance of winning it from each score.

A point at 0 to 0 and a point at 9 to 9 are not worth the same: at 9 a march is worth no
more than a made hand, and when the opponents stand at 9 any hand they make ends the game
while a euchre of them does not win it. PIMC's sampled deals are scored by the hand's
points; scored instead by the chance of winning the game from the score they leave, the
bot plays for the game, as a good player does near its end (calling to stop the other
side going out, not going alone when one point wins).

The chance of winning from a score comes from a simple model of the hands to come: each
hand, the dealing side and the other side score with the frequencies of the heuristic bot
in self-play on the standard rules (`bench/hand_outcomes.py`: 17,246 hands of 1,499
games; the dealer's side made 42.7% of hands, marched 11.7%, marched alone 2.1% and
euchred the others 8.0%; the other side made 22.2%, marched 4.9%, alone 0.4% and
euchred 8.1%; rounded so that they add to one, since no hand is thrown in under
stick-the-dealer), the deal passing to the other side each hand. The rule set's points,
target, win by two and fixed number of hands are its own.

The values are handed to the strategy in points at the current score (the change in the
chance of winning over the worth of one point now), so that the call margins keep their
meaning: at 0 to 0 the two agree nearly exactly.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache, lru_cache
from typing import Any

MADE, MARCH, LONE_MARCH, EUCHRE = "made", "march", "lone_march", "euchre"
DEALER_SIDE = ((MADE, 0.4266), (MARCH, 0.1165), (EUCHRE, 0.0804), (LONE_MARCH, 0.0209))
"""Per hand, what the dealer's side scores and how often: makes, marches, euchres the
others, marches alone."""
OTHER_SIDE = ((MADE, 0.2223), (MARCH, 0.0488), (EUCHRE, 0.0806), (LONE_MARCH, 0.0039))
"""The same for the side that does not deal."""
WIN_BY_TWO_SPAN = 12
"""Win by two: scores this far past the target are kept apart (beyond, only the lead
counts)."""


def _points(rules: Any) -> dict[str, int]:
    return {
        MADE: 1,
        MARCH: getattr(rules, "march_points", 2),
        LONE_MARCH: getattr(rules, "lone_march_points", 4),
        EUCHRE: getattr(rules, "euchre_points", 2),
    }


class GameValue:
    """The chance that a side wins the game, from its score, the others' score and
    whether it deals the next hand."""

    def __init__(self, rules: Any) -> None:
        self.target = int(getattr(rules, "target", 10))
        self.win_by_two = bool(getattr(rules, "win_by_two", False))
        self.hand_limit = getattr(rules, "hand_limit", None)
        points = _points(rules)
        self.dealing = [(points[k], p) for k, p in DEALER_SIDE]
        self.other = [(points[k], p) for k, p in OTHER_SIDE]
        self._table: dict[tuple[int, int, bool], float] = {}
        if self.hand_limit is None:
            self._solve()

    def won(self, mine: int, theirs: int) -> float | None:
        """1 or 0 when the game is over at this score (None: it goes on)."""
        t = self.target
        if mine >= t and (not self.win_by_two or mine - theirs >= 2):
            return 1.0
        if theirs >= t and (not self.win_by_two or theirs - mine >= 2):
            return 0.0
        return None

    def _key(self, mine: int, theirs: int, deal_next: bool) -> tuple[int, int, bool]:
        """Past the target with win by two only the lead counts: fold such scores down."""
        low = self.target - 1
        if self.win_by_two and min(mine, theirs) > low:
            shift = min(mine, theirs) - low
            mine, theirs = mine - shift, theirs - shift
        return mine, theirs, deal_next

    def _step(self, mine: int, theirs: int, deal_next: bool) -> float:
        """One hand from this score: its outcomes' values, the deal then passing on."""
        return _one_hand(self.dealing, self.other, deal_next,
                         lambda ours, others: self.value(mine + ours, theirs + others,
                                                         not deal_next))

    def _solve(self) -> None:
        """The table by repeated sweeps (a pass of the deal with no score keeps a score,
        and win by two folds scores back: a fixed point, reached in a few dozen sweeps)."""
        top = self.target + (WIN_BY_TWO_SPAN if self.win_by_two else 0)
        states = [(a, b, d) for a in range(top + 1) for b in range(top + 1)
                  for d in (False, True) if self.won(a, b) is None]
        states.sort(key=lambda s: -(s[0] + s[1]))  # later scores first: few sweeps
        table = self._table
        for state in states:
            table[state] = 0.5
        for _ in range(200):
            change = 0.0
            for state in states:
                new = self._step(*state)
                change = max(change, abs(new - table[state]))
                table[state] = new
            if change < 1e-9:
                break

    def value(self, mine: int, theirs: int, deal_next: bool, hands_left: int = 0) -> float:
        """The chance of winning from this score (before the next hand; `hands_left`
        counts the hands still to be dealt when the game is of a fixed number)."""
        if self.hand_limit is not None:
            return _fixed_value(mine - theirs, hands_left, deal_next, tuple(self.dealing),
                                tuple(self.other))
        over = self.won(mine, theirs)
        if over is not None:
            return over
        key = self._key(mine, theirs, deal_next)
        found = self._table.get(key)
        if found is None:  # beyond the table (a score far past the target): by the lead
            return 1.0 if mine > theirs else 0.0 if mine < theirs else 0.5
        return found


@lru_cache(maxsize=4096)
def _fixed_value(lead: int, hands_left: int, deal_next: bool,
                 dealing: tuple[tuple[int, float], ...],
                 other: tuple[tuple[int, float], ...]) -> float:
    """A game of a fixed number of hands: the higher score wins, level is half a win."""
    if hands_left <= 0:
        return 1.0 if lead > 0 else 0.0 if lead < 0 else 0.5
    return _one_hand(dealing, other, deal_next, lambda ours, others: _fixed_value(
        lead + ours - others, hands_left - 1, not deal_next, dealing, other))


def _one_hand(dealing: Sequence[tuple[int, float]], other: Sequence[tuple[int, float]],
              deal_next: bool, after: Callable[[int, int], float]) -> float:
    """The expected value over one hand's outcomes, `after(ours, theirs)` being the value
    once a side scores (the rest of the time, no score: a hand thrown in)."""
    ours, others = (dealing, other) if deal_next else (other, dealing)
    value = 0.0
    rest = 1.0
    for pts, p in ours:
        value += p * after(pts, 0)
        rest -= p
    for pts, p in others:
        value += p * after(0, pts)
        rest -= p
    return value + rest * after(0, 0)


@cache
def game_value(rules: Any) -> GameValue:
    """One table per rule set (a few milliseconds to build, then looked up)."""
    return GameValue(rules)


class HandWorth:
    """A hand's points for one seat, in points of the game's current score: the change in
    the seat side's chance of winning the game, over what one point is worth now."""

    def __init__(self, view: Any) -> None:
        rules = view.rules
        self.table = game_value(rules)
        self.team = view.seat % 2
        self.mine, self.theirs = view.scores[self.team], view.scores[1 - self.team]
        # After this hand the deal passes to the dealer's left: the other side's.
        self.deal_next = (view.dealer + 1) % 2 == self.team
        limit = getattr(rules, "hand_limit", None)
        self.hands_left = limit - view.hand_number - 1 if limit is not None else 0
        self.now = self._after(0, 0)
        # What a point is worth now: half the swing of one point either way; when one
        # point changes nothing (a fixed game's last hand with a lead of two, where a
        # euchre still turns a win into a draw), the steepest swing of any score the hand
        # can make, per point.
        self.unit = (self._after(1, 0) - self._after(0, 1)) / 2
        if self.unit <= 1e-9:
            sizes = sorted({pts for pts, _ in self.table.dealing})
            self.unit = max((self._after(k, 0) - self._after(0, k)) / (2 * k) for k in sizes)
        self._memo: dict[tuple[int, bool], float] = {}

    def _after(self, mine: int, theirs: int) -> float:
        return self.table.value(self.mine + mine, self.theirs + theirs, self.deal_next,
                                self.hands_left)

    def __call__(self, points: int, ours: bool) -> float:
        """`points` scored by the makers (negative: by the defenders); `ours`: the makers
        are this seat's side."""
        key = (points, ours)
        found = self._memo.get(key)
        if found is None:
            if self.unit <= 1e-9:  # no score of this hand changes the game: play for points
                found = float(points if ours else -points)
            else:
                gain = points if ours else -points
                after = self._after(gain, 0) if gain > 0 else self._after(0, -gain)
                found = (after - self.now) / self.unit
            self._memo[key] = found
        return found
