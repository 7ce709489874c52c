"""The pair model of duplicate play, the SPRT and Elo against outside references.

Reference values come from elsewhere, never from the code under test: fastchess's own
unit tests (app/tests/elo_test.cpp and sprt_test.cpp, github.com/Disservin/fastchess)
for the pentanomial figures and the LLR, arithmetic worked by hand in the comments, and
the `elo` package's update copied below (it cannot be installed, see the README).
"""

from __future__ import annotations

import math
import random
from decimal import Decimal, localcontext
from statistics import NormalDist

import pytest

from ladder.rating.pairs import PairingTally, Unit, head_to_head, pair_units, tally_units
from ladder.rating.ratings import EloTable, field_gap, fit_ratings, fit_units, gap
from ladder.rating.sprt import _PAIR_SCORES, SprtTest, _mle_mean

# --- Elo: the `elo` package's rate_1vs1, to the bit -------------------------------------


class _PackageElo:
    """sublee/elo 0.1.1, elo.py, the parts rate_1vs1 uses, as published (K_FACTOR = 10,
    INITIAL = 1200, BETA = 200; WIN = 1., DRAW = 0.5, LOSS = 0.)."""

    k_factor, beta = 10, 200

    def expect(self, rating: float, other_rating: float) -> float:
        diff = float(other_rating) - float(rating)
        f_factor = 2 * self.beta
        return 1.0 / (1 + 10 ** (diff / f_factor))

    def rate(self, rating: float, series: list[tuple[float, float]]) -> float:
        k = self.k_factor
        difference = 0
        for actual, other_rating in series:
            expected = self.expect(rating, other_rating)
            difference += actual - expected
        return float(rating) + k * difference

    def rate_1vs1(self, rating1: float, rating2: float, drawn: bool = False) -> tuple[float, float]:
        scores = (0.5, 0.5) if drawn else (1.0, 0.0)
        return (self.rate(rating1, [(scores[0], rating2)]),
                self.rate(rating2, [(scores[1], rating1)]))


def test_elo_is_the_packages_rate_1vs1_to_the_bit() -> None:
    rng = random.Random(12)
    package = _PackageElo()
    ratings = {n: 1200.0 for n in "ABCDE"}
    table = EloTable()
    differed = 0
    for _ in range(5000):
        a, b = rng.sample("ABCDE", 2)
        outcome = rng.choice([1.0, 0.0, 0.5])
        if outcome == 0.0:  # rate_1vs1 takes the winner first
            new_b, new_a = package.rate_1vs1(ratings[b], ratings[a])
        else:
            new_a, new_b = package.rate_1vs1(ratings[a], ratings[b], drawn=outcome == 0.5)
        # The old update moved the loser by minus the winner's change: not the same bits.
        differed += new_b != ratings[b] - (new_a - ratings[a])
        ratings[a], ratings[b] = new_a, new_b
        table.update(a, b, outcome)
        assert table.rating(a) == new_a and table.rating(b) == new_b
    assert differed > 0  # the sequence does exercise the difference


# --- the units ----------------------------------------------------------------------------


class Row:
    def __init__(self, seq: int, a: str, b: str, deal: int, score: float) -> None:
        self.seq, self.game_id, self.bot_a, self.bot_b = seq, f"{a}~{b}~{seq:05d}", a, b
        self.deal, self.score_a = deal, score


def test_units_are_the_halves_of_a_deal_and_lone_games() -> None:
    rows = [Row(0, "A", "B", 0, 1.0), Row(1, "A", "B", 0, 0.0), Row(2, "A", "C", 0, 0.5),
            Row(3, "A", "C", 0, 1.0), Row(4, "A", "B", 1, 1.0)]
    units = pair_units(reversed(rows))
    assert units == [Unit("A", "B", (1.0, 0.0), 1), Unit("A", "C", (0.5, 1.0), 3),
                     Unit("A", "B", (1.0,), 4)]
    assert [u.score_a for u in units] == [1.0, 1.5, 1.0]
    assert len(pair_units(rows, paired=False)) == 5
    with pytest.raises(ValueError, match="share deal"):
        pair_units([*rows, Row(5, "A", "B", 0, 1.0)])
    with pytest.raises(ValueError, match=r"\[0, 1\]"):
        pair_units([Row(0, "A", "B", 0, 2.0)])


def test_a_tally_from_either_side_agrees() -> None:
    units = [Unit("B", "A", (1.0, 0.5), 0), Unit("A", "B", (0.0, 0.0), 1),
             Unit("A", "B", (1.0,), 2)]
    t = tally_units(units)[("A", "B")]
    # A's side: (0, 0.5), (0, 0), (1): points 1.5 of 5 games, 3 units
    assert (t.games, t.points, t.units) == (5, 1.5, 3)
    assert t.squares == 0.25 + 0 + 1 and t.cross == 2 * 0.5 + 0 + 1 and t.game_squares == 9
    assert t.pairs == {0.5: 1, 0.0: 1} and t.singles == {1.0: 1}
    flipped = t.flipped()
    direct = tally_units([Unit("B", "A", (1.0, 0.5), 0), Unit("B", "A", (1.0, 1.0), 1),
                          Unit("B", "A", (0.0,), 2)])
    # keyed (A, B) whichever way the units were written; flip to B's side by hand
    assert flipped.points == 3.5 and flipped.squares == 1.5**2 + 2**2 + 0
    assert flipped.cross == 2 * 1.5 + 2 * 2 + 0
    assert direct[("A", "B")].points == t.points
    for p in (0.2, 0.5, 0.7):
        by_hand = (0.5 - 2 * p) ** 2 + (0 - 2 * p) ** 2 + (1 - p) ** 2
        assert t.residual_squares(p) == pytest.approx(by_hand, abs=1e-12)


# --- fastchess's pentanomial figures -------------------------------------------------------


def penta_tally(ll: int, ld: int, wl: int, dd: int, wd: int, ww: int) -> PairingTally:
    """fastchess's Stats(ll, ld, wl, dd, wd, ww) as a tally of duplicate pairs."""
    t = PairingTally()
    for scores, n in (((0.0, 0.0), ll), ((0.5, 0.0), ld), ((1.0, 0.0), wl), ((0.5, 0.5), dd),
                      ((1.0, 0.5), wd), ((1.0, 1.0), ww)):
        t.add(scores, n)
    return t


@pytest.mark.parametrize("stats, nelo, nerr, elo, err, los", [
    # fastchess app/tests/elo_test.cpp, "EloPentanomial 1" to "3" (checked to 1%)
    ((34, 54, 31, 32, 64, 75), 57.94, 28.28, 55.58, 27.65, 1.0),
    ((332, 433, 457, 41, 333, 334), -9.17, 10.96, -8.64, 10.33, 0.0505),
    ((7895, 8757, 5485, 200, 568, 9999), -19.01, 2.65, -21.04, 2.95, 0.0),
])
def test_head_to_head_is_fastchess_pentanomial(stats, nelo, nerr, elo, err, los) -> None:
    h = head_to_head(penta_tally(*stats))
    assert h is not None
    assert h.nelo == pytest.approx(nelo, rel=0.01)
    assert h.nelo_margin == pytest.approx(nerr, rel=0.01)
    assert h.elo == pytest.approx(elo, rel=0.01)
    assert h.elo_margin == pytest.approx(err, rel=0.01)
    assert h.los == pytest.approx(los, abs=5e-5)


@pytest.mark.parametrize("wins, losses, draws, nelo, nerr, elo, err, los", [
    # fastchess app/tests/elo_test.cpp, "EloWDL 1" and "2": games without pairs
    (76, 89, 123, -20.76, 40.13, None, None, 0.1553),
    (136, 96, 111, 49.77, 36.77, 40.70, 30.43, 0.9960),
])
def test_head_to_head_over_games_is_fastchess_wdl(wins, losses, draws, nelo, nerr, elo, err,
                                                  los) -> None:
    t = PairingTally()
    t.add((1.0,), wins)
    t.add((0.0,), losses)
    t.add((0.5,), draws)
    h = head_to_head(t, by="games")
    assert h is not None and h.units == wins + losses + draws
    assert h.nelo == pytest.approx(nelo, rel=0.01)
    assert h.nelo_margin == pytest.approx(nerr, rel=0.01)
    if elo is not None:
        assert h.elo == pytest.approx(elo, rel=0.01)
        assert h.elo_margin == pytest.approx(err, rel=0.01)
    assert h.los == pytest.approx(los, abs=5e-5)
    assert head_to_head(t, by="pairs") is None  # no pairs among them


@pytest.mark.parametrize("stats, elo", [
    # fastchess's EloPentanomial formulas, compiled: six split pairs give Elo 0.00 +/-
    # 0.00, nElo nan +/- nan, LOS nan %; six pairs won 1½-½ give Elo 190.85 +/- 0.00,
    # nElo inf +/- nan, LOS 100.00 %
    ((0, 0, 6, 0, 0, 0), 0.0), ((0, 0, 0, 3, 0, 0), 0.0), ((0, 0, 0, 0, 6, 0), 190.85),
])
def test_head_to_head_without_spread_has_no_margin_nelo_or_los(stats, elo) -> None:
    h = head_to_head(penta_tally(*stats))
    assert h is not None and h.variance == 0.0 and not h.spread
    assert h.elo == pytest.approx(elo, abs=0.005)
    assert (h.elo_margin, h.nelo, h.nelo_margin, h.los) == (None, None, None, None)


def test_los_over_pairs_from_the_issue() -> None:
    # 30 pairs won 2-0, 60 split, 10 lost 0-2. Per pair (mean per game): score 0.6,
    # variance (30 * 0.4**2 + 60 * 0.1**2 + 10 * 0.6**2) / 100 = 0.09, SE 0.03, so
    # LOS = Phi(0.1 / 0.03) = 0.99957; Phi((W - L) / sqrt(W + L)) = Phi(3.1623) = 0.99922
    # counts the splits as no information, and is close. The old pairs mode gave 0.9765.
    t = penta_tally(10, 0, 60, 0, 0, 30)
    h = head_to_head(t)
    assert h is not None and h.los == pytest.approx(NormalDist().cdf(0.1 / 0.03), abs=1e-9)
    # The fit, without a prior: theta = logit(0.6) = 0.405465; information 200 * 0.24 = 48;
    # the units' spread sum (s - 2p)^2 = 30 * 0.8^2 + 60 * 0.2^2 + 10 * 1.2^2 = 36, so
    # var = 36 / 48^2 and SE = 0.125: LOS = Phi(0.405465 / 0.125) = Phi(3.24372) = 0.99941.
    units = ([Unit("A", "B", (1.0, 1.0), i) for i in range(30)]
             + [Unit("A", "B", (1.0, 0.0), 30 + i) for i in range(60)]
             + [Unit("A", "B", (0.0, 0.0), 90 + i) for i in range(10)])
    fit = fit_units(units, prior=0)
    g = gap(fit, "A", "B")
    assert g.elo == pytest.approx(400 * math.log10(0.6 / 0.4), abs=1e-6)
    assert g.stderr == pytest.approx(0.125 * 400 / math.log(10), abs=1e-6)
    assert g.los == pytest.approx(NormalDist().cdf(math.log(1.5) / 0.125), abs=1e-9)
    assert g.los > 0.999


def test_pairs_narrow_or_widen_the_interval_as_their_halves_correlate() -> None:
    # The same 100 games (60 won by A) as pairs: all split except 10 won 2-0 (halves
    # anticorrelated) against 30 won 2-0 and 10 lost 0-2 and the rest split. Counted as
    # independent games, both give one interval.
    anti = [Unit("A", "B", (1.0, 1.0), i) for i in range(10)] + \
        [Unit("A", "B", (1.0, 0.0), 10 + i) for i in range(40)]
    alike = [Unit("A", "B", (1.0, 1.0), i) for i in range(20)] + \
        [Unit("A", "B", (0.0, 0.0), 20 + i) for i in range(10)] + \
        [Unit("A", "B", (1.0, 0.0), 30 + i) for i in range(20)]
    games = [("A", "B", s) for u in anti for s in u.scores]
    se = {k: gap(f, "A", "B").stderr for k, f in (
        ("anti", fit_units(anti, prior=0)), ("alike", fit_units(alike, prior=0)),
        ("games", fit_ratings(games, prior=0)))}
    # p = 0.6, theta SE by hand: information 100 * 0.24 = 24;
    # anti: sum (s - 1.2)^2 = 10 * 0.64 + 40 * 0.04 = 8;  alike: 20 * 0.64 + 10 * 1.44
    # + 20 * 0.04 = 28;  games: 60 * 0.16 + 40 * 0.36 = 24 (= the information).
    per_nat = 400 / math.log(10)
    assert se["anti"] == pytest.approx(math.sqrt(8) / 24 * per_nat, rel=1e-9)
    assert se["alike"] == pytest.approx(math.sqrt(28) / 24 * per_nat, rel=1e-9)
    assert se["games"] == pytest.approx(math.sqrt(24) / 24 * per_nat, rel=1e-9)


def test_a_challenger_against_its_field() -> None:
    units = [Unit("C", o, s, i) for i, (o, s) in enumerate(
        [(o, s) for o in "XYZ" for s in [(1.0, 1.0)] * 4 + [(1.0, 0.0)] * 4 + [(0.0, 0.0)] * 2])]
    fit = fit_units(units)
    g = field_gap(fit, "C")
    # the field's mean rating is (sum of the others) / 3, and C sits 3/4 of its gap to it
    # above the overall mean: rating(C) - mean(X, Y, Z)
    others = [fit.get(n).rating for n in "XYZ"]
    assert g.elo == pytest.approx(fit.get("C").rating - sum(others) / 3, abs=1e-9)
    assert g.other == "field" and 0.5 < g.los < 1.0
    # symmetric field: each opponent's gap is the field gap, and no better known
    assert gap(fit, "C", "X").elo == pytest.approx(g.elo, abs=1e-6)
    assert g.stderr < gap(fit, "C", "X").stderr


# --- the SPRT ------------------------------------------------------------------------------


def penta_counts(ll: int, ld: int, wl: int, dd: int, wd: int, ww: int) -> dict[float, int]:
    return {0.0: ll, 0.25: ld, 0.5: wl + dd, 0.75: wd, 1.0: ww}


@pytest.mark.parametrize("stats, elo0, elo1, model, expected", [
    # fastchess app/tests/sprt_test.cpp (pentanomial cases), checked as it checks them: 1%
    ((365, 16618, 36029, 200, 16974, 390), 0, 2, "normalized", 2.25),
    ((127, 4883, 10311, 401, 5150, 104), -1.75, 0.25, "normalized", 3.01),
    ((0, 0, 0, 0, 0, 5550), 0, 5, "normalized", 111.82),
    ((223, 9863, 20279, 1000, 10037, 246), 0.5, 2.5, "logistic", -3.07),
    ((871, 26175, 55003, 980, 26678, 821), 0, 2, "logistic", -4.98),
])
def test_llr_is_fastchess_pentanomial(stats, elo0, elo1, model, expected) -> None:
    test = SprtTest(elo0, elo1, 0.05, 0.05, model)
    assert test.llr(penta_counts(*stats), paired=True) == pytest.approx(expected, rel=0.01)


@pytest.mark.parametrize("wins, losses, draws, elo0, elo1, model, expected", [
    (36433, 36027, 68692, 0, 2, "normalized", 0.92),
    (10871, 10650, 20431, -1.75, 0.25, "normalized", 2.30),
    (21404, 21184, 40708, 0.5, 2.5, "logistic", -1.57),
])
def test_llr_is_fastchess_trinomial_without_pairs(wins, losses, draws, elo0, elo1, model,
                                                  expected) -> None:
    test = SprtTest(elo0, elo1, 0.05, 0.05, model)
    counts = {0.0: losses, 0.5: draws, 1.0: wins}
    assert test.llr(counts, paired=False) == pytest.approx(expected, rel=0.01)


def test_sprt_bounds_and_decisions() -> None:
    test = SprtTest(0, 20, 0.05, 0.1)
    # Wald: lower log(beta / (1 - alpha)) = log(0.1 / 0.95), upper log(0.9 / 0.05)
    assert test.lower == pytest.approx(math.log(0.1 / 0.95))
    assert test.upper == pytest.approx(math.log(18))
    assert test.state({}, paired=True).result is None
    assert test.state({1.0: 400, 0.5: 100}, paired=True).result == "H1"
    assert test.state({0.0: 400, 0.5: 100}, paired=True).result == "H0"
    with pytest.raises(ValueError, match="among"):
        test.llr({0.3: 1}, paired=True)


@pytest.mark.parametrize("kwargs, message", [
    ({"elo0": 5, "elo1": 5}, "less than"), ({"elo0": 0, "elo1": 5, "alpha": 0}, "alpha"),
    ({"elo0": 0, "elo1": 5, "alpha": 0.6, "beta": 0.5}, "alpha \\+ beta"),
    ({"elo0": 0, "elo1": 5, "model": "bayesian"}, "model"),
])
def test_sprt_settings_are_checked(kwargs, message) -> None:
    with pytest.raises(ValueError, match=message):
        SprtTest(**kwargs)


# --- the LLR's fits against a high-precision solve ----------------------------------------
#
# fastchess (app/src/matchmaking/sprt/sprt.cpp, getLLR over the pentanomial counts) merges
# WL and DD into one class, regularizes an empty class to 1e-3, and for each hypothesis
# fits the distribution p_i = q_i / (1 + theta phi_i) to the regularized frequencies q:
# "logistic", phi_i = a_i - s with s = 1 / (1 + 10**(-elo / 400)), theta solving
# sum q_i phi_i / (1 + theta phi_i) = 0 (Van den Bergh, Proposition 1.1); "normalized",
# phi_i = a_i - 1/2 - t sigma (1 + ((a_i - mu) / sigma)**2) / 2 with mu and sigma those of
# the fit itself and t = sqrt(2) elo / (800 / ln 10), iterated from the uniform
# distribution to its fixed point (section 4.1). The LLR is the total count times
# sum q_i (log p1_i - log p0_i). The same equations are solved here in decimal
# arithmetic to 30 digits, by bisection between the poles, which never evaluates one.
# fastchess itself stops its solve at 1e-3 in theta (1e-4 in the fixed point), so its
# own figures are these to about 1e-3 at worst.

_SUPPORT = tuple(Decimal(a) for a in ("0", "0.25", "0.5", "0.75", "1"))


def _decimal_root(q: list[Decimal], phi: list[Decimal]) -> Decimal:
    low, high = -1 / max(phi), -1 / min(phi)
    weights = [a * b for a, b in zip(q, phi, strict=True)]
    while high - low > Decimal("1e-15"):
        mid = (low + high) / 2
        if sum(w / (1 + mid * x) for w, x in zip(weights, phi, strict=True)) > 0:
            low = mid
        else:
            high = mid
    return (low + high) / 2


def _decimal_fit(q: list[Decimal], elo: int, model: str) -> list[Decimal]:
    if model == "logistic":
        s = 1 / (1 + Decimal(10) ** (Decimal(-elo) / 400))
        phi = [a - s for a in _SUPPORT]
        theta = _decimal_root(q, phi)
        return [qi / (1 + theta * x) for qi, x in zip(q, phi, strict=True)]
    t = Decimal(2).sqrt() * Decimal(10).ln() / 800 * elo
    p = [Decimal(1) / 5] * 5
    for _ in range(200):
        mu = sum(a * x for a, x in zip(_SUPPORT, p, strict=True))
        sigma = sum(x * (a - mu) ** 2 for a, x in zip(_SUPPORT, p, strict=True)).sqrt()
        phi = [a - Decimal("0.5") - t * sigma / 2 * (1 + ((a - mu) / sigma) ** 2)
               for a in _SUPPORT]
        theta = _decimal_root(q, phi)
        new = [qi / (1 + theta * x) for qi, x in zip(q, phi, strict=True)]
        moved = max(abs(a - b) for a, b in zip(new, p, strict=True))
        p = new
        if moved < Decimal("1e-14"):
            return p
    raise AssertionError("the fixed point did not settle")


def decimal_llrs(table: tuple[int, ...], pairs: list[tuple[int, int]],
                 model: str) -> list[float]:
    """fastchess's LLR for pentanomial counts (LL, LD, WL + DD, WD, WW), each (elo0, elo1)."""
    with localcontext() as context:
        context.prec = 30
        regular = [Decimal(n) if n else Decimal("0.001") for n in table]
        total = sum(regular)
        q = [n / total for n in regular]
        loglik = {elo: total * sum(qi * p.ln() for qi, p in
                                   zip(q, _decimal_fit(q, elo, model), strict=True))
                  for elo in {e for pair in pairs for e in pair}}
        return [float(loglik[e1] - loglik[e0]) for e0, e1 in pairs]


def pole_tables() -> list[tuple[int, ...]]:
    """Every table with classes 0..15 on which, for a hypothesis of 0 Elo, the Newton
    step from theta = 0 lands exactly on a pole. With s = 1/2, phi = -1/2 .. 1/2 and the
    step is sum q phi / sum q phi**2: it is 2, the pole of LL (1 + 2 (-1/2) = 0), where
    WD = 8 LL + 3 LD, and -2, WW's pole, where LD = 8 WW + 3 WD. In floating point it lands
    on the pole or an ulp either side. (An empty class counts 1e-3, off these lines.)"""
    tables = []
    for extreme, near, far in ((1, 1, 11), (1, 2, 14)):
        for middle in range(16):
            for other in range(16):
                tables.append((extreme, near, middle, far, other))
                tables.append((other, far, middle, near, extreme))
    return tables


def sampled_tables(stride: int) -> list[tuple[int, ...]]:
    """Every stride-th of the 16**5 - 1 tables with classes 0..15, in counting order."""
    return [tuple((i >> (4 * k)) & 15 for k in range(5)) for i in range(1, 16**5, stride)]


AT_ZERO = [(0, 20), (-20, 0)]
ELSEWHERE = [*AT_ZERO, (10, 30), (-30, -5)]


@pytest.mark.parametrize("model, tables, pairs", [
    ("logistic", pole_tables(), AT_ZERO),
    ("logistic", sampled_tables(1999), ELSEWHERE),
    ("normalized", pole_tables()[::8], AT_ZERO),
    ("normalized", sampled_tables(7919), ELSEWHERE),
], ids=["logistic-poles", "logistic-sample", "normalized-poles", "normalized-sample"])
def test_the_llr_is_fastchess_equation_solved_to_high_precision(model, tables, pairs) -> None:
    """The pole tables are the ones where the solver stopped at a pole and gave an LLR
    of about +-33 (126 of them for the logistic model); the sample covers the rest."""
    worst = 0.0
    for table in tables:
        counts = penta_counts(table[0], table[1], table[2], 0, table[3], table[4])
        expected = decimal_llrs(table, pairs, model)
        for (elo0, elo1), exact in zip(pairs, expected, strict=True):
            llr = SprtTest(elo0, elo1, model=model).llr(counts, paired=True)
            worst = max(worst, abs(llr - exact))
            assert llr == pytest.approx(exact, abs=1e-9), (table, elo0, elo1)
    assert worst < 1e-9


@pytest.mark.parametrize("elo", [0.0, 20.0, -20.0, 10.0])
def test_a_fit_is_a_distribution_never_a_pole(elo) -> None:
    """The fitted distribution of every pole table (and of the sample): positive, adding
    to 1, with the hypothesis' mean. At a pole one probability is about 1e14."""
    s = 1 / (1 + 10 ** (-elo / 400))
    for table in pole_tables() + sampled_tables(4999):
        regular = [float(n) if n else 1e-3 for n in table]
        probs = [n / sum(regular) for n in regular]
        fit = _mle_mean(_PAIR_SCORES, probs, s)
        assert all(0 < p < 1 for p in fit), (table, fit)
        assert sum(fit) == pytest.approx(1.0, abs=1e-12)
        assert sum(a * p for a, p in zip(_PAIR_SCORES, fit, strict=True)) == pytest.approx(s, abs=1e-12)


@pytest.mark.parametrize("elo0, elo1, fastchess", [
    # fastchess's getLLR on LL 1, LD 1, WL + DD 0, WD 11, WW 5, as its own solve (to 1e-3
    # in theta) gives them: 0.82 and 0.89 as it prints them
    (0, 20, 0.8215652), (-20, 0, 0.8914037),
])
def test_the_llr_at_a_pole_from_the_issue(elo0, elo1, fastchess) -> None:
    counts = penta_counts(1, 1, 0, 0, 11, 5)  # 18 pairs, 75% of the points
    (exact,) = decimal_llrs((1, 1, 0, 11, 5), [(elo0, elo1)], "logistic")
    state = SprtTest(elo0, elo1).state(counts, paired=True)
    assert state.llr == pytest.approx(exact, abs=1e-12)
    assert state.llr == pytest.approx(fastchess, abs=1e-6)
    assert state.result is None and state.units == 18
