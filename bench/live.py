"""What publishing a game for watchers costs the game loop, beside what the game itself costs.

    python bench/live.py [--games N]

Plays random games in this process, once with a live file per game (arena.play.live_files:
the header when the game starts, one line per action, the end line and the file's removal
at its end, into a temporary folder that is removed afterwards) and once without, and
prints the publishing's cost per action next to the engine's own cost per action
(GameState.apply() and the choice of a random legal action): the ratio is what
watching costs a game. Both are timed in wall-clock time, alternating game by game, so
they meet the same machine. A game against real bots also spends a gRPC round trip
(hundreds of microseconds, bench/decisions.py) on every decision, so against a ladder's
games the share is smaller still.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
from pathlib import Path
from random import Random

if __package__ in (None, ""):  # run as a script from a checkout: make `arena` importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from arena.core.game import GameState
from arena.core.rules import preset
from arena.play.live_files import LiveFolder
from arena.records.gamelog import GameEnd, GameLog, SeatBot
from arena.settings.spec import GameSpec


def one_game(seed: int, folder: LiveFolder | None) -> tuple[float, float, int]:
    """(seconds in the engine, seconds publishing, actions) of one random game."""
    rules = preset("standard")
    rng = Random(seed)
    engine = publish = 0.0
    clock = time.perf_counter
    t = clock()
    game = GameState(rules, seed, 0)
    engine += clock() - t
    log = GameLog(f"bench~{seed}", rules, seed, 0,
                  tuple(SeatBot(s, f"bot{s % 2}", "1") for s in range(4)))
    observer = None
    if folder is not None:
        t = clock()
        observer = folder(GameSpec(log.game_id, rules, seed, 0, ()))
        observer.started(log)
        observer.happened((game.dealt,), False)
        publish += clock() - t
    actions = 0
    while not game.over:
        t = clock()
        events = game.apply(rng.choice(game.legal_actions()), game.turn)
        t2 = clock()
        engine += t2 - t
        actions += 1
        if observer is not None:
            observer.happened(events, False)
            publish += clock() - t2
    if observer is not None:
        log.end, log.winning_team = GameEnd.COMPLETED, game.winner
        t = clock()
        observer.ended(log)
        publish += clock() - t
    return engine, publish, actions


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=2000)
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="euchre-live-bench-"))
    try:
        folder = LiveFolder(tmp / "live")
        engine_without = publish = 0.0
        actions = 0
        for i in range(args.games):
            _, p, n = one_game(i, folder)
            publish += p
            actions += n
            e, _, _ = one_game(i, None)
            engine_without += e
        left = list((tmp / "live").iterdir()) if (tmp / "live").exists() else []
    finally:
        shutil.rmtree(tmp)
    us = 1e6 / actions
    print(f"{args.games} games, {actions} actions")
    print(f"engine (apply and a random legal choice): {engine_without * us:6.2f} us per action")
    print(f"publishing to live files:                 {publish * us:6.2f} us per action "
          f"(open, header, one write per action, end line, removal)")
    print(f"publishing / engine:                      {publish / engine_without:6.2f}x")
    print(f"files left behind: {len(left)}")


if __name__ == "__main__":
    main()
