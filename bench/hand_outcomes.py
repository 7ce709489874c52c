"""How hands end when the heuristic bot plays itself: the frequencies behind pimc's game
value (sample_bots/pimc/game_value.py, DEALER_SIDE and OTHER_SIDE).

    python bench/hand_outcomes.py [--games N] [--preset standard]

Whole games of four heuristic seats, in this process; for each hand, which side scored
(the dealer's or the other), how (made, march, a euchre of the makers, thrown in) and how
many points, as a share of all hands.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

if __package__ in (None, ""):  # run as a script from a checkout: make `arena` importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from arena.core import PRESETS, GameState, seat_view
from arena.core.game import HandEnded
from sample_bots.heuristic.strategy import choose


def outcomes(preset: str, games: int) -> tuple[int, Counter[tuple[str, str, int]]]:
    """Hands played, and a count by (side, how, points)."""
    counts: Counter[tuple[str, str, int]] = Counter()
    hands = 0
    for seed in range(1, games + 1):
        game = GameState(PRESETS[preset], seed)
        while not game.over:
            dealer = game.hand.dealer
            for event in game.apply(choose(seat_view(game, game.turn)), game.turn):
                if isinstance(event, HandEnded):
                    hands += 1
                    score = event.result.score
                    side = ("-" if score.team is None
                            else "dealer's side" if score.team == dealer % 2 else "other side")
                    counts[side, score.outcome.value, score.points] += 1
    return hands, counts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1499)
    parser.add_argument("--preset", default="standard", choices=sorted(PRESETS))
    args = parser.parse_args()
    hands, counts = outcomes(args.preset, args.games)
    print(f"{args.preset}: {hands:,} hands of {args.games:,} games, heuristic on every seat")
    for (side, how, points), n in sorted(counts.items()):
        print(f"  {side:<14} {how:<10} {points} point{'s' if points != 1 else ' '}  {n / hands:7.2%}")


if __name__ == "__main__":
    main()
