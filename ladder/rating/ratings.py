"""Ratings for the ladder: a whole-history Bradley-Terry fit on the pair model, and Elo.

Two views of the same results, answering different questions. The fit uses every game at
once, ignores their order, counts the two halves of a duplicate pair as the correlated
pair they are (ladder.rating.pairs), and comes with intervals, gaps and likelihoods of
superiority: it is the one to read for "is A really stronger than B, and by how much?".
Elo is the running figure people know from the `elo` package; it depends on the order of
the games and with K=10 never settles (a bot's Elo wanders by tens of points however many
games are played), so it is shown after the fit's rating, as what it is.

Both use the same 400-point logistic scale, so a rating gap means the same in either view.

Everything here is pure (no I/O, clocks or randomness) and uses the standard library only: the
harness must stay light to install, and the same results must always give the same numbers.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from statistics import NormalDist
from typing import Any

from ladder.rating.pairs import PairingTally, Unit, tally_units

__all__ = [
    "DEFAULT_PRIOR",
    "ELO_BETA",
    "ELO_INITIAL",
    "ELO_K_FACTOR",
    "ELO_SCALE",
    "FIELD",
    "BotRating",
    "EloTable",
    "Gap",
    "RatingFit",
    "Result",
    "all_gaps",
    "elo_ratings",
    "expected_score",
    "field_gap",
    "fit_ratings",
    "fit_tallies",
    "fit_units",
    "gap",
    "likelihood_of_superiority",
]

# These match the defaults of the PyPI `elo` package (github.com/sublee/elo, elo.py:
# K_FACTOR = 10, INITIAL = 1200, BETA = 200, and expect() divides the gap by 2 * BETA), so the
# numbers the arena prints read the same as the numbers that package's users already compute.
ELO_K_FACTOR = 10.0
ELO_INITIAL = 1200.0
ELO_BETA = 200.0
ELO_SCALE = 2 * ELO_BETA  # 400: a gap of this many points means 10:1 odds.

# Virtual drawn games per bot used by the fit unless told otherwise (see fit_tallies).
DEFAULT_PRIOR = 2.0

#: One game: (bot_a, bot_b, score_a) with score_a in [0, 1]: 1.0 a win for a, 0.0 a loss,
#: 0.5 a drawn game.
Result = tuple[str, str, float]

# Natural-log units per Elo point: P(a beats b) = sigmoid(_NAT * (r_a - r_b)).
_NAT = math.log(10.0) / ELO_SCALE

# Beyond 10**300 the direct formula would overflow; past that point use the reciprocal form.
_MAX_EXPONENT = 300.0

_MAX_NEWTON_STEPS = 100
_STEP_TOLERANCE = 1e-10  # natural units, about 2e-8 Elo points


def expected_score(rating_a: float, rating_b: float) -> float:
    """Expected score of a against b on the 400-point logistic scale.

    Uses the package's own formula, 1 / (1 + 10**((rb - ra) / 400)), wherever it is safe so the
    numbers agree with it to the last bit, and switches to the algebraically equal
    t / (1 + t), t = 10**((ra - rb) / 400), when a huge gap would overflow: a broken bot that
    loses everything can drive ratings far apart and must not crash the report.
    """
    exponent = (rating_b - rating_a) / ELO_SCALE
    # (typeshed types float ** float as Any, since a negative base could give a complex)
    if exponent <= _MAX_EXPONENT:
        power: float = 10.0**exponent
        return 1.0 / (1.0 + power)
    t: float = 10.0**-exponent  # underflows quietly to 0.0
    return t / (1.0 + t)


def _check_result(bot_a: str, bot_b: str, score_a: float) -> float:
    if bot_a == bot_b:
        # A mirror match carries no information about relative strength, and for Elo it would
        # make "both sides' pre-game rating" ambiguous; it is almost certainly a scheduling bug.
        raise ValueError(f"a bot cannot be rated against itself: {bot_a!r}")
    score = float(score_a)
    if not 0.0 <= score <= 1.0:  # also rejects NaN
        raise ValueError(f"score for {bot_a!r} vs {bot_b!r} must be in [0, 1], got {score_a!r}")
    return score


class EloTable:
    """Running Elo ratings, updated one result at a time.

    Elo is path-dependent: the same games in another order give other ratings. Games finish in
    whatever order the game slots happen to run them, so the ladder feeds results here in schedule
    order; that makes the table a function of the schedule and the outcomes alone, and a rerun
    of a ladder reproduces it exactly.

    Each update is the `elo` package's rate_1vs1, to the bit: both bots are updated from
    their pre-game ratings, each with its own expected score, new = old + K * (actual -
    expected), the loser's actual score being 1 - the winner's. The two moves are equal up
    to rounding (the expectations sum to 1), so the pool neither inflates nor deflates. A
    bot not seen before starts at the initial rating.
    """

    __slots__ = ("_initial", "_k", "_ratings")

    def __init__(
        self,
        *,
        k: float = ELO_K_FACTOR,
        initial: float = ELO_INITIAL,
        ratings: Mapping[str, float] | None = None,
    ) -> None:
        if not (math.isfinite(k) and k > 0):
            raise ValueError(f"k must be a positive number, got {k!r}")
        if not math.isfinite(initial):
            raise ValueError(f"initial must be finite, got {initial!r}")
        self._k = float(k)
        self._initial = float(initial)
        self._ratings: dict[str, float] = {
            name: float(value) for name, value in (ratings or {}).items()
        }

    @property
    def k(self) -> float:
        return self._k

    @property
    def initial(self) -> float:
        return self._initial

    @property
    def ratings(self) -> dict[str, float]:
        """A copy, so callers cannot bypass the ordering discipline by editing it."""
        return dict(self._ratings)

    def rating(self, bot: str) -> float:
        """Current rating; a bot with no games yet has the initial rating."""
        return self._ratings.get(bot, self._initial)

    def update(self, bot_a: str, bot_b: str, score_a: float) -> tuple[float, float]:
        """Apply one result and return the two new ratings (a's, b's)."""
        score = _check_result(bot_a, bot_b, score_a)
        rating_a, rating_b = self.rating(bot_a), self.rating(bot_b)
        self._ratings[bot_a] = rating_a + self._k * (score - expected_score(rating_a, rating_b))
        self._ratings[bot_b] = rating_b + self._k * ((1.0 - score) - expected_score(rating_b, rating_a))
        return self._ratings[bot_a], self._ratings[bot_b]

    def update_all(self, results: Iterable[Result]) -> None:
        """Apply results in the order given (which must be schedule order; see the class)."""
        for bot_a, bot_b, score_a in results:
            self.update(bot_a, bot_b, score_a)


def elo_ratings(
    results: Iterable[Result], *, k: float = ELO_K_FACTOR, initial: float = ELO_INITIAL
) -> dict[str, float]:
    """Elo ratings after applying results in order, from a fresh table."""
    table = EloTable(k=k, initial=initial)
    table.update_all(results)
    return table.ratings


@dataclass(frozen=True, slots=True)
class BotRating:
    """One bot's line in a maximum-likelihood fit. All floats are finite, so it serializes to
    strict JSON. `games` counts its games and `score` is its mean score per game; neither
    includes the prior's virtual games."""

    name: str
    rating: float
    stderr: float
    low: float
    high: float
    games: int
    score: float


@dataclass(frozen=True, slots=True)
class RatingFit:
    """A whole-history fit.

    `ratings` is sorted best first. `covariance[i][j]` is the covariance, in squared Elo points,
    of `ratings[i].rating` and `ratings[j].rating` under the anchoring constraint (so a bot used
    as `anchor_bot` has zero variance, and with a mean anchor every row sums to zero). Bots that
    were named but have no results cannot be rated and are listed in `unrated` instead.
    """

    ratings: tuple[BotRating, ...]
    covariance: tuple[tuple[float, ...], ...]
    anchor: float
    anchor_bot: str | None
    prior: float
    confidence: float
    iterations: int
    unrated: tuple[str, ...] = ()

    def names(self) -> tuple[str, ...]:
        return tuple(r.name for r in self.ratings)

    def get(self, name: str) -> BotRating:
        for r in self.ratings:
            if r.name == name:
                return r
        raise KeyError(name)

    def cov(self, bot_a: str, bot_b: str) -> float:
        names = self.names()
        return self.covariance[names.index(bot_a)][names.index(bot_b)]


def _sigmoid(x: float) -> float:
    if x >= 0:
        return 1.0 / (1.0 + math.exp(-x))
    e = math.exp(x)
    return e / (1.0 + e)


def _log_sigmoid(x: float) -> float:
    if x >= 0:
        return -math.log1p(math.exp(-x))
    return x - math.log1p(math.exp(x))


def _invert(matrix: list[list[float]]) -> list[list[float]]:
    """Gauss-Jordan inverse with partial pivoting (the systems here are at most ~50 square)."""
    size = len(matrix)
    aug = [[*row, *(1.0 if i == j else 0.0 for j in range(size))] for i, row in enumerate(matrix)]
    for col in range(size):
        pivot_row = max(range(col, size), key=lambda r: abs(aug[r][col]))
        pivot = aug[pivot_row][col]
        if not (math.isfinite(pivot) and abs(pivot) > 1e-300):
            raise ValueError("singular information matrix: ratings are not identifiable")
        aug[col], aug[pivot_row] = aug[pivot_row], aug[col]
        row = aug[col]
        inv_pivot = 1.0 / pivot
        for j in range(2 * size):
            row[j] *= inv_pivot
        for r in range(size):
            if r != col:
                other = aug[r]
                factor = other[col]
                if factor != 0.0:
                    for j in range(col, 2 * size):
                        other[j] -= factor * row[j]
    return [row[size:] for row in aug]


def _components(size: int, edges: Iterable[tuple[int, int]]) -> list[list[int]]:
    parent = list(range(size))

    def find(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for i, j in edges:
        parent[find(i)] = find(j)
    groups: dict[int, list[int]] = {}
    for x in range(size):
        groups.setdefault(find(x), []).append(x)
    return list(groups.values())


def _strongly_connected(size: int, arcs: list[tuple[int, int]]) -> bool:
    forward: list[list[int]] = [[] for _ in range(size)]
    backward: list[list[int]] = [[] for _ in range(size)]
    for i, j in arcs:
        forward[i].append(j)
        backward[j].append(i)
    for adjacency in (forward, backward):
        seen = {0}
        stack = [0]
        while stack:
            for nxt in adjacency[stack.pop()]:
                if nxt not in seen:
                    seen.add(nxt)
                    stack.append(nxt)
        if len(seen) != size:
            return False
    return True


def fit_ratings(
    results: Iterable[Result],
    *,
    anchor: float = ELO_INITIAL,
    anchor_bot: str | None = None,
    prior: float = DEFAULT_PRIOR,
    confidence: float = 0.95,
    bots: Iterable[str] = (),
) -> RatingFit:
    """fit_tallies over results counted as independent games (each its own unit)."""
    tallies: dict[tuple[str, str], PairingTally] = {}
    for bot_a, bot_b, score_a in results:
        score = _check_result(bot_a, bot_b, score_a)
        key, first = ((bot_a, bot_b), score) if bot_a < bot_b else ((bot_b, bot_a), 1 - score)
        tallies.setdefault(key, PairingTally()).add((first,))
    return fit_tallies(tallies, anchor=anchor, anchor_bot=anchor_bot, prior=prior,
                       confidence=confidence, bots=bots)


def fit_units(units: Iterable[Unit], **options: Any) -> RatingFit:
    """fit_tallies over duplicate pairs and lone games (ladder.rating.pairs)."""
    return fit_tallies(tally_units(units), **options)


def fit_tallies(
    tallies: Mapping[tuple[str, str], PairingTally],
    *,
    anchor: float = ELO_INITIAL,
    anchor_bot: str | None = None,
    prior: float = DEFAULT_PRIOR,
    confidence: float = 0.95,
    bots: Iterable[str] = (),
) -> RatingFit:
    """Maximum a-posteriori Bradley-Terry ratings on the Elo scale, with pair-level
    (cluster-robust) covariance. `tallies` are keyed by name-sorted pairings
    (ladder.rating.pairs.tally_units makes them).

    Model: P(a beats b in a game) = 1 / (1 + 10**((rb - ra) / 400)), the curve Elo uses, so
    fitted gaps read as Elo gaps. A game scoring s counts as s of a win and 1 - s of a
    loss, so drawn games (0.5) are fine, as in Ordo. The estimate uses every game, paired
    or not, and only the per-pairing totals enter it, so order and orientation of the
    games do not matter and a lone half of a pair counts with the same weight as any
    other game: no bias from stopping a ladder between the two halves of a deal.

    Variance: the two games of a duplicate pair are not independent (they share the
    cards), so the variance is not the model's Fisher information but the sandwich
    H^-1 B H^-1, with B summed over units: each unit's contribution to the score equation,
    (its points - its games * p), squared. Where halves are negatively correlated (card
    luck cancels, the reason for duplicate play) B is smaller than the model's and the
    intervals narrow; where they are positively correlated they widen; with independent
    games B matches the model and this is the usual interval. The prior's virtual games
    enter H, and B as their model variance, so that the interval never collapses to a
    point because every pair was split.

    Anchor: ratings determine only differences, so one linear constraint fixes the level:
    the mean rating of the rated bots equals `anchor` (the Elo initial rating), or with
    `anchor_bot` that bot sits at `anchor`. The covariance is restricted to the constraint
    (the top-left block of the inverse of the bordered matrix [[H, c], [c^T, 0]]); gaps,
    their variances and LOS do not depend on the anchor.

    Prior: a bot that won (or lost) every game has no finite maximum-likelihood rating,
    and an early ladder often has one. So each bot brings `prior` virtual drawn games
    (default 2) against an imaginary opponent rated at the mean of the rated bots: the
    same weight for every bot however many opponents it met (a gauntlet's challenger
    carries as many as each of its opponents). It pulls a bot's distance from the mean
    in by about prior / (games + prior) of it; between two bots only, each sits half the
    gap from the mean and the gap shrinks by about (prior / 2) / (games + prior / 2). So
    two bots with the same results but unequal games end apart, the one with fewer games
    nearer the mean (bench/prior.py prints by how much).
    `prior=0` gives the plain maximum-likelihood estimate and raises ValueError when it
    does not exist (some group of bots never scored against the rest).

    Bots in `bots` without results are listed in `RatingFit.unrated`. Results that split
    the bots into groups that never played each other raise ValueError, since ratings
    across such groups are not comparable.

    Solved by Newton's method with backtracking on the concave log-posterior; each step
    costs O(pairings + bots**3) whatever the number of games.
    """
    if not (math.isfinite(prior) and prior >= 0):
        raise ValueError(f"prior must be a non-negative number, got {prior!r}")
    if not 0.0 < confidence < 1.0:
        raise ValueError(f"confidence must be in (0, 1), got {confidence!r}")
    if not math.isfinite(anchor):
        raise ValueError(f"anchor must be finite, got {anchor!r}")

    # By pairing name, not in the order the tallies were filled: the same results give
    # the same fit to the last bit, whether counted at once or one game at a time.
    tallies = dict(sorted(tallies.items()))
    points: dict[str, float] = {}
    games: dict[str, int] = {}
    for (a, b), t in tallies.items():
        if not a < b:
            raise ValueError(f"tallies are keyed by name-sorted pairings, not {(a, b)!r}")
        if t.games == 0:
            continue
        for bot, s in ((a, t.points), (b, t.games - t.points)):
            points[bot] = points.get(bot, 0.0) + s
            games[bot] = games.get(bot, 0) + t.games

    names = sorted(games)
    unrated = tuple(sorted({*bots} - games.keys()))
    if anchor_bot is not None and anchor_bot not in games:
        raise ValueError(f"anchor bot {anchor_bot!r} has no results")
    if not names:
        return RatingFit((), (), float(anchor), anchor_bot, float(prior), confidence, 0, unrated)

    index = {name: i for i, name in enumerate(names)}
    size = len(names)
    # (i, j, games, i's points, its tally)
    pairs = [(index[a], index[b], float(t.games), t.points, t)
             for (a, b), t in tallies.items() if t.games]

    groups = _components(size, ((i, j) for i, j, *_ in pairs))
    if len(groups) > 1:
        listing = "; ".join(", ".join(names[x] for x in group) for group in groups)
        raise ValueError(f"results split into groups that never played each other: {listing}")
    if prior == 0 and size > 1 and not _strongly_connected(
        size,
        [(i, j) for i, j, n, w, _ in pairs if w > 0] + [(j, i) for i, j, n, w, _ in pairs if w < n],
    ):
        raise ValueError(
            "no finite maximum-likelihood ratings: some bots never scored against the rest "
            "(e.g. a bot won or lost every game); use a prior above 0"
        )

    if anchor_bot is None:
        constraint = [1.0] * size
    else:
        constraint = [0.0] * size
        constraint[index[anchor_bot]] = 1.0

    def log_posterior(theta: list[float]) -> float:
        total = 0.0
        for i, j, n, w, _ in pairs:
            x = theta[i] - theta[j]
            total += w * _log_sigmoid(x) + (n - w) * _log_sigmoid(-x)
        if prior:
            mean = sum(theta) / size
            for t in theta:
                total += prior / 2 * (_log_sigmoid(t - mean) + _log_sigmoid(mean - t))
        return total

    def prior_terms(theta: list[float]) -> tuple[list[float], list[list[float]]]:
        """The prior's gradient and its information (minus its Hessian)."""
        grad = [0.0] * size
        info = [[0.0] * size for _ in range(size)]
        if not prior:
            return grad, info
        mean = sum(theta) / size
        slope = [prior * (0.5 - _sigmoid(t - mean)) for t in theta]
        curve = [prior * _sigmoid(t - mean) * _sigmoid(mean - t) for t in theta]
        slope_mean, curve_total = sum(slope) / size, sum(curve)
        for k in range(size):
            grad[k] = slope[k] - slope_mean
            for m in range(size):
                info[k][m] = ((curve[k] if k == m else 0.0) - (curve[k] + curve[m]) / size
                              + curve_total / size**2)
        return grad, info

    def bordered_inverse(theta: list[float]) -> tuple[list[float], list[list[float]],
                                                      list[list[float]]]:
        grad, prior_info = prior_terms(theta)
        info = [[*row, 0.0] for row in prior_info] + [[0.0] * (size + 1)]
        for i, j, n, w, _ in pairs:
            x = theta[i] - theta[j]
            p, q = _sigmoid(x), _sigmoid(-x)
            g = w - n * p
            grad[i] += g
            grad[j] -= g
            h = n * p * q
            info[i][i] += h
            info[j][j] += h
            info[i][j] -= h
            info[j][i] -= h
        for i in range(size):
            info[i][size] = info[size][i] = constraint[i]
        return grad, _invert(info), prior_info

    theta = [0.0] * size
    current = log_posterior(theta)
    iterations = 0
    while True:
        if iterations == _MAX_NEWTON_STEPS:
            raise RuntimeError(f"rating fit did not converge in {_MAX_NEWTON_STEPS} steps")
        iterations += 1
        grad, inverse, _ = bordered_inverse(theta)
        step = [sum(row[j] * grad[j] for j in range(size)) for row in inverse[:size]]
        scale = 1.0
        while True:
            candidate = [t + scale * s for t, s in zip(theta, step, strict=True)]
            value = log_posterior(candidate)
            if value >= current - 1e-12 * (1.0 + abs(current)) or scale < 1e-9:
                break
            scale /= 2
        theta, current = candidate, value
        if max(abs(scale * s) for s in step) < _STEP_TOLERANCE:
            break

    _, inverse, prior_info = bordered_inverse(theta)
    m = [row[:size] for row in inverse[:size]]
    # The middle of the sandwich: the units' observed spread, plus the prior's model one.
    middle = [row[:] for row in prior_info]
    for i, j, _, _, tally in pairs:
        r = tally.residual_squares(_sigmoid(theta[i] - theta[j]))
        middle[i][i] += r
        middle[j][j] += r
        middle[i][j] -= r
        middle[j][i] -= r
    left = [[sum(m[i][k] * middle[k][j] for k in range(size)) for j in range(size)]
            for i in range(size)]
    sandwich = [[sum(left[i][k] * m[k][j] for k in range(size)) for j in range(size)]
                for i in range(size)]

    elo_per_nat = 1.0 / _NAT
    if anchor_bot is None:
        mean = sum(theta) / size
        theta = [t - mean for t in theta]  # undo rounding drift: the mean is exactly the anchor
    else:
        pinned = theta[index[anchor_bot]]
        theta = [t - pinned for t in theta]
    rating = [anchor + t * elo_per_nat for t in theta]
    cov = [[(sandwich[i][j] + sandwich[j][i]) / 2 * elo_per_nat**2 for j in range(size)]
           for i in range(size)]

    z = NormalDist().inv_cdf(0.5 + confidence / 2)
    order = sorted(range(size), key=lambda i: (-rating[i], names[i]))
    lines = []
    for i in order:
        stderr = math.sqrt(max(cov[i][i], 0.0))
        lines.append(
            BotRating(
                name=names[i],
                rating=rating[i],
                stderr=stderr,
                low=rating[i] - z * stderr,
                high=rating[i] + z * stderr,
                games=games[names[i]],
                score=points[names[i]] / games[names[i]],
            )
        )
    return RatingFit(
        ratings=tuple(lines),
        covariance=tuple(tuple(cov[i][j] for j in order) for i in order),
        anchor=float(anchor),
        anchor_bot=anchor_bot,
        prior=float(prior),
        confidence=confidence,
        iterations=iterations,
        unrated=unrated,
    )


def likelihood_of_superiority(fit: RatingFit) -> dict[tuple[str, str], float]:
    """LOS(a > b) for every ordered pair of rated bots.

    A bare rating gap overstates certainty when the two ratings are positively correlated (they
    were measured mostly against the same opponents), so the gap's variance uses the full
    covariance: Phi((ra - rb) / sqrt(var_a + var_b - 2 cov_ab)). The result does not depend on
    the anchor. erfc keeps the far tails accurate and makes LOS(a, b) + LOS(b, a) = 1.
    """
    out: dict[tuple[str, str], float] = {}
    rows = fit.ratings
    for i, a in enumerate(rows):
        for j, b in enumerate(rows):
            if i != j:
                out[a.name, b.name] = gap(fit, a.name, b.name).los
    return out


FIELD = "field"
"""The `other` of a Gap between one bot and the mean of all the others."""


@dataclass(frozen=True, slots=True)
class Gap:
    """How much stronger `bot` is than `other` (a bot, or FIELD: the mean of every other
    rated bot), in Elo, with its margin at the fit's confidence and its LOS."""

    bot: str
    other: str
    elo: float
    stderr: float
    margin: float
    los: float

    @property
    def low(self) -> float:
        return self.elo - self.margin

    @property
    def high(self) -> float:
        return self.elo + self.margin

    def text(self) -> str:
        """"+35 ± 22", the way people quote a gap."""
        return f"{self.elo:+.0f} ± {self.margin:.0f}"


def _gap(fit: RatingFit, bot: str, other: str, weights: Mapping[str, float]) -> Gap:
    names = fit.names()
    idx = [(names.index(n), w) for n, w in weights.items()]
    elo = sum(fit.ratings[i].rating * w for i, w in idx)
    var = sum(wi * wj * fit.covariance[i][j] for i, wi in idx for j, wj in idx)
    z = NormalDist().inv_cdf(0.5 + fit.confidence / 2)
    if var > 0:
        se = math.sqrt(var)
        los = 0.5 * math.erfc(-elo / (se * math.sqrt(2.0)))
    else:
        se, los = 0.0, 0.5 if elo == 0 else float(elo > 0)
    return Gap(bot, other, elo, se, z * se, los)


def gap(fit: RatingFit, bot: str, other: str) -> Gap:
    """bot's rating minus other's, with the variance from the full covariance."""
    if bot == other:
        raise ValueError(f"a gap is between two bots, not {bot!r} and itself")
    return _gap(fit, bot, other, {bot: 1.0, other: -1.0})


def field_gap(fit: RatingFit, bot: str) -> Gap:
    """bot's rating minus the mean rating of every other rated bot: a gauntlet
    challenger's standing against its field."""
    others = [n for n in fit.names() if n != bot]
    if not others:
        raise ValueError(f"{bot!r} has no field: it is the only rated bot")
    weights = {bot: 1.0, **{n: -1.0 / len(others) for n in others}}
    return _gap(fit, bot, FIELD, weights)


def all_gaps(fit: RatingFit) -> list[Gap]:
    """Every two rated bots once, the better-rated first, in the fit's order."""
    rows = fit.names()
    return [gap(fit, a, b) for i, a in enumerate(rows) for b in rows[i + 1:]]
