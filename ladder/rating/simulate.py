"""Synthetic ladders of known strengths: how the ratings and the SPRT are checked.

A rating method is right when, over many ladders drawn from strengths we chose, its 95%
intervals hold the true gaps 95% of the time and its SPRT accepts the wrong hypothesis
no more often than alpha and beta say. Real games cannot tell us that (nobody knows the
true strengths), so games are drawn here: each duplicate pair from the win probability
the strengths give, with a chosen correlation between its two halves (negative where card
luck cancels, as duplicate play intends; positive where, say, one bot's strategy suits
some deals). tests/ladder/test_rating_coverage.py, bench/ratings.py and bench/prior.py use this.

Each pair of a pairing with per-game win probability p and correlation rho between its
halves is won 2-0 with probability p^2 + rho p q, lost 0-2 with q^2 + rho p q, and split
otherwise, so each half alone is won with probability p. Only the counts of the three
outcomes matter to the fit and to the SPRT, so a pairing is drawn as three counts.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ladder.rating.pairs import PairingTally
from ladder.rating.ratings import (
    DEFAULT_PRIOR,
    RatingFit,
    expected_score,
    field_gap,
    fit_tallies,
    gap,
)
from ladder.rating.sprt import SprtState, SprtTest


def pair_outcomes(p: float, rho: float) -> tuple[float, float, float]:
    """(P(2-0), P(1-1), P(0-2)) of a pair whose halves are each won with probability p,
    with correlation rho between them."""
    q = 1.0 - p
    both, neither = p * p + rho * p * q, q * q + rho * p * q
    split = 1.0 - both - neither
    if min(both, neither, split) < -1e-12:
        raise ValueError(f"no pair has win probability {p} per half and correlation {rho}")
    return max(both, 0.0), max(split, 0.0), max(neither, 0.0)


def draw_pairs(rng: random.Random, p: float, rho: float, pairs: int) -> tuple[int, int, int]:
    """Counts of 2-0, 1-1 and 0-2 pairs among `pairs` drawn."""
    both, split, _ = pair_outcomes(p, rho)
    won = tied = 0
    for _ in range(pairs):
        u = rng.random()
        if u < both:
            won += 1
        elif u < both + split:
            tied += 1
    return won, tied, pairs - won - tied


def tally_of(won: int, split: int, lost: int, *, paired: bool = True) -> PairingTally:
    """A pairing's tally from its pair counts; with `paired` false, the same games as
    if each were an independent result (the view that ignores the pairs)."""
    t = PairingTally()
    if paired:
        t.add((1.0, 1.0), won)
        t.add((1.0, 0.0), split)
        t.add((0.0, 0.0), lost)
    else:
        t.add((1.0,), 2 * won + split)
        t.add((0.0,), 2 * lost + split)
    return t


@dataclass(frozen=True, slots=True)
class Coverage:
    """How often the intervals of simulated ladders held the true gaps."""

    intervals: int
    covered: int
    ladders: int
    failed: int
    """Ladders whose fit failed (none expected with a prior)."""

    @property
    def rate(self) -> float:
        return self.covered / self.intervals if self.intervals else float("nan")


def gap_coverage(strengths: Mapping[str, float], *, rho: float, pairs: int, ladders: int,
                 seed: int, paired: bool = True, prior: float = DEFAULT_PRIOR,
                 confidence: float = 0.95, challenger: str | None = None) -> Coverage:
    """Round robins of `pairs` pairs per pairing: the share of fitted gaps (every two
    bots, each ladder) whose interval holds the true gap. With `challenger`, gauntlets
    instead: its gap to each opponent and to the mean of its field."""
    rng = random.Random(seed)
    names = sorted(strengths)
    pairings = [(a, b) for i, a in enumerate(names) for b in names[i + 1:]
                if challenger is None or challenger in (a, b)]
    field = [n for n in names if n != challenger]
    true_field = (strengths[challenger] - sum(strengths[n] for n in field) / len(field)
                  if challenger is not None else 0.0)
    probs = {(a, b): expected_score(strengths[a], strengths[b]) for a, b in pairings}
    covered = intervals = failed = 0
    for _ in range(ladders):
        tallies = {k: tally_of(*draw_pairs(rng, probs[k], rho, pairs), paired=paired)
                   for k in pairings}
        try:
            fit: RatingFit = fit_tallies(tallies, prior=prior, confidence=confidence)
        except (ValueError, RuntimeError):
            failed += 1
            continue
        for a, b in pairings:
            g = gap(fit, a, b)
            intervals += 1
            covered += g.low <= strengths[a] - strengths[b] <= g.high
        if challenger is not None:
            g = field_gap(fit, challenger)
            intervals += 1
            covered += g.low <= true_field <= g.high
    return Coverage(intervals, covered, ladders, failed)


@dataclass(frozen=True, slots=True)
class SprtRuns:
    """Simulated SPRTs at one true Elo: how they ended and how long they took."""

    runs: int
    h0: int
    h1: int
    undecided: int
    """Runs that reached max_pairs without a decision."""
    pairs: int
    """Pairs played over all runs."""

    @property
    def mean_pairs(self) -> float:
        return self.pairs / self.runs if self.runs else float("nan")


def sprt_runs(test: SprtTest, elo: float, *, rho: float, runs: int, seed: int,
              max_pairs: int = 100_000) -> SprtRuns:
    """`runs` tests of a challenger truly `elo` stronger (per game, logistic) than its
    opponent, each pair drawn with correlation rho between its halves, each stopped at
    its first decision as `ladder run` stops a gauntlet."""
    rng = random.Random(seed)
    both, split, _ = pair_outcomes(expected_score(elo, 0.0), rho)
    h0 = h1 = undecided = total = 0
    for _ in range(runs):
        counts = {1.0: 0, 0.5: 0, 0.0: 0}
        state: SprtState | None = None
        while True:
            u = rng.random()
            counts[1.0 if u < both else 0.5 if u < both + split else 0.0] += 1
            total += 1
            state = test.state(counts, paired=True)
            if state.result is not None or state.units == max_pairs:
                break
        if state is None or state.result is None:
            undecided += 1
        elif state.result == "H0":
            h0 += 1
        else:
            h1 += 1
    return SprtRuns(runs, h0, h1, undecided, total)


def twin_gauntlet(pairs: int, won: int, opponents: int) -> dict[tuple[str, str], PairingTally]:
    """A gauntlet's tallies in which the challenger "c" and one opponent, its "twin",
    have the same results: they split every one of their `pairs` pairs. Against each of
    `opponents` others ("o1", "o2", ...) c wins `won` of `pairs` pairs 2-0 and splits
    the rest. So c plays opponents + 1 times the twin's games."""
    tallies = {("c", "twin"): tally_of(0, pairs, 0)}
    for i in range(1, opponents + 1):
        tallies["c", f"o{i}"] = tally_of(won, pairs - won, 0)
    return tallies


@dataclass(frozen=True, slots=True)
class TwinGaps:
    """Simulated gauntlets of a challenger and its equally strong twin: the fitted gap
    between the two, which is 0 in truth."""

    ladders: int
    failed: int
    """Ladders whose fit failed (with no prior: some pairing won or lost every game)."""
    mean: float
    stderr: float
    """Of the mean, over the ladders fitted."""


def twin_gaps(*, above: float, opponents: int, pairs: int, ladders: int, seed: int,
              rho: float = 0.0, prior: float = DEFAULT_PRIOR) -> TwinGaps:
    """Gauntlets of `pairs` pairs per pairing whose challenger "c" and one opponent,
    "twin", are equally strong and `above` Elo above `opponents` others: the mean fitted
    gap c - twin. The twin plays only c, so it has 1 / (opponents + 1) of c's games, and
    the prior pulls it further toward the mean."""
    rng = random.Random(seed)
    p = expected_score(above, 0.0)
    gaps: list[float] = []
    failed = 0
    for _ in range(ladders):
        tallies = {("c", "twin"): tally_of(*draw_pairs(rng, 0.5, rho, pairs))}
        for i in range(1, opponents + 1):
            tallies["c", f"o{i}"] = tally_of(*draw_pairs(rng, p, rho, pairs))
        try:
            fit = fit_tallies(tallies, prior=prior)
        except (ValueError, RuntimeError):
            failed += 1
            continue
        gaps.append(gap(fit, "c", "twin").elo)
    if len(gaps) < 2:
        return TwinGaps(ladders, failed, float("nan"), float("nan"))
    mean = sum(gaps) / len(gaps)
    spread = math.sqrt(sum((g - mean) ** 2 for g in gaps) / (len(gaps) - 1))
    return TwinGaps(ladders, failed, mean, spread / math.sqrt(len(gaps)))


def strengths_apart(count: int, step: float) -> dict[str, float]:
    """`count` bots named b0, b1... `step` Elo apart."""
    return {f"b{i}": i * step for i in range(count)}


__all__: Sequence[str] = ("Coverage", "SprtRuns", "TwinGaps", "draw_pairs", "elo_of_normalized",
                          "gap_coverage", "normalized_elo", "pair_outcomes", "sprt_runs",
                          "strengths_apart", "tally_of", "twin_gaps", "twin_gauntlet")


def normalized_elo(elo: float, rho: float) -> float:
    """The normalized Elo (fastchess's, on pairs) of a pairing whose per-game win
    probability is expected_score(elo, 0) and whose halves have correlation rho."""
    p = expected_score(elo, 0.0)
    both, split, neither = pair_outcomes(p, rho)
    var = both * (1 - p) ** 2 + split * (0.5 - p) ** 2 + neither * p**2
    return (p - 0.5) / math.sqrt(2 * var) * 800 / math.log(10)


def elo_of_normalized(nelo: float, rho: float) -> float:
    """The per-game Elo whose normalized Elo at correlation rho is `nelo` (bisection over
    the Elo a pair can have at that correlation: p / q >= -rho when rho < 0)."""
    bound = 400 * math.log10(-1 / rho) * (1 - 1e-9) if rho < 0 else 600.0
    low, high = -bound, bound
    for _ in range(200):
        mid = (low + high) / 2
        if normalized_elo(mid, rho) < nelo:
            low = mid
        else:
            high = mid
    return (low + high) / 2
