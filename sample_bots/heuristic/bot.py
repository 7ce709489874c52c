"""The heuristic bot: the club rules of thumb of strategy.py (count tricks to bid, void a
suit on the discard, lead trump as makers, never trump the partner's winner)."""

from arena.sdk import Bot, run

try:  # imported as a package (tests, tools)
    from sample_bots.heuristic.strategy import choose
except ImportError:  # started as `python bot.py` in this folder, package not installed
    from strategy import choose


class HeuristicBot(Bot):
    name = "heuristic"
    version = "1.0"
    author = "Euchre Arena"

    def decide(self, view):
        return choose(view)


if __name__ == "__main__":
    run(HeuristicBot())
