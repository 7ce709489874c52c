"""The pair model of duplicate play: which games belong together, and what a pair says.

In duplicate mode each deal is played twice with the teams swapped, so the two games of a
deal share their cards and their results are not independent: where card luck decides a
game, it decides the other half the other way (a split pair, 1-1), and where skill
decides, the same bot tends to win both. Counting the two halves as independent games
gets the variance wrong in both directions. The unit whose outcome does not depend on
the cards is the pair, so every figure here is built on units:

- a *unit* is a complete duplicate pair (two games of one pairing on one deal), or a game
  without its other half (a stopped ladder's odd half, or every game of a ladder played
  without duplicate);
- a unit's score for the pairing's first bot is the sum of its games' scores: 0, 0.5, 1,
  1.5 or 2 for a pair (a game may be drawn and score 0.5), 0, 0.5 or 1 for a lone game.

This is the duplicate counterpart of the pentanomial model fastchess uses for paired
openings (github.com/Disservin/fastchess, app/src/matchmaking/elo/elo_pentanomial.cpp),
and `head_to_head` reproduces its figures: the score, normalized Elo and LOS of one bot
against another from the distribution of pair results.

Pure: no I/O, standard library only, so the same games always give the same numbers.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Protocol

__all__ = [
    "CI95_Z",
    "HeadToHead",
    "PairingTally",
    "Unit",
    "head_to_head",
    "pair_units",
    "tally_units",
]

CI95_Z = 1.959963984540054
"""The two-sided 95% quantile of the normal distribution (fastchess's CI95ZSCORE)."""

_NELO_SCALE = 800.0 / math.log(10.0)  # fastchess: normalized Elo per unit of t


class GameLike(Protocol):
    """What the pair model reads of a stored game (ladder.store.database.GameRow has it all)."""

    @property
    def seq(self) -> int: ...
    @property
    def game_id(self) -> str: ...
    @property
    def bot_a(self) -> str: ...
    @property
    def bot_b(self) -> str: ...
    @property
    def deal(self) -> int: ...
    @property
    def score_a(self) -> float: ...


@dataclass(frozen=True, slots=True)
class Unit:
    """A duplicate pair, or a game without its other half."""

    bot_a: str
    bot_b: str
    scores: tuple[float, ...]
    """bot_a's score in each of its games (0, 0.5 or 1), in schedule order."""
    seq: int
    """Schedule position of its last game: units are in schedule order by this."""

    @property
    def games(self) -> int:
        """2 for a complete pair, 1 for a lone game."""
        return len(self.scores)

    @property
    def score_a(self) -> float:
        """bot_a's points over the unit's games (0 to `games`, in half points)."""
        return sum(self.scores)

    @property
    def paired(self) -> bool:
        return len(self.scores) == 2


def _check_score(score: float, where: str) -> float:
    s = float(score)
    if not 0.0 <= s <= 1.0:  # also rejects NaN
        raise ValueError(f"{where}: a game's score must be in [0, 1], got {score!r}")
    return s


def pair_units(rows: Iterable[GameLike], *, paired: bool = True) -> list[Unit]:
    """The units of the given games, in schedule order.

    With `paired`, the games of one pairing that share a deal number are one pair (the
    schedule, arena.settings.plan, gives the two halves of a duplicate deal the same deal number
    and each deal of a ladder played without duplicate its own); a deal with one game
    stored is a lone game. Without `paired`, every game is its own unit: the old,
    independent-games view, for ladders not played in duplicate.
    """
    groups: dict[tuple[str, str, int], list[GameLike]] = {}
    order: list[tuple[str, str, int]] = []
    for r in sorted(rows, key=lambda r: (r.seq, r.game_id)):
        key = (r.bot_a, r.bot_b, r.deal) if paired else (r.bot_a, r.bot_b, -1 - len(order))
        if key not in groups:
            groups[key] = []
            order.append(key)
        groups[key].append(r)
    units = []
    for key in order:
        games = groups[key]
        if len(games) > 2:
            raise ValueError(f"{games[0].game_id}: {len(games)} games of {key[0]} v {key[1]} "
                             f"share deal {key[2]}; a duplicate deal is played twice")
        scores = tuple(_check_score(g.score_a, g.game_id) for g in games)
        units.append(Unit(key[0], key[1], scores, max(g.seq for g in games)))
    units.sort(key=lambda u: u.seq)
    return units


@dataclass(slots=True)
class PairingTally:
    """Sufficient statistics of one pairing's units, from its first bot's side.

    The rating fit needs only these: the totals for the estimate, and the sums of squares
    for the pair-level (cluster-robust) variance, since for a win probability p,
    sum over units of (score - games * p)**2 = squares - 2 p cross + p**2 game_squares.
    """

    games: int = 0
    points: float = 0.0
    units: int = 0
    squares: float = 0.0
    """Sum of squared unit scores."""
    cross: float = 0.0
    """Sum of unit games times unit score."""
    game_squares: int = 0
    """Sum of squared unit sizes."""
    pairs: dict[float, int] = field(default_factory=dict)
    """Complete pairs by their score for the first bot (0, 0.5, 1, 1.5, 2)."""
    singles: dict[float, int] = field(default_factory=dict)
    """Lone games by score (0, 0.5, 1)."""
    by_game: dict[float, int] = field(default_factory=dict)
    """Every game, paired or not, by its score (0, 0.5, 1)."""

    def add(self, scores: tuple[float, ...], count: int = 1) -> None:
        """One unit (or `count` alike): its games' scores for the first bot."""
        games, score = len(scores), sum(scores)
        for s in scores:
            self.by_game[s] = self.by_game.get(s, 0) + count
        self.games += games * count
        self.points += score * count
        self.units += count
        self.squares += score * score * count
        self.cross += games * score * count
        self.game_squares += games * games * count
        counts = self.pairs if games == 2 else self.singles
        counts[score] = counts.get(score, 0) + count

    def remove(self, scores: tuple[float, ...]) -> None:
        """Takes back one unit added before (a lone game whose other half has come, to
        be added again as a pair). Scores are halves, so the sums stay exact, and a count
        that drops to nothing is dropped, as if the unit had never been added."""
        self.add(scores, count=-1)
        for counts in (self.by_game, self.pairs, self.singles):
            for s in [s for s, n in counts.items() if n == 0]:
                del counts[s]

    def flipped(self) -> PairingTally:
        """The same units from the other bot's side."""
        out = PairingTally()
        out.games, out.units, out.game_squares = self.games, self.units, self.game_squares
        out.points = self.games - self.points
        # sum (m - s)**2 = sum m**2 - 2 sum m s + sum s**2;  sum m (m - s) = sum m**2 - sum m s
        out.squares = self.game_squares - 2 * self.cross + self.squares
        out.cross = self.game_squares - self.cross
        out.pairs = {2.0 - s: n for s, n in self.pairs.items()}
        out.singles = {1.0 - s: n for s, n in self.singles.items()}
        out.by_game = {1.0 - s: n for s, n in self.by_game.items()}
        return out

    def merge(self, other: PairingTally) -> None:
        self.games += other.games
        self.points += other.points
        self.units += other.units
        self.squares += other.squares
        self.cross += other.cross
        self.game_squares += other.game_squares
        for mine, theirs in ((self.pairs, other.pairs), (self.singles, other.singles),
                             (self.by_game, other.by_game)):
            for s, n in theirs.items():
                mine[s] = mine.get(s, 0) + n

    def residual_squares(self, p: float) -> float:
        """Sum over units of (score - games * p)**2: the observed variance of the pairing's
        contribution to the fit's score equation, at win probability p."""
        value = self.squares - 2 * p * self.cross + p * p * self.game_squares
        return max(value, 0.0)  # rounding can leave -1e-16 where every unit is at p


def tally_units(units: Iterable[Unit]) -> dict[tuple[str, str], PairingTally]:
    """Tallies by pairing, keyed with the names sorted (the first bot's side)."""
    out: dict[tuple[str, str], PairingTally] = {}
    for u in units:
        if u.bot_a == u.bot_b:
            raise ValueError(f"a bot cannot be rated against itself: {u.bot_a!r}")
        if u.bot_a < u.bot_b:
            key, scores = (u.bot_a, u.bot_b), u.scores
        else:
            key, scores = (u.bot_b, u.bot_a), tuple(1.0 - s for s in u.scores)
        out.setdefault(key, PairingTally()).add(scores)
    return out


@dataclass(frozen=True, slots=True)
class HeadToHead:
    """One bot against another (or against a field) from their units, as fastchess
    reports a match: per-game score, Elo and normalized Elo with 95% margins, LOS.

    `by` says which units: "pairs" (the pentanomial model, complete pairs only) or
    "games" (every game independent, the trinomial model of a match without pairs).
    Elo values are None where the score is 0 or 1 (no finite Elo) or the variance is 0.

    Where every unit scored the same (six pairs all split, say) the variance is 0 and
    the margins, nElo and LOS are None: each divides by the spread. fastchess's formulas
    compute them anyway, and give what dividing by 0 gives: for six split pairs Elo 0.00
    +/- 0.00, nElo nan +/- nan and LOS nan %; for six pairs all won 1½-½, Elo 190.85
    +/- 0.00, nElo inf +/- nan and LOS 100.00 %. A margin of 0 or a certainty of 100%
    from a handful of units says nothing true, so none is given (see `spread`).
    """

    by: str
    units: int
    score: float
    variance: float
    """Of one unit's per-game score (a pair's mean), population variance as fastchess."""
    elo: float | None
    elo_margin: float | None
    nelo: float | None
    nelo_margin: float | None
    los: float | None

    @property
    def spread(self) -> bool:
        """Whether the units scored differently at all: without, there is no margin,
        nElo or LOS."""
        return self.variance > 0.0


def _elo_of(score: float) -> float | None:
    if not 0.0 < score < 1.0:
        return None
    return -400.0 * math.log10(1.0 / score - 1.0)


def head_to_head(tally: PairingTally, *, by: str = "pairs") -> HeadToHead | None:
    """fastchess's EloPentanomial (by pairs) or EloWDL (by games) over one tally; None
    when it holds no such units. The per-unit results are pair means 0, 1/4, ... 1 for
    pairs and 0, 1/2, 1 for games; normalized Elo divides the score's distance from 1/2
    by its spread per pair (sqrt(2 var), so that one normalized Elo means the same
    resolution per game either way) and scales it by 800 / ln 10."""
    if by == "pairs":
        counts: Mapping[float, int] = {s / 2: n for s, n in tally.pairs.items()}
        spread = 2.0
    elif by == "games":
        counts = tally.by_game  # every game, paired or not, as one independent result
        spread = 1.0
    else:
        raise ValueError(f"by must be 'pairs' or 'games', not {by!r}")
    n = sum(counts.values())
    if n == 0:
        return None
    # In score order, not the order the units came in: the same units, the same bits.
    ordered = sorted(counts.items())
    score = sum(s * c for s, c in ordered) / n
    variance = sum(c * (s - score) ** 2 for s, c in ordered) / n
    elo = _elo_of(score)
    if variance <= 0.0:
        return HeadToHead(by, n, score, variance, elo, None, None, None, None)
    per_unit = math.sqrt(variance / n)
    low, high = score - CI95_Z * per_unit, score + CI95_Z * per_unit
    elo_low, elo_high = _elo_of(low), _elo_of(high)
    margin = None if elo_low is None or elo_high is None else (elo_high - elo_low) / 2
    nelo_per_score = _NELO_SCALE / math.sqrt(spread * variance)
    nelo = (score - 0.5) * nelo_per_score
    nelo_margin = CI95_Z * per_unit * nelo_per_score
    los = 0.5 * math.erfc(-(score - 0.5) / math.sqrt(2.0 * variance / n))
    return HeadToHead(by, n, score, variance, elo, margin, nelo, nelo_margin, los)
