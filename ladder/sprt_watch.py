"""A running gauntlet's SPRT: when to stop, decided the same way however games finish.

Games finish in any order, and not at random: a game lost to a crash or a forfeit ends
sooner than one played out. A test that looked at pairs in finishing order would look at
quick losses first, and its error rates would no longer be alpha and beta. So the test
reads the schedule (ladder.schedule) from its start, and only as far as every game is
stored: a pair counts once it and every game planned before it are in. The decision is
then a function of the stored results alone, reached at the same pair on a rerun, and a
run killed after deciding but before storing the decision finds it again on resume.
"""

from __future__ import annotations

from collections.abc import Sequence

from arena.plan import PlannedGame
from ladder.sprt import SprtState, SprtTest


class SprtWatch:
    """Feed it every stored game (`add`); it says when the test has decided."""

    def __init__(self, test: SprtTest, challenger: str, planned: Sequence[PlannedGame], *,
                 duplicate: bool) -> None:
        self.test = test
        self.challenger = challenger
        self.duplicate = duplicate
        self._order = sorted(planned, key=lambda g: g.seq)
        self._scores: dict[str, float] = {}
        self._next = 0
        self._half: dict[tuple[str, str, int], float] = {}
        self.counts: dict[float, int] = {}
        self.state: SprtState = test.state({}, paired=duplicate)
        self.decided: SprtState | None = None
        self.decided_games = 0
        """The schedule's first this many games held every unit the decision counted."""

    def add(self, game_id: str, bot_a: str, bot_b: str, score_a: float) -> SprtState | None:
        """One stored game; returns the decision when this game brings it, else None."""
        if self.challenger not in (bot_a, bot_b):
            return None
        self._scores[game_id] = score_a if bot_a == self.challenger else 1.0 - score_a
        if self.decided is not None:
            return None
        while self._next < len(self._order) and self._order[self._next].game_id in self._scores:
            game = self._order[self._next]
            self._next += 1
            score = self._scores[game.game_id]
            if self.duplicate:
                key = (game.bot_a, game.bot_b, game.deal)
                first = self._half.pop(key, None)
                if first is None:
                    self._half[key] = score
                    continue
                unit = (first + score) / 2
            else:
                unit = score
            self.counts[unit] = self.counts.get(unit, 0) + 1
            self.state = self.test.state(self.counts, paired=self.duplicate)
            if self.state.result is not None:
                self.decided = self.state
                self.decided_games = self._next
                return self.state
        return None
