"""The heuristic bot: the club rules of thumb of strategy.py (count tricks to bid, void a
suit on the discard, lead trump as makers, never trump the partner's winner)."""

import importlib

from arena.sdk import Action, Bot, Game, SeatView, run

try:  # imported as a package (tests, tools), or run where the arena is installed
    from sample_bots.heuristic import strategy
except ImportError:  # started as `python bot.py` in this folder, package not importable
    # The same module, found in the script's folder; typed as the package's module.
    strategy = importlib.import_module("strategy")


class HeuristicBot(Bot):
    name = "heuristic"
    version = "1.0"
    author = "Euchre Arena"

    def decide(self, view: SeatView, game: Game | None = None) -> Action:
        # The view alone decides; the game may be left out (decide(view), as in the tests).
        return strategy.choose(view)


if __name__ == "__main__":
    run(HeuristicBot())
