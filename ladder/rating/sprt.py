"""The sequential probability ratio test: stop a gauntlet as soon as its question is answered.

A gauntlet usually asks one question: is the challenger at least elo1 stronger than its
field, or at most elo0? A fixed number of games is either wasteful (the answer was clear
long before) or not enough. The SPRT looks after every duplicate pair and stops when the
log-likelihood ratio (LLR) of the two hypotheses leaves the bounds
[log(beta / (1 - alpha)), log((1 - beta) / alpha)]: below, H0 (elo <= elo0) is accepted;
above, H1 (elo >= elo1). The chance of accepting H1 when elo is elo0 is about alpha, of
accepting H0 when elo is elo1 about beta, however often it looks.

The LLR is the generalized one fastchess computes (github.com/Disservin/fastchess,
app/src/matchmaking/sprt/sprt.cpp, after Michel Van den Bergh's notes): the results are
units (duplicate pairs scored 0, 1/4, 1/2, 3/4, 1 per game: the pentanomial model; or
single games 0, 1/2, 1 in a ladder without duplicate), their empirical distribution is
compared with the closest distribution whose mean (model "logistic") or normalized mean
(model "normalized") is what each hypothesis says, and the LLR is the number of units
times the mean log ratio of the two. Because the pair's own distribution is used, the
correlation between the halves of a pair is accounted for, whatever it is. Each fit's
equation is solved here to rounding; fastchess stops its solve at 1e-3 in theta, so its
own LLR can differ from this one by up to about 1e-3 (tests/ladder/test_pair_model.py solves
the same equations in 30-digit decimal arithmetic).

- "logistic" (the default here): elo0 and elo1 are Elo on the logistic scale the ratings
  use, so `elo1 = 20` means the same as "+20" in the standings: a per-game expected score
  of 1 / (1 + 10**(-20/400)).
- "normalized": elo0 and elo1 are normalized Elo (fastchess's default model), a
  resolution per pair that does not depend on how much duplicate play cancels luck.

Pure and standard library only.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping
from dataclasses import dataclass

__all__ = ["H0", "H1", "MODELS", "SprtState", "SprtTest"]

H0 = "H0"
H1 = "H1"
MODELS = ("logistic", "normalized")

_NELO_SCALE = 800.0 / math.log(10.0)
_PAIR_SCORES = (0.0, 0.25, 0.5, 0.75, 1.0)
_GAME_SCORES = (0.0, 0.5, 1.0)
_EMPTY = 1e-3  # fastchess regularizes an empty outcome class to this count
_ROOT_STEPS = 200
_ROOT_TOLERANCE = 1e-14  # |f| against the sum of its terms' sizes: a few ulps of it


@dataclass(frozen=True, slots=True)
class SprtState:
    """The test after some units: its LLR, bounds and decision (None: go on)."""

    llr: float
    lower: float
    upper: float
    units: int
    result: str | None

    def text(self) -> str:
        verdict = {H0: "H0 accepted", H1: "H1 accepted", None: "running"}[self.result]
        return f"LLR {self.llr:.2f} ({self.lower:.2f}, {self.upper:.2f}) after {self.units}: {verdict}"


@dataclass(frozen=True, slots=True)
class SprtTest:
    """One test's settings; `paired` says whether its units are pairs or games."""

    elo0: float
    elo1: float
    alpha: float = 0.05
    beta: float = 0.05
    model: str = "logistic"

    def __post_init__(self) -> None:
        problem = self.problem()
        if problem:
            raise ValueError(problem)

    def problem(self) -> str | None:
        """What is wrong with these settings, in words, or None."""
        if not (math.isfinite(self.elo0) and math.isfinite(self.elo1)):
            return "elo0 and elo1 must be finite numbers"
        if self.elo0 >= self.elo1:
            return f"elo0 ({self.elo0:g}) must be less than elo1 ({self.elo1:g})"
        for name, value in (("alpha", self.alpha), ("beta", self.beta)):
            if not 0.0 < value < 1.0:
                return f"{name} must be between 0 and 1, got {value!r}"
        if self.alpha + self.beta >= 1.0:
            return "alpha + beta must be less than 1"
        if self.model not in MODELS:
            return f"model must be one of {', '.join(map(repr, MODELS))}, got {self.model!r}"
        return None

    @property
    def lower(self) -> float:
        return math.log(self.beta / (1.0 - self.alpha))

    @property
    def upper(self) -> float:
        return math.log((1.0 - self.beta) / self.alpha)

    def llr(self, counts: Mapping[float, int], *, paired: bool) -> float:
        """The LLR of units counted by their per-game score (a pair's mean: 0, 1/4, ...)."""
        support = _PAIR_SCORES if paired else _GAME_SCORES
        extra = set(counts) - set(support)
        if extra:
            raise ValueError(f"unit scores {sorted(extra)} are not among {support}")
        if not any(counts.values()):
            return 0.0
        key = tuple(counts.get(s, 0) for s in support)
        return _llr(key, support, self.elo0, self.elo1, self.model, paired)

    def state(self, counts: Mapping[float, int], *, paired: bool) -> SprtState:
        llr = self.llr(counts, paired=paired)
        result = H1 if llr >= self.upper else H0 if llr <= self.lower else None
        return SprtState(llr, self.lower, self.upper, sum(counts.values()), result)


@functools.lru_cache(maxsize=65536)
def _llr(key: tuple[int, ...], support: tuple[float, ...], elo0: float, elo1: float,
         model: str, paired: bool) -> float:
    """Cached: a running test asks again after every unit, mostly about counts it has
    asked about before in a simulation, and the two fits below are iterative."""
    regular = [float(n) if n else _EMPTY for n in key]
    total = sum(regular)
    probs = [n / total for n in regular]
    if model == "logistic":
        p0 = _mle_mean(support, probs, _score_of(elo0))
        p1 = _mle_mean(support, probs, _score_of(elo1))
    else:
        scale = math.sqrt(2.0) if paired else 1.0
        p0 = _mle_normalized(support, probs, scale * elo0 / _NELO_SCALE)
        p1 = _mle_normalized(support, probs, scale * elo1 / _NELO_SCALE)
    return total * sum(p * (math.log(b) - math.log(a)) for p, a, b in zip(probs, p0, p1, strict=True))


def _score_of(elo: float) -> float:
    power: float = 10.0 ** (-elo / 400.0)
    return 1.0 / (1.0 + power)


def _root(probs: list[float], d: list[float]) -> float:
    """theta solving f(theta) = sum probs_i d_i / (1 + theta d_i) = 0, every probs_i > 0,
    some d_i of each sign. f falls from +inf to -inf between its poles -1 / max(d) and
    -1 / min(d), where one 1 + theta d_i is 0, and has one root there.

    Newton's method from 0, safeguarded: a bracket [low, high] around the root shrinks at
    every point evaluated, and a step that would leave it, or that does not at least halve
    the step before last, is a bisection instead (as in Numerical Recipes' rtsafe). A point
    where some 1 + theta d_i is not positive, in floating point, counts as beyond the pole
    on its side. It stops when f is as small as rounding leaves it (against the sum of its
    terms' sizes), not merely when a step is small: one ulp from a pole a Newton step is
    about the distance to the pole, tiny, while f is huge. What it returns is always a
    point it evaluated, where every 1 + theta d_i > 0: never a pole."""
    low, high = -1.0 / max(d), -1.0 / min(d)
    theta = best = 0.0  # 0 is inside: every 1 + 0 d_i is 1
    before = last = high - low
    for _ in range(_ROOT_STEPS):
        value = slope = size = beyond = 0.0
        for p, x in zip(probs, d, strict=True):
            q = 1.0 + theta * x
            if q <= 0.0:
                beyond = x
                break
            r = x / q
            value += p * r
            slope -= p * r * r
            size += p * abs(r)
        if beyond:  # past the pole of a d_i > 0 (theta too low) or of one < 0 (too high)
            if beyond > 0:
                low = theta
            else:
                high = theta
            theta = low + (high - low) / 2
            continue
        best = theta
        if abs(value) <= _ROOT_TOLERANCE * size:
            break
        if value > 0:
            low = theta
        else:
            high = theta
        step = value / slope
        new = theta - step
        if low < new < high and abs(step) <= before / 2:
            before, last = last, abs(step)
        else:
            new = low + (high - low) / 2
            before, last = last, abs(new - theta)
        if new == theta:  # the bracket is down to adjacent floats
            break
        theta = new
    return best


def _mle_mean(support: tuple[float, ...], probs: list[float], s: float) -> list[float]:
    """The distribution on `support` closest to `probs` (in likelihood) with mean s:
    p_i = probs_i / (1 + theta (a_i - s)), theta solving sum probs_i (a_i - s) /
    (1 + theta (a_i - s)) = 0 (Van den Bergh, Proposition 1.1)."""
    d = [a - s for a in support]
    theta = _root(probs, d)
    return [p / (1.0 + theta * x) for p, x in zip(probs, d, strict=True)]


def _mle_normalized(support: tuple[float, ...], probs: list[float], t: float) -> list[float]:
    """The distribution closest to `probs` with (mean - 1/2) / sd = t (Van den Bergh,
    "Comments on normalized Elo", section 4.1), by fastchess's fixed-point iteration from
    the uniform distribution."""
    n = len(support)
    p = [1.0 / n] * n
    for _ in range(100):
        mu = sum(a * q for a, q in zip(support, p, strict=True))
        var = sum(q * (a - mu) ** 2 for a, q in zip(support, p, strict=True))
        sigma = math.sqrt(var)
        phi = [a - 0.5 - 0.5 * t * sigma * (1.0 + ((a - mu) / sigma) ** 2) for a in support]
        theta = _root(probs, phi)
        new = [q / (1.0 + theta * x) for q, x in zip(probs, phi, strict=True)]
        moved = max(abs(a - b) for a, b in zip(new, p, strict=True))
        p = new
        if moved < 1e-10:
            break
    return p
