"""Standings kept up to date one game at a time, for a ladder that runs all night.

ladder.rating.standings.compute_standings reads every stored game each time it is asked: right
for `ladder standings`, but a running ladder asks after every few games, and all night
the cost of each answer would grow with the games played. Nothing here does: what the
standings are made of is kept as running sums, each game added in constant time, and the
memory kept does not grow with the games either.

- Counts per bot and pairing (games, wins, faults, the crosstable) and the pair model's
  tallies (ladder.rating.pairs.PairingTally, both by pairs and by games) are sums: a game is
  added to them in any order. The fit reads only the tallies, so asking for standings
  costs the fit's time, O(pairings + bots**3), never O(games).
- A duplicate deal's first half waits (as a lone game, which is how the pair model
  counts it) until its other half comes, then the two count as their pair: only deals
  with one half stored are held.
- Elo is replayed in schedule order, not in finishing order. Games before the
  *frontier* (`settle`: the caller's promise that no earlier game will come) are folded
  into one table in that order; only the games after it are kept, and replayed on top of
  that table when asked. In a run the frontier is the first planned game not yet stored,
  so what is kept is about as many games as are played at once.

The same games give exactly the standings compute_standings gives (tests/ladder/test_running
checks it on random ladders), in whatever order they come.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Sequence

from ladder.rating.pairs import PairingTally
from ladder.rating.ratings import DEFAULT_PRIOR, EloTable
from ladder.rating.sprt import SprtState, SprtTest
from ladder.rating.standings import (
    BY_CHOICES,
    BY_GAMES,
    BY_PAIRS,
    BotCounts,
    ResultLike,
    Standings,
    assemble_standings,
)

__all__ = ["RunningStandings"]

_Pairing = tuple[str, str]


class RunningStandings:
    """Feed it every game (`add`), say how far the schedule is settled (`settle`), and
    ask for `standings` at any time. Used by one thread at a time."""

    def __init__(self, *, duplicate: bool = True) -> None:
        self.duplicate = duplicate
        """Games come in duplicate pairs (a deal played twice); without, every game is a
        unit of its own and none is held waiting for another half."""
        self.games = 0
        self.counts = BotCounts()
        self._by_pairs: dict[_Pairing, PairingTally] = {}
        self._by_games: dict[_Pairing, PairingTally] = {}
        self._halves: dict[tuple[str, str, int], float] = {}
        """A deal with one game counted: its score for bot_a, until the other half comes."""
        self._units = 0
        self._pairs = 0
        self._pairs_of: dict[str, int] = {}
        self._elo = EloTable()
        """Every game before the frontier, replayed in schedule order."""
        self._after: list[tuple[int, str, str, str, float]] = []
        """A heap of the games from the frontier on: (seq, game_id, bot_a, bot_b, score_a)."""
        self._frontier = -math.inf

    @property
    def frontier(self) -> float:
        """No game before this schedule position (seq) may be added any more."""
        return self._frontier

    @property
    def waiting(self) -> int:
        """Games kept one by one: those after the frontier, for Elo."""
        return len(self._after)

    def add(self, row: ResultLike) -> None:
        """Counts one game. Raises ValueError for a game no standings can count (a bot
        against itself, a score outside [0, 1]) or one before the frontier, before
        counting anything of it."""
        a, b = row.bot_a, row.bot_b
        score = float(row.score_a)
        if a == b:
            raise ValueError(f"a bot cannot be rated against itself: {a!r}")
        if not 0.0 <= score <= 1.0:  # also rejects NaN
            raise ValueError(f"{row.game_id}: a game's score must be in [0, 1], got "
                             f"{row.score_a!r}")
        if row.seq < self._frontier:
            raise ValueError(f"{row.game_id}: its place in the schedule ({row.seq}) is "
                             f"before the settled frontier ({self._frontier})")
        self.games += 1
        self.counts.add(row)
        _tally(self._by_games, a, b).add(_oriented(a, b, (score,)))
        deal = (a, b, row.deal)
        first = self._halves.pop(deal, None) if self.duplicate else None
        if first is None:
            if self.duplicate:
                self._halves[deal] = score
            _tally(self._by_pairs, a, b).add(_oriented(a, b, (score,)))
            self._units += 1
        else:
            tally = _tally(self._by_pairs, a, b)
            tally.remove(_oriented(a, b, (first,)))
            tally.add(_oriented(a, b, (first, score)))
            self._pairs += 1
            for me in (a, b):
                self._pairs_of[me] = self._pairs_of.get(me, 0) + 1
        heapq.heappush(self._after, (row.seq, row.game_id, a, b, score))

    def settle(self, before: float) -> None:
        """The caller's promise: no game placed before `before` in the schedule will be
        added from now on. The games before it are folded into Elo, in schedule order,
        and no longer kept. The frontier never moves back."""
        self._frontier = max(self._frontier, before)
        while self._after and self._after[0][0] < self._frontier:
            _, _, a, b, score = heapq.heappop(self._after)
            self._elo.update(a, b, score)

    def elo(self) -> EloTable:
        """Elo after every game added, in schedule order."""
        table = EloTable(k=self._elo.k, initial=self._elo.initial, ratings=self._elo.ratings)
        for _, _, a, b, score in sorted(self._after):
            table.update(a, b, score)
        return table

    def standings(
        self,
        *,
        by: str = BY_PAIRS,
        bots: Sequence[str] = (),
        prior: float = DEFAULT_PRIOR,
        confidence: float = 0.95,
        challenger: str | None = None,
        sprt: SprtTest | None = None,
        sprt_decided: SprtState | None = None,
    ) -> Standings:
        """What compute_standings would say of the games added (with this object's
        `duplicate`), at the cost of the fit and of replaying the games after the
        frontier."""
        if by not in BY_CHOICES:
            raise ValueError(f"by must be {BY_PAIRS!r} or {BY_GAMES!r}, not {by!r}")
        paired = by == BY_PAIRS
        return assemble_standings(
            self.counts, self._by_pairs if paired else self._by_games, self.elo(),
            games=self.games,
            units=self._units if paired else self.games,
            pairs=self._pairs if paired else 0,
            pairs_of=self._pairs_of if paired else {},
            by=by, bots=bots, prior=prior, confidence=confidence, challenger=challenger,
            sprt=sprt, sprt_tallies=self._by_pairs if self.duplicate else self._by_games,
            sprt_decided=sprt_decided, duplicate=self.duplicate,
        )


def _tally(tallies: dict[_Pairing, PairingTally], a: str, b: str) -> PairingTally:
    key = (a, b) if a < b else (b, a)
    found = tallies.get(key)
    if found is None:
        found = tallies[key] = PairingTally()
    return found


def _oriented(a: str, b: str, scores: tuple[float, ...]) -> tuple[float, ...]:
    """Scores from the name-sorted first bot's side, as tallies keep them."""
    return scores if a < b else tuple(1.0 - s for s in scores)
