"""Tests for ladder.rating.ratings.

Expected numbers are worked out by hand (the arithmetic is in the comments), never read back
from the code under test.
"""

from __future__ import annotations

import dataclasses
import itertools
import json
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ladder.rating.ratings import (
    DEFAULT_PRIOR,
    ELO_INITIAL,
    EloTable,
    elo_ratings,
    expected_score,
    fit_ratings,
    likelihood_of_superiority,
)

# Elo points per natural-log unit: 400 / ln 10 = 173.7177927...
ELO_PER_NAT = 400 / math.log(10)


def results_proportional(true: dict[str, float], count: int) -> list[tuple[str, str, float]]:
    """Round robin where each pair's total score is exactly count * P_BT(a beats b): whole
    wins and losses plus one fractional result carrying the remainder."""
    out: list[tuple[str, str, float]] = []
    for a, b in itertools.combinations(sorted(true), 2):
        expected_points = count / (1 + 10 ** ((true[b] - true[a]) / 400))
        wins = math.floor(expected_points)
        out += [(a, b, 1.0)] * wins
        out.append((a, b, expected_points - wins))
        out += [(a, b, 0.0)] * (count - wins - 1)
    return out


# --- expected_score --------------------------------------------------------------------------


def test_expected_score_equal_ratings_is_half() -> None:
    assert expected_score(1500, 1500) == 0.5


def test_expected_score_400_gap_is_ten_elevenths() -> None:
    # 1 / (1 + 10**(-400/400)) = 1 / (1 + 1/10) = 10/11
    assert expected_score(1600, 1200) == pytest.approx(10 / 11, rel=1e-15)
    assert expected_score(1200, 1600) == pytest.approx(1 / 11, rel=1e-15)


@pytest.mark.parametrize("ra, rb", [(1200, 1200), (1000, 1400), (2500, 800), (-300, 10)])
def test_expected_score_is_symmetric(ra: float, rb: float) -> None:
    assert expected_score(ra, rb) + expected_score(rb, ra) == pytest.approx(1.0, abs=1e-15)


@pytest.mark.parametrize("gap", [100_000.0, 1_000_000.0, 1e300])
def test_expected_score_huge_gap_does_not_overflow(gap: float) -> None:
    # 10**(gap/400) overflows a float once gap/400 > 308, i.e. at 1e6 the naive formula raises.
    assert expected_score(gap, 0.0) == 1.0
    assert 0.0 <= expected_score(0.0, gap) < 1e-200


# --- Elo ------------------------------------------------------------------------------------


def test_one_elo_update_by_hand() -> None:
    # Both new bots start at 1200, so E = 0.5; A wins: 1200 + 10 * (1 - 0.5) = 1205,
    # B loses: 1200 + 10 * (0 - 0.5) = 1195.
    table = EloTable()
    assert table.update("A", "B", 1.0) == (1205.0, 1195.0)
    assert table.ratings == {"A": 1205.0, "B": 1195.0}


def test_elo_update_matches_the_packages_documented_example() -> None:
    # From the elo package's long description: rate_1vs1(800, 1200) == (809.091, 1190.909).
    # E = 1 / (1 + 10**(400/400)) = 1/11; 800 + 10 * 10/11 = 809.0909; 1200 - 10 * 10/11.
    table = EloTable(ratings={"A": 800.0, "B": 1200.0})
    new_a, new_b = table.update("A", "B", 1.0)
    assert new_a == pytest.approx(800 + 100 / 11, abs=1e-9)
    assert new_b == pytest.approx(1200 - 100 / 11, abs=1e-9)
    assert round(new_a, 3) == 809.091


def test_elo_draw_between_equal_ratings_changes_nothing() -> None:
    table = EloTable()
    assert table.update("A", "B", 0.5) == (1200.0, 1200.0)


SEQUENCE = [("A", "B", 1.0), ("B", "C", 1.0), ("C", "A", 1.0)]


def test_three_elo_updates_by_hand() -> None:
    # 1. A beats B at 1200/1200: A = 1205, B = 1195.
    # 2. B (1195) beats C (1200): E_B = 1 / (1 + 10**(5/400)) = 1 / (1 + 1.0292005272)
    #    = 0.4928049183; delta = 10 * (1 - 0.4928049183) = 5.0719508171
    #    B = 1200.0719508171, C = 1194.9280491829.
    # 3. C (1194.9280491829) beats A (1205): E_C = 1 / (1 + 10**(10.0719508171/400))
    #    = 1 / (1 + 10**0.0251798770) = 1 / (1 + 1.0596925401) = 0.4855093566;
    #    delta = 10 * (1 - 0.4855093566) = 5.1449064337
    #    C = 1200.0729556166, A = 1199.8550935663.
    ratings = elo_ratings(SEQUENCE)
    assert ratings["A"] == pytest.approx(1199.8550935663, abs=1e-8)
    assert ratings["B"] == pytest.approx(1200.0719508171, abs=1e-8)
    assert ratings["C"] == pytest.approx(1200.0729556166, abs=1e-8)


def test_elo_order_matters_but_a_given_order_is_reproducible() -> None:
    # Same three games reversed: C beats A (A 1195, C 1205); B (1200) beats C (1205):
    # E_B = 0.4928049183, delta 5.0719508171 -> B 1205.0719508171, C 1199.9280491829;
    # A (1195) beats B: E_A = 1 / (1 + 10**(10.0719508171/400)) = 0.4855093566,
    # delta 5.1449064337 -> A 1200.1449064337, B 1199.9270443834.
    reversed_ratings = elo_ratings(list(reversed(SEQUENCE)))
    assert reversed_ratings["A"] == pytest.approx(1200.1449064337, abs=1e-8)
    assert reversed_ratings["B"] == pytest.approx(1199.9270443834, abs=1e-8)
    assert reversed_ratings["C"] == pytest.approx(1199.9280491829, abs=1e-8)
    assert reversed_ratings != elo_ratings(SEQUENCE)
    assert elo_ratings(SEQUENCE) == elo_ratings(SEQUENCE)


def test_elo_custom_k_and_initial_and_unknown_bots() -> None:
    table = EloTable(k=32, initial=1500)
    assert table.rating("nobody") == 1500
    # 1500 vs 1500, E = 0.5: 1500 + 32 * 0.5 = 1516.
    assert table.update("A", "B", 1.0) == (1516.0, 1484.0)
    assert table.rating("nobody") == 1500
    assert "nobody" not in table.ratings


def test_elo_ratings_copy_cannot_modify_table() -> None:
    table = EloTable()
    table.update("A", "B", 1.0)
    table.ratings["A"] = 0.0
    assert table.rating("A") == 1205.0


@pytest.mark.parametrize(
    "result", [("A", "A", 1.0), ("A", "B", 1.5), ("A", "B", -0.1), ("A", "B", math.nan)]
)
def test_elo_rejects_bad_results(result: tuple[str, str, float]) -> None:
    with pytest.raises(ValueError):
        EloTable().update(*result)


@settings(max_examples=50, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.sampled_from("ABCD"), st.sampled_from("ABCD"), st.sampled_from([0.0, 0.5, 1.0])
        ).filter(lambda r: r[0] != r[1]),
        max_size=40,
    )
)
def test_elo_is_zero_sum(results: list[tuple[str, str, float]]) -> None:
    ratings = elo_ratings(results)
    assert sum(ratings.values()) == pytest.approx(ELO_INITIAL * len(ratings), abs=1e-9)


# --- maximum likelihood: two bots -------------------------------------------------------------

THREE_OF_FOUR = [("A", "B", 1.0), ("A", "B", 1.0), ("B", "A", 0.0), ("A", "B", 0.0)]


def test_two_bots_gap_is_log_odds_without_prior() -> None:
    # A scored 3 of 4: the MLE sets P = 3/4, odds 3:1, gap = 400 * log10(3) = 190.8485.
    fit = fit_ratings(THREE_OF_FOUR, prior=0)
    a, b = fit.get("A"), fit.get("B")
    assert a.rating - b.rating == pytest.approx(190.8485019, abs=1e-6)
    # Mean anchor: the two ratings sit symmetrically around 1200.
    assert a.rating == pytest.approx(1200 + 190.8485019 / 2, abs=1e-6)
    assert (a.games, a.score, b.games, b.score) == (4, 0.75, 4, 0.25)
    assert fit.names() == ("A", "B")


def test_two_bots_standard_error_from_fisher_information() -> None:
    # Fisher information for the gap, in natural units: n p (1 - p) = 4 * 3/4 * 1/4 = 3/4;
    # on the Elo scale multiply by (ln10/400)**2, so SE(gap) = (400/ln10) / sqrt(3/4)
    # = 173.71779 / 0.8660254 = 200.59203. With the mean anchor each rating is +-gap/2, so
    # SE(each) = 100.29601, cov(A, B) = -SE(each)**2.
    fit = fit_ratings(THREE_OF_FOUR, prior=0)
    a, b = fit.get("A"), fit.get("B")
    se_gap = math.sqrt(fit.cov("A", "A") + fit.cov("B", "B") - 2 * fit.cov("A", "B"))
    assert se_gap == pytest.approx(200.59203, abs=1e-4)
    assert a.stderr == pytest.approx(100.29601, abs=1e-4)
    assert fit.cov("A", "B") == pytest.approx(-(100.29601**2), rel=1e-6)
    # 95% interval: estimate +- 1.959964 * SE, symmetric, containing the estimate.
    assert a.low < a.rating < a.high
    assert a.high - a.rating == pytest.approx(a.rating - a.low, abs=1e-9)
    assert a.high - a.low == pytest.approx(2 * 1.959964 * 100.29601, abs=1e-3)
    assert b.high - b.low == pytest.approx(a.high - a.low, abs=1e-9)


def test_two_bots_with_the_default_prior() -> None:
    # Each bot brings 2 virtual draws against an opponent at the mean of the two. With
    # x the gap in natural units, A sits at +x/2 and B at -x/2, and the stationary point
    # of the log-posterior in A's direction is
    #   3 - 4 sigmoid(x)  +  2 (1/2 - sigmoid(x/2))  =  0
    # (the data's 3 wins of 4, and A's virtual draws against a phantom x/2 below it; B's
    # phantom term has the same slope). Solved here by bisection, independently of the fit.
    assert DEFAULT_PRIOR == 2

    def stationary(x: float) -> float:
        return 3 - 4 / (1 + math.exp(-x)) + 2 * (0.5 - 1 / (1 + math.exp(-x / 2)))

    lo, hi = 0.0, 5.0
    for _ in range(200):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if stationary(mid) > 0 else (lo, mid)
    fit = fit_ratings(THREE_OF_FOUR)
    a, b = fit.get("A"), fit.get("B")
    assert a.rating - b.rating == pytest.approx(lo * ELO_PER_NAT, abs=1e-6)
    # Shrunk from the prior-free 190.85, by less than the old prior's 120.41.
    assert 120.5 < a.rating - b.rating < 190.8
    assert (a.games, a.score) == (4, 0.75)  # the virtual games are not reported as games


def test_the_prior_does_not_depend_on_how_many_opponents_a_bot_met() -> None:
    # A gauntlet: C meets X, Y, Z 10 games each and scores exactly half against each, and
    # the field never meets. Every true gap is 0 and the data say so exactly; a prior
    # that weighs the challenger like any other bot leaves every rating at the mean.
    # (The old prior gave C 6 virtual games: still 0 here, so also check a lopsided case.)
    even = [(c, o, s) for o in "XYZ" for c, s in [("C", 1.0), ("C", 0.0)] * 5]
    fit = fit_ratings(even)
    for name in "CXYZ":
        assert fit.get(name).rating == pytest.approx(1200.0, abs=1e-9)
    # C scores 7 of 10 against each. The prior-free gap is 400 log10(7/3) = 147.19 against
    # each opponent. By symmetry the three opponents share one rating, so the fit is a
    # one-dimensional problem: C at +3u/4, each opponent at -u/4 (mean 0), gap u.
    # Stationarity in u, worked here: d/du of
    #   30 [0.7 log s(u) + 0.3 log s(-u)] + 2 [f(3u/4) + 3 f(-u/4)],
    #   f(d) = (log s(d) + log s(-d)) / 2,  f'(d) = 1/2 - s(d)
    # gives 30 (0.7 - s(u)) + 2 [3/4 (1/2 - s(3u/4)) - 3/4 (1/2 - s(-u/4))] = 0.
    lopsided = [(c, o, s) for o in "XYZ" for c, s in [("C", 1.0)] * 7 + [("C", 0.0)] * 3]

    def s(x: float) -> float:
        return 1 / (1 + math.exp(-x))

    def stationary(u: float) -> float:
        return 30 * (0.7 - s(u)) + 1.5 * ((0.5 - s(0.75 * u)) - (0.5 - s(-0.25 * u)))

    lo, hi = 0.0, 5.0
    for _ in range(200):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if stationary(mid) > 0 else (lo, mid)
    fit = fit_ratings(lopsided)
    for other in "XYZ":
        assert fit.get("C").rating - fit.get(other).rating == pytest.approx(lo * ELO_PER_NAT,
                                                                            abs=1e-6)
    # Shrunk by the prior, but less than by the old one, which put 2/2 (1/3 + 1) = 4/3
    # virtual draws on each pairing: (7 + 2/3) / (10 + 4/3) = 0.67647, 400 log10 of the
    # odds = 128.2.
    assert 128.3 < lo * ELO_PER_NAT < 147.19


def test_anchor_bot_is_pinned_and_gaps_unchanged() -> None:
    # Pinning B at 0: A = 190.8485, and all the gap's uncertainty lands on A (SE 200.59203).
    fit = fit_ratings(THREE_OF_FOUR, prior=0, anchor=0.0, anchor_bot="B")
    assert fit.get("B").rating == 0.0
    assert fit.get("B").stderr == pytest.approx(0.0, abs=1e-9)
    assert fit.get("A").rating == pytest.approx(190.8485019, abs=1e-6)
    assert fit.get("A").stderr == pytest.approx(200.59203, abs=1e-4)


def test_fit_depends_only_on_per_pair_totals() -> None:
    # Same per-pair totals, different order and orientation of the individual results.
    flipped = [(b, a, 1.0 - s) for a, b, s in reversed(THREE_OF_FOUR)]
    assert fit_ratings(flipped) == fit_ratings(THREE_OF_FOUR)


def test_duplicate_pair_scores_are_half_points() -> None:
    # Two drawn duplicate pairs and two won ones: A has 0.5 + 0.5 + 1 + 1 = 3 of 4, the same
    # totals as THREE_OF_FOUR, so the same gap 400 * log10(3) = 190.8485.
    pairs = [("A", "B", 0.5), ("A", "B", 1.0), ("B", "A", 0.5), ("A", "B", 1.0)]
    fit = fit_ratings(pairs, prior=0)
    assert fit.get("A").rating - fit.get("B").rating == pytest.approx(190.8485019, abs=1e-6)
    assert fit.get("A").score == 0.75


def test_all_draws_give_equal_ratings_at_the_anchor() -> None:
    fit = fit_ratings([("A", "B", 0.5)] * 3, prior=0)
    assert fit.get("A").rating == pytest.approx(1200.0, abs=1e-9)
    assert fit.get("B").rating == pytest.approx(1200.0, abs=1e-9)


# --- maximum likelihood: known structure ---------------------------------------------------


def test_three_bots_recover_known_gaps() -> None:
    # P(X beats Y) from true ratings 0, 100, 300: 0.640065 (100 vs 0), 0.849020 (300 vs 0),
    # 0.759747 (300 vs 100). 100,000 games per pair rounded to whole wins: the rounding moves
    # p by at most 5e-6, i.e. < 0.01 Elo; the prior (1 virtual game per pair) moves it less.
    true = {"X": 0.0, "Y": 100.0, "Z": 300.0}
    results = []
    for a, b in itertools.combinations(true, 2):
        wins = round(100_000 / (1 + 10 ** ((true[b] - true[a]) / 400)))
        results += [(a, b, 1.0)] * wins + [(a, b, 0.0)] * (100_000 - wins)
    fit = fit_ratings(results)
    assert fit.get("Y").rating - fit.get("X").rating == pytest.approx(100.0, abs=0.1)
    assert fit.get("Z").rating - fit.get("Y").rating == pytest.approx(200.0, abs=0.1)
    assert fit.get("Z").rating - fit.get("X").rating == pytest.approx(300.0, abs=0.1)
    assert fit.names() == ("Z", "Y", "X")
    # Mean anchor: (0 + 100 + 300) / 3 = 133.33 maps to 1200, so Z = 1200 + 166.67.
    assert fit.get("Z").rating == pytest.approx(1366.667, abs=0.1)


def test_twenty_bots_fifty_thousand_results_converge_fast_and_exactly() -> None:
    # 20 bots 50 points apart, 190 pairs x 263 results = 49,970 results, with per-pair score
    # totals exactly count * P_BT. Without a prior the likelihood equations hold at the true
    # ratings, so the fit must return them; the mean of 0..950 is 475, which maps to 1200.
    true = {f"bot{i:02d}": 50.0 * i for i in range(20)}
    results = results_proportional(true, 263)
    assert len(results) == 49_970
    fit = fit_ratings(results, prior=0)
    for name, value in true.items():
        assert fit.get(name).rating == pytest.approx(value - 475 + 1200, abs=1e-6)
    assert fit.iterations <= 15  # Newton: a handful of steps, not hundreds
    with_prior = fit_ratings(results)
    for name, value in true.items():
        assert with_prior.get(name).rating == pytest.approx(value - 475 + 1200, abs=1.0)


# --- perfect records, LOS, edge cases -------------------------------------------------------


ALL_WIN = [("A", "B", 1.0)] * 10 + [("A", "C", 1.0)] * 10 + [("B", "C", 1.0), ("B", "C", 0.0)]


def test_all_win_bot_is_finite_and_on_top() -> None:
    fit = fit_ratings(ALL_WIN)
    a = fit.get("A")
    assert math.isfinite(a.rating) and math.isfinite(a.low) and math.isfinite(a.high)
    assert a.rating > fit.get("B").rating and a.rating > fit.get("C").rating
    assert fit.names()[0] == "A"
    assert a.score == 1.0


def test_all_win_without_prior_has_no_mle() -> None:
    with pytest.raises(ValueError, match="prior"):
        fit_ratings(ALL_WIN, prior=0)


def test_los_of_clearly_stronger_bot() -> None:
    # A scored 75 of 100: gap 190.85, SE(gap) = 173.718 / sqrt(100 * 0.1875) = 40.12,
    # z = 4.76, Phi(z) = 0.999999.
    results = [("A", "B", 1.0)] * 75 + [("A", "B", 0.0)] * 25
    los = likelihood_of_superiority(fit_ratings(results, prior=0))
    assert los["A", "B"] == pytest.approx(0.999999, abs=1e-6)
    assert los["A", "B"] > 0.99


def test_los_two_bots_three_of_four() -> None:
    # z = 190.8485 / 200.59203 = 0.951426; Phi(0.951426) = 0.829306.
    los = likelihood_of_superiority(fit_ratings(THREE_OF_FOUR, prior=0))
    assert los["A", "B"] == pytest.approx(0.829306, abs=1e-6)


def test_los_identical_bots_is_half_and_pairs_sum_to_one() -> None:
    # A and B have mirror-image records (each 60-40 against C, 50-50 with each other).
    results = (
        [("A", "C", 1.0)] * 60
        + [("A", "C", 0.0)] * 40
        + [("C", "B", 0.0)] * 60
        + [("C", "B", 1.0)] * 40
        + [("A", "B", 1.0), ("A", "B", 0.0)] * 25
    )
    fit = fit_ratings(results)
    los = likelihood_of_superiority(fit)
    assert los["A", "B"] == pytest.approx(0.5, abs=1e-9)
    assert set(los) == {(a, b) for a in "ABC" for b in "ABC" if a != b}
    for (a, b), value in los.items():
        assert value + los[b, a] == pytest.approx(1.0, abs=1e-12)
    assert los["A", "C"] > 0.5


def test_empty_results() -> None:
    fit = fit_ratings([])
    assert fit.ratings == () and fit.covariance == () and fit.iterations == 0
    assert likelihood_of_superiority(fit) == {}
    assert fit_ratings([], bots=["lonely"]).unrated == ("lonely",)


def test_bot_without_games_is_unrated_and_does_not_shift_the_anchor() -> None:
    fit = fit_ratings(THREE_OF_FOUR, prior=0, bots=["A", "B", "idle"])
    assert fit.unrated == ("idle",)
    assert fit.names() == ("A", "B")
    with pytest.raises(KeyError):
        fit.get("idle")
    # The mean over the rated bots only is the anchor.
    assert fit.get("A").rating + fit.get("B").rating == pytest.approx(2400.0, abs=1e-9)


def test_disconnected_groups_are_refused() -> None:
    results = [("A", "B", 1.0), ("A", "B", 0.0), ("C", "D", 1.0), ("C", "D", 0.0)]
    with pytest.raises(ValueError, match="never played"):
        fit_ratings(results)


@pytest.mark.parametrize(
    "kwargs",
    [{"prior": -1.0}, {"confidence": 1.0}, {"anchor_bot": "idle"}, {"anchor": math.inf}],
)
def test_fit_rejects_bad_arguments(kwargs: dict) -> None:
    with pytest.raises(ValueError):
        fit_ratings(THREE_OF_FOUR, **kwargs)


def test_fit_rejects_bad_results() -> None:
    with pytest.raises(ValueError):
        fit_ratings([("A", "A", 1.0)])
    with pytest.raises(ValueError):
        fit_ratings([("A", "B", 2.0)])


def test_fit_serializes_to_strict_json() -> None:
    fit = fit_ratings(ALL_WIN, bots=["idle"])
    data = json.loads(json.dumps(dataclasses.asdict(fit), allow_nan=False))
    assert data["ratings"][0]["name"] == "A"
    assert data["unrated"] == ["idle"]
    with pytest.raises(dataclasses.FrozenInstanceError):
        fit.anchor = 0.0  # type: ignore[misc]


@settings(max_examples=40, deadline=None)
@given(
    st.lists(st.sampled_from([0.0, 0.5, 1.0]), min_size=4, max_size=4),
    st.lists(
        st.tuples(
            st.sampled_from("ABCDE"), st.sampled_from("ABCDE"), st.sampled_from([0.0, 0.5, 1.0])
        ).filter(lambda r: r[0] != r[1]),
        max_size=30,
    ),
)
def test_fit_invariants(chain: list[float], extra: list[tuple[str, str, float]]) -> None:
    # A chain A-B-C-D-E keeps the bots connected; the prior keeps every rating finite.
    results = [(a, b, s) for (a, b), s in zip(itertools.pairwise("ABCDE"), chain, strict=True)]
    fit = fit_ratings(results + extra)
    ratings = [r.rating for r in fit.ratings]
    assert sum(ratings) / 5 == pytest.approx(ELO_INITIAL, abs=1e-6)
    assert ratings == sorted(ratings, reverse=True)
    for row in fit.covariance:  # mean anchor: sum of ratings has zero variance
        assert sum(row) == pytest.approx(0.0, abs=1e-6 * max(map(abs, row)))
    los = likelihood_of_superiority(fit)
    for (a, b), value in los.items():
        assert 0.0 <= value <= 1.0
        assert value + los[b, a] == pytest.approx(1.0, abs=1e-12)
