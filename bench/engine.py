"""Rules-engine throughput: random legal games through the public API, in one process.

    python bench/engine.py [--seconds N] [--presets standard,british] [--profile]

For each preset it plays whole games with GameState.legal_actions() / apply() and a
random.choice per decision (no shortcuts into the engine), and prints hands/s, games/s and
decisions/s. In the same run it measures a baseline: the same number of random.choice
calls, and one seeded shuffle of the deck per hand, with no engine at all. Engine and
baseline alternate in quarter-second slices and are timed in this process's CPU seconds,
so both meet the same machine; the ratio engine time / baseline time changes little from
a busy machine to an idle one, so compare ratios (lower is faster) when the absolute
figures are noisy.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from random import Random

if __package__ in (None, ""):  # run as a script from a checkout: make `arena` importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from arena.core import PRESETS, GameState, RuleSet
from arena.core.cards import build_deck


def play_games(
    rules: RuleSet, seconds: float, seed: int, rng: Random | None = None
) -> tuple[int, int, int]:
    """Plays random games until `seconds` of CPU time have passed: (games, hands, decisions)."""
    rng = rng or Random(seed)
    choice = rng.choice
    games = hands = decisions = 0
    clock = time.process_time
    deadline = clock() + seconds
    while True:
        game = GameState(rules, rng.getrandbits(63))
        legal_actions, apply = game.legal_actions, game.apply
        while not game.over:
            apply(choice(legal_actions()))
            decisions += 1
        hands += len(game.results)
        games += 1
        if clock() >= deadline:
            return games, hands, decisions


def baseline(rules: RuleSet, hands: int, decisions: int, rng: Random) -> None:
    """The random work alone: `decisions` choices and `hands` seeded shuffles of the deck."""
    choice = rng.choice
    options = list(range(4))
    deck = list(build_deck(rules.deck))
    for _ in range(decisions):
        choice(options)
    for _ in range(hands):
        Random(rng.getrandbits(63) << 32).shuffle(deck)


def run(names: list[str], seconds: float, seed: int, slice_s: float = 0.25) -> list[dict]:
    """Engine and baseline alternate in short slices, so both meet the same machine load;
    times are this process's CPU time, which other processes disturb far less than wall
    time."""
    rows = []
    clock = time.process_time
    for name in names:
        rules = PRESETS[name]
        rng, base_rng = Random(seed), Random(seed + 1)
        games = hands = decisions = 0
        engine_s = base_s = 0.0
        wall = time.perf_counter()
        while engine_s < seconds:
            t0 = clock()
            g, h, d = play_games(rules, min(slice_s, seconds - engine_s), seed, rng)
            t1 = clock()
            baseline(rules, h, d, base_rng)
            t2 = clock()
            games, hands, decisions = games + g, hands + h, decisions + d
            engine_s += t1 - t0
            base_s += t2 - t1
        rows.append(
            {
                "preset": name,
                "games": games,
                "hands": hands,
                "decisions": decisions,
                "seconds": engine_s,
                "wall": time.perf_counter() - wall,
                "hands/s": hands / engine_s,
                "games/s": games / engine_s,
                "decisions/s": decisions / engine_s,
                "baseline s": base_s,
                "ratio": engine_s / base_s,
            }
        )
    return rows


def print_table(rows: list[dict]) -> None:
    head = (
        f"{'preset':<15} {'hands/s':>9} {'games/s':>8} {'decisions/s':>12} "
        f"{'hands':>8} {'engine s':>9} {'baseline s':>11} {'ratio':>6} {'wall s':>7}"
    )
    print(head)
    print("-" * len(head))
    for r in rows:
        print(
            f"{r['preset']:<15} {r['hands/s']:>9,.0f} {r['games/s']:>8,.0f} "
            f"{r['decisions/s']:>12,.0f} {r['hands']:>8,} {r['seconds']:>9.2f} "
            f"{r['baseline s']:>11.3f} {r['ratio']:>6.2f} {r['wall']:>7.2f}"
        )
    print(
        "rates and engine/baseline s are CPU seconds of this process; ratio = engine / "
        "baseline (the same random.choice calls and one seeded shuffle per hand, no engine): "
        "lower is faster"
    )
    by_name = {r["preset"]: r for r in rows}
    if "six-player" in by_name and "british" in by_name:
        # The six-seat engine against the four-seat game it is built on (the British
        # bidding and lone play): decisions per CPU second, target at least 0.8.
        ratio = by_name["six-player"]["decisions/s"] / by_name["british"]["decisions/s"]
        print(f"six-seat/four-seat decisions/s (six-player / british): {ratio:.2f}")


def profile(name: str, seconds: float, seed: int, top: int) -> None:
    import cProfile
    import pstats

    profiler = cProfile.Profile()
    profiler.enable()
    play_games(PRESETS[name], seconds, seed)
    profiler.disable()
    pstats.Stats(profiler).sort_stats("tottime").print_stats(top)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--seconds", type=float, default=3.0, help="engine CPU seconds per preset (default 3)"
    )
    parser.add_argument(
        "--presets", default=",".join(PRESETS), help="comma-separated (default: all)"
    )
    parser.add_argument("--seed", type=int, default=1, help="seed of the game seeds and choices")
    parser.add_argument(
        "--profile", action="store_true", help="cProfile the first preset instead"
    )
    parser.add_argument("--top", type=int, default=25, help="rows of the profile to print")
    args = parser.parse_args(argv)
    names = [n.strip() for n in args.presets.split(",") if n.strip()]
    unknown = [n for n in names if n not in PRESETS]
    if unknown or not names:
        parser.error(f"unknown preset(s) {unknown}: expected some of {', '.join(PRESETS)}")
    if args.seconds <= 0:
        parser.error("--seconds must be positive")
    print(f"Python {sys.version.split()[0]}, {args.seconds:g} s per preset, seed {args.seed}")
    if args.profile:
        profile(names[0], args.seconds, args.seed, args.top)
        return 0
    print_table(run(names, args.seconds, args.seed))
    return 0


if __name__ == "__main__":
    sys.exit(main())
