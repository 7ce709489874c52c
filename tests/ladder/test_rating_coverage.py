"""The ratings' promises, checked by simulation (ladder.rating.simulate): ladders drawn from
known strengths, with the halves of each duplicate pair correlated -0.4, 0 or +0.3.

- 95% intervals of the gaps hold the true gap 93 to 97% of the time, over 2,000 ladders
  for each correlation. Counting the same games as independent does not (too wide at
  -0.4, too narrow at +0.3): that check shows these tests can tell the difference.
- The SPRT accepts H1 at elo0 about alpha of the time and H0 at elo1 about beta of the
  time: no more than alpha (beta) plus three standard errors of the simulation.

bench/ratings.py runs the same with more ladders, a gauntlet and tighter SPRT bounds,
and prints the figures.
"""

from __future__ import annotations

import math

import pytest

from ladder.rating.simulate import gap_coverage, sprt_runs
from ladder.rating.sprt import SprtTest

STRENGTHS = {"low": 0.0, "mid": 60.0, "top": 120.0}
LADDERS = 2000
PAIRS = 50  # per pairing: 100 games


GAUNTLET = {"c": 50.0, "x": 0.0, "y": 60.0, "z": 120.0}


@pytest.mark.parametrize("rho", [-0.4, 0.0, 0.3])
def test_gap_intervals_cover_95_percent_whatever_the_correlation(rho: float) -> None:
    c = gap_coverage(STRENGTHS, rho=rho, pairs=PAIRS, ladders=LADDERS, seed=7)
    assert c.failed == 0 and c.ladders == LADDERS and c.intervals == 3 * LADDERS
    assert 0.93 <= c.rate <= 0.97, f"rho {rho}: {100 * c.rate:.2f}% covered"


@pytest.mark.parametrize("rho", [-0.4, 0.3])
def test_a_challengers_gaps_cover_95_percent(rho: float) -> None:
    # a gauntlet: c against x, y, z, which never meet; its gap to each and to the field
    c = gap_coverage(GAUNTLET, rho=rho, pairs=PAIRS, ladders=LADDERS, seed=9, challenger="c")
    assert c.failed == 0 and c.intervals == 4 * LADDERS
    assert 0.93 <= c.rate <= 0.97, f"rho {rho}: {100 * c.rate:.2f}% covered"


@pytest.mark.parametrize("rho, too", [(-0.4, "wide"), (0.3, "narrow")])
def test_games_counted_as_independent_miss_that(rho: float, too: str) -> None:
    c = gap_coverage(STRENGTHS, rho=rho, pairs=PAIRS, ladders=LADDERS, seed=7, paired=False)
    if too == "wide":
        assert c.rate > 0.975, f"{100 * c.rate:.2f}%"
    else:
        assert c.rate < 0.925, f"{100 * c.rate:.2f}%"


SPRT = SprtTest(elo0=0.0, elo1=80.0, alpha=0.1, beta=0.1)
RUNS = 400


@pytest.mark.parametrize("rho", [-0.4, 0.0, 0.3])
def test_sprt_error_rates_are_alpha_and_beta(rho: float) -> None:
    at_elo0 = sprt_runs(SPRT, SPRT.elo0, rho=rho, runs=RUNS, seed=11)
    at_elo1 = sprt_runs(SPRT, SPRT.elo1, rho=rho, runs=RUNS, seed=13)
    for r in (at_elo0, at_elo1):
        assert r.undecided == 0 and r.h0 + r.h1 == RUNS
    slack_a = 3 * math.sqrt(SPRT.alpha * (1 - SPRT.alpha) / RUNS)
    slack_b = 3 * math.sqrt(SPRT.beta * (1 - SPRT.beta) / RUNS)
    assert at_elo0.h1 / RUNS <= SPRT.alpha + slack_a, f"false H1: {at_elo0.h1}/{RUNS}"
    assert at_elo1.h0 / RUNS <= SPRT.beta + slack_b, f"false H0: {at_elo1.h0}/{RUNS}"
    # and it does decide the right way most of the time, not by refusing to stop
    assert at_elo0.h0 > RUNS / 2 and at_elo1.h1 > RUNS / 2
