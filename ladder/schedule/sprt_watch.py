"""A running gauntlet's SPRT: when to stop, decided the same way however games finish.

Games finish in any order, and not at random: a game lost to a crash or a forfeit ends
sooner than one played out. A test that looked at pairs in finishing order would look at
quick losses first, and its error rates would no longer be alpha and beta. So the test
reads the schedule (ladder.schedule.pairings) from its start, and only as far as every game is
stored: a pair counts once it and every game planned before it are in. The decision is
then a function of the stored results alone, reached at the same pair on a rerun, and a
run killed after deciding but before storing the decision finds it again on resume.

What it keeps shrinks as the test reads on: the schedule still unread, the games stored
ahead of it and the deals with one half read, so a long gauntlet does not grow it.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence

from arena.settings.plan import PlannedGame
from ladder.rating.sprt import SprtState, SprtTest


class SprtWatch:
    """Feed it every stored game (`add`); it says when the test has decided."""

    def __init__(self, test: SprtTest, challenger: str, planned: Sequence[PlannedGame], *,
                 duplicate: bool) -> None:
        self.test = test
        self.challenger = challenger
        self.duplicate = duplicate
        self._order = deque((g.game_id, g.bot_a, g.bot_b, g.deal)
                            for g in sorted(planned, key=lambda g: g.seq))
        """The schedule not read yet."""
        self._scores: dict[str, float] = {}
        """The challenger's score in each game stored but not read yet."""
        self._next = 0
        self._half: dict[tuple[str, str, int], float] = {}
        self.counts: dict[float, int] = {}
        self.state: SprtState = test.state({}, paired=duplicate)
        self.decided: SprtState | None = None
        self.decided_games = 0
        """The schedule's first this many games held every unit the decision counted."""

    def add(self, game_id: str, bot_a: str, bot_b: str, score_a: float) -> SprtState | None:
        """One stored game; returns the decision when this game brings it, else None."""
        if self.challenger not in (bot_a, bot_b) or self.decided is not None:
            return None
        self._scores[game_id] = score_a if bot_a == self.challenger else 1.0 - score_a
        while self._order and self._order[0][0] in self._scores:
            gid, a, b, deal = self._order.popleft()
            self._next += 1
            score = self._scores.pop(gid)
            if self.duplicate:
                key = (a, b, deal)
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
