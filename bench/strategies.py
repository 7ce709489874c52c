"""What a sample bot's strategy costs per decision, against the rules engine's own cost.

    python bench/strategies.py [--seconds N] [--presets standard,british]

For each preset it plays whole games in which every seat is the heuristic bot's
`choose(view)`; the same games are then replayed with the engine alone (the seat view, the
legal actions and apply, choosing the action the strategy chose), so the difference is the
strategy's thinking. Both run in this process and are timed in its CPU seconds, in
alternating slices, so a busy machine falls on both. The line `ratio strategy/engine: X.X`
is strategy time per decision / engine time per decision; the target is that the heuristic
stays well under a millisecond a decision, which is also printed.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from random import Random

if __package__ in (None, ""):  # run as a script from a checkout: make `arena` importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from arena.core import PRESETS, GameState, RuleSet, seat_view
from arena.core.actions import Action
from sample_bots.heuristic.strategy import choose


def with_strategy(rules: RuleSet, seed: int) -> list[Action]:
    """One game where every seat asks the strategy: the actions, in order."""
    game = GameState(rules, seed)
    actions = []
    while not game.over:
        action = choose(seat_view(game, game.turn))
        game.apply(action, game.turn)
        actions.append(action)
    return actions


def engine_only(rules: RuleSet, seed: int, actions: list[Action]) -> None:
    """The same game with the engine's work alone: views built, actions judged and applied."""
    game = GameState(rules, seed)
    for action in actions:
        seat = game.turn
        seat_view(game, seat)
        game.apply(action, seat)


def run(names: list[str], seconds: float, seed: int) -> list[dict]:
    clock = time.process_time
    rows = []
    for name in names:
        rules = PRESETS[name]
        rng = Random(seed)
        total_s = engine_s = 0.0
        decisions = 0
        while total_s < seconds:
            game_seed = rng.getrandbits(63)
            t0 = clock()
            actions = with_strategy(rules, game_seed)
            t1 = clock()
            engine_only(rules, game_seed, actions)
            t2 = clock()
            total_s += t1 - t0
            engine_s += t2 - t1
            decisions += len(actions)
        strategy_s = max(total_s - engine_s, 0.0)
        rows.append({
            "preset": name,
            "decisions": decisions,
            "engine_us": 1e6 * engine_s / decisions,
            "strategy_us": 1e6 * strategy_s / decisions,
            "ratio": strategy_s / engine_s,
        })
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="CPU seconds per preset")
    parser.add_argument("--presets", default="standard,british,canadian")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    names = [n.strip() for n in args.presets.split(",") if n.strip()]
    unknown = [n for n in names if n not in PRESETS]
    if unknown:
        parser.error(f"unknown preset(s) {', '.join(unknown)}; known: {', '.join(PRESETS)}")
    for row in run(names, args.seconds, args.seed):
        print(
            f"{row['preset']:<10} {row['decisions']:>8} decisions  "
            f"engine {row['engine_us']:6.1f} µs  heuristic {row['strategy_us']:6.1f} µs"
            f"  ratio strategy/engine: {row['ratio']:.1f}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
