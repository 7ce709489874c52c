"""How well the ratings keep their promises, on ladders drawn from known strengths.

    python bench/ratings.py [--ladders 4000] [--pairs 50] [--runs 1000] [--seed 1]

Prints, for duplicate pairs whose two halves are correlated -0.4, 0 and +0.3 (ladder.rating.simulate):

- coverage: the share of 95% intervals of the gaps (every two bots of a 4-bot round
  robin, --pairs pairs per pairing; then a gauntlet's challenger against each opponent
  and its field) that hold the true gap, for the pair model the
  standings use and for the same games counted as independent, with the standard error
  the simulation would have if the intervals were independent (the six gaps of one
  ladder are not, so the true one is somewhat larger). The pair model should be within
  93-97% at every correlation;
- the SPRT (logistic, elo0 = 0, elo1 = 40, alpha = beta = 0.05; --model normalized for
  fastchess's default model, at the normalized Elo of the same pairings): how often it
  accepts H1 when the truth is elo0 (should be about alpha or less) and H0 when it is
  elo1 (about beta or less), and the mean number of pairs it took to decide, at elo0,
  elo1 and halfway, where a test takes longest.

Everything is seeded: the same arguments print the same figures.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path

if __package__ in (None, ""):  # run as a script from a checkout: bench/ladder.py is not `ladder`
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ladder.rating.simulate import elo_of_normalized, gap_coverage, sprt_runs
from ladder.rating.sprt import SprtTest

CORRELATIONS = (-0.4, 0.0, 0.3)
STRENGTHS = {"a": 0.0, "b": 40.0, "c": 80.0, "d": 140.0}
GAUNTLET = {"c": 50.0, "x": 0.0, "y": 60.0, "z": 120.0}


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--ladders", type=int, default=4000, help="ladders per correlation")
    p.add_argument("--pairs", type=int, default=50, help="pairs per pairing in a ladder")
    p.add_argument("--runs", type=int, default=1000, help="SPRT runs per case")
    p.add_argument("--elo0", type=float, default=0.0)
    p.add_argument("--elo1", type=float, default=40.0)
    p.add_argument("--alpha", type=float, default=0.05)
    p.add_argument("--beta", type=float, default=0.05)
    p.add_argument("--model", choices=("logistic", "normalized"), default="logistic")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--no-sprt", action="store_true", help="coverage only")
    args = p.parse_args()

    started = time.monotonic()
    print(f"coverage of 95% intervals of the gaps: 4-bot round robin {STRENGTHS}, "
          f"{args.pairs} pairs per pairing, {args.ladders} ladders per correlation")
    print(f"{'rho':>6} {'pair model':>14} {'games as independent':>22} {'intervals':>10}")
    for rho in CORRELATIONS:
        paired = gap_coverage(STRENGTHS, rho=rho, pairs=args.pairs, ladders=args.ladders,
                              seed=args.seed)
        alone = gap_coverage(STRENGTHS, rho=rho, pairs=args.pairs, ladders=args.ladders,
                             seed=args.seed, paired=False)
        se = math.sqrt(0.95 * 0.05 / paired.intervals)
        print(f"{rho:>6.1f} {100 * paired.rate:>9.2f}% ±{100 * se:.2f} "
              f"{100 * alone.rate:>21.2f}% {paired.intervals:>10}"
              + (f"  ({paired.failed} fits failed)" if paired.failed else ""))

    print(f"\nthe same for gauntlets {GAUNTLET}, challenger c: its gap to each opponent "
          "and to the mean of its field")
    for rho in CORRELATIONS:
        paired = gap_coverage(GAUNTLET, rho=rho, pairs=args.pairs, ladders=args.ladders,
                              seed=args.seed, challenger="c")
        alone = gap_coverage(GAUNTLET, rho=rho, pairs=args.pairs, ladders=args.ladders,
                             seed=args.seed, paired=False, challenger="c")
        se = math.sqrt(0.95 * 0.05 / paired.intervals)
        print(f"{rho:>6.1f} {100 * paired.rate:>9.2f}% ±{100 * se:.2f} "
              f"{100 * alone.rate:>21.2f}% {paired.intervals:>10}")

    if not args.no_sprt:
        test = SprtTest(args.elo0, args.elo1, args.alpha, args.beta, args.model)
        print(f"\nSPRT {args.model}: H0 elo <= {args.elo0:g}, H1 elo >= {args.elo1:g}, "
              f"alpha {args.alpha:g}, beta {args.beta:g}; bounds ({test.lower:.3f}, "
              f"{test.upper:.3f}); {args.runs} runs per case")
        print(f"{'rho':>6} {'P(H1 | elo0)':>14} {'P(H0 | elo1)':>14} "
              f"{'pairs@elo0':>11} {'pairs@elo1':>11} {'pairs@mid':>10}")
        for rho in CORRELATIONS:
            def per_game(elo: float, rho: float = rho) -> float:
                """The logistic Elo to simulate for a hypothesis' Elo under the model."""
                return elo if args.model == "logistic" else elo_of_normalized(elo, rho)

            at0 = sprt_runs(test, per_game(args.elo0), rho=rho, runs=args.runs,
                            seed=args.seed)
            at1 = sprt_runs(test, per_game(args.elo1), rho=rho, runs=args.runs,
                            seed=args.seed + 1)
            mid = sprt_runs(test, per_game((args.elo0 + args.elo1) / 2), rho=rho,
                            runs=max(args.runs // 4, 1), seed=args.seed + 2)
            se_a = math.sqrt(args.alpha * (1 - args.alpha) / args.runs)
            se_b = math.sqrt(args.beta * (1 - args.beta) / args.runs)
            print(f"{rho:>6.1f} {100 * at0.h1 / at0.runs:>8.2f}% ±{100 * se_a:.2f} "
                  f"{100 * at1.h0 / at1.runs:>7.2f}% ±{100 * se_b:.2f} "
                  f"{at0.mean_pairs:>11.0f} {at1.mean_pairs:>11.0f} {mid.mean_pairs:>10.0f}")
    print(f"\n{time.monotonic() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
