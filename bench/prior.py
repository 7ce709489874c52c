"""What the rating fit's prior does to two bots with the same results and unequal games.

    python bench/prior.py [--ladders 2000] [--prior 2] [--seed 1]

A gauntlet's challenger "c" meets a twin (a copy of itself) and three other opponents,
the same number of pairs each, so the twin has a quarter of c's games. The prior's
virtual draws against the pool's mean pull a bot with n games toward the mean by about
prior / (n + prior) of its distance from it, so the twin, with fewer games, ends nearer
the mean than c. Prints:

- exact results (ladder.rating.simulate.twin_gauntlet): c and the twin split every pair; c wins
  two thirds of its pairs 2-0 against each of the others and splits the rest. The
  fitted gap c - twin with its 95% margin, c's distance from the mean and that rule's
  estimate of the gap, at 6 to 96 pairs per pairing;
- drawn at random (ladder.rating.simulate.twin_gaps): c and the twin equally strong, 200 Elo
  above the others, halves of a pair independent. The mean fitted gap c - twin over
  --ladders gauntlets, which is 0 in truth, with the prior and with none (whose fit
  fails where some pairing won or lost every game: those ladders are left out).

Everything is seeded: the same arguments print the same figures.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

if __package__ in (None, ""):  # run as a script from a checkout: bench/ladder.py is not `ladder`
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ladder.rating.ratings import DEFAULT_PRIOR, fit_tallies, gap
from ladder.rating.simulate import twin_gaps, twin_gauntlet

OPPONENTS = 3  # besides the twin
ABOVE = 200.0
PAIRS = (6, 12, 24, 48, 96)


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--ladders", type=int, default=2000, help="gauntlets per case")
    p.add_argument("--prior", type=float, default=DEFAULT_PRIOR)
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args()
    started = time.monotonic()
    n = args.prior

    print(f"exact results, prior {n:g}: c and its twin split every pair; c wins 2/3 of "
          f"its pairs 2-0 against {OPPONENTS} others")
    print(f"{'pairs':>6} {'twin games':>11} {'c games':>8} {'c - twin':>10} "
          f"{'c - mean':>9} {'rule':>6}")
    for pairs in PAIRS:
        fit = fit_tallies(twin_gauntlet(pairs, 2 * pairs // 3, OPPONENTS), prior=n)
        g = gap(fit, "c", "twin")
        twin, c = fit.get("twin").games, fit.get("c").games
        distance = fit.get("c").rating - fit.anchor
        print(f"{pairs:>6} {twin:>11} {c:>8} {g.text():>10} {distance:>+9.0f} "
              f"{distance * n / (twin + n):>6.1f}")

    print(f"\ndrawn at random: c and its twin equally strong, {ABOVE:g} Elo above "
          f"{OPPONENTS} others;\nthe mean fitted gap c - twin (0 in truth) over "
          f"{args.ladders} gauntlets")
    print(f"{'pairs':>6} {f'prior {n:g}':>16} {'prior 0':>16} {'left out':>9}")
    for pairs in (6, 24, 96):
        with_prior = twin_gaps(above=ABOVE, opponents=OPPONENTS, pairs=pairs,
                               ladders=args.ladders, seed=args.seed, prior=n)
        without = twin_gaps(above=ABOVE, opponents=OPPONENTS, pairs=pairs,
                            ladders=args.ladders, seed=args.seed, prior=0.0)
        print(f"{pairs:>6} {with_prior.mean:>+9.1f} ±{with_prior.stderr:<4.1f} "
              f"{without.mean:>+9.1f} ±{without.stderr:<4.1f} {without.failed:>9}")
    print(f"\n{time.monotonic() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
