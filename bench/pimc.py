"""The PIMC sample bot's solver speed and its decisions at its default budget.

    python bench/pimc.py [--deals N] [--games N] [--budget SECONDS]

1. Solver: full hands (five tricks, four seats) solved exactly and by one null-window
   search ("do the makers take three?"): nodes per second, nodes and milliseconds per
   hand. Then three-trick endgames solved both by the solver and by exhaustive minimax
   over the arena's own engine (every legal card, deep-copied states): the same values,
   and the solver's speed as a ratio to that baseline, measured in the same run.
2. Decisions: games of pimc (seats 0 and 2) against the heuristic bot, in-process, at the
   budget of sample_bots/pimc/bot.toml (or --budget): deals sampled per decision and
   mean and worst decision time, by phase, over the decisions with a choice (a single
   legal action is answered at once and counted apart). The worst time over the budget
   is the last deal begun before the deadline, plus the machine's load.
"""

from __future__ import annotations

import argparse
import copy
import os
import random
import statistics
import sys
import time
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from arena.core import PRESETS, GameState, HandState, Phase, seat_view  # noqa: E402
from arena.core.cards import build_deck  # noqa: E402
from sample_bots.heuristic.strategy import choose as heuristic  # noqa: E402
from sample_bots.pimc import solver as S  # noqa: E402
from sample_bots.pimc import strategy  # noqa: E402


def manifest_budget() -> float:
    data = tomllib.loads((ROOT / "sample_bots/pimc/bot.toml").read_text())
    return float(data["env"]["PIMC_BUDGET"])


def bench_solver(deals: int) -> None:
    rng = random.Random(1)
    deck = list(build_deck(24))
    positions = []
    for i in range(deals):
        rng.shuffle(deck)
        positions.append(([S.mask_of(deck[j * 5:(j + 1) * 5]) for j in range(4)], i % 4, i % 4))
    for label, run in (("exact", lambda s, h, lead: s.exact(h, lead)),
                       ("at least 3", lambda s, h, lead: s.at_least(h, lead, 3))):
        nodes = 0
        t0 = time.perf_counter()
        for hands, trump, leader in positions:
            solve = S.Solver(trump, 0, (0, 1, 2, 3))
            run(solve, hands, leader)
            nodes += solve.nodes
        dt = time.perf_counter() - t0
        print(f"solver, full hands ({label:10}): {nodes / dt:9,.0f} nodes/s   "
              f"{nodes / deals:6.0f} nodes/hand   {1000 * dt / deals:6.2f} ms/hand   ({deals} hands)")


def endgames(n: int) -> list[HandState]:
    rng = random.Random(2)
    out: list[HandState] = []
    rules = PRESETS["standard"]
    while len(out) < n:
        deck = list(build_deck(24))
        rng.shuffle(deck)
        hand = HandState.deal(rules, rng.randrange(4), deck)
        while not hand.over and (hand.phase is not Phase.PLAY or len(hand.tricks) < 2):
            hand.apply(rng.choice(hand.legal_actions()))
        if not hand.over and hand.sitting_out == [False] * 4:
            out.append(hand)
    return out


def engine_minimax(hand: HandState) -> int:
    assert hand.maker is not None
    mt = hand.maker % 2
    if hand.over:
        return hand.tricks_won[mt]
    values = []
    for action in hand.legal_actions():
        child = copy.deepcopy(hand)
        child.apply(action)
        values.append(engine_minimax(child))
    return max(values) if hand.turn % 2 == mt else min(values)


def bench_baseline(n: int) -> None:
    hands = endgames(n)
    t0 = time.perf_counter()
    expected = [engine_minimax(h) - h.tricks_won[h.maker % 2] for h in hands]  # type: ignore[operator]
    t_engine = time.perf_counter() - t0
    t0 = time.perf_counter()
    got = []
    for h in hands:
        solve = S.Solver(h.trump, h.maker % 2, (0, 1, 2, 3))  # type: ignore[arg-type, operator]
        got.append(solve.exact([S.mask_of(c) for c in h.hands], h.turn))
    t_solver = time.perf_counter() - t0
    assert got == expected, "solver and engine minimax disagree"
    print(f"three-trick endgames: solver {1000 * t_solver / n:.3f} ms, engine minimax "
          f"{1000 * t_engine / n:.2f} ms each; ratio {t_engine / t_solver:.0f}x "
          f"(same values on all {n})")


def bench_decisions(games: int, budget: float) -> None:
    rng = random.Random(3)
    by_phase: dict[str, list[tuple[float, int]]] = {}
    instant = 0
    wins = 0
    for g in range(games):
        game = GameState(PRESETS["standard"], 1000 + g, first_dealer=g % 4)
        while not game.over:
            seat = game.turn
            view = seat_view(game, seat)
            if seat % 2:
                action = heuristic(view)
            elif len(view.legal_actions) == 1:
                instant += 1
                action = view.legal_actions[0]
            else:
                stats = strategy.Stats()
                t0 = time.perf_counter()
                action = strategy.decide(view, rng, budget, stats=stats)
                dt = time.perf_counter() - t0
                phase = "play" if view.phase is Phase.PLAY else (
                    "discard" if view.phase is Phase.DEALER_DISCARD else "bid/alone")
                by_phase.setdefault(phase, []).append((dt, stats.samples))
            game.apply(action, seat)
        wins += game.winner == 0
    every = [x for v in by_phase.values() for x in v]
    print(f"decisions at a budget of {1000 * budget:.0f} ms ({games} games against heuristic, "
          f"pimc won {wins}; {instant} single-action decisions answered at once):")
    for phase, rows in [*sorted(by_phase.items()), ("all", every)]:
        times = [r[0] for r in rows]
        samples = [r[1] for r in rows]
        print(f"  {phase:9} {len(rows):5} decisions: deals/decision mean {statistics.mean(samples):6.1f}"
              f" median {statistics.median(samples):5.0f} min {min(samples):4d};"
              f"  time mean {1000 * statistics.mean(times):6.1f} ms, worst {1000 * max(times):7.1f} ms"
              f" ({max(times) / budget:.2f}x budget)")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--deals", type=int, default=100, help="full hands for the solver figures")
    p.add_argument("--games", type=int, default=4, help="games for the decision figures")
    p.add_argument("--budget", type=float, default=None, help="seconds per decision "
                   "(default: the manifest's PIMC_BUDGET)")
    args = p.parse_args()
    budget = args.budget if args.budget is not None else manifest_budget()
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} cores, load average "
          f"{os.getloadavg()[0]:.1f}")
    bench_solver(args.deals)
    bench_baseline(8)
    bench_decisions(args.games, budget)


if __name__ == "__main__":
    main()
