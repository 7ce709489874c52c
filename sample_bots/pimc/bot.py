"""The PIMC bot: perfect-information Monte Carlo (strategy.py) within a time budget.

Each decision samples deals of the hidden cards that agree with the seat's view, solves
each exactly (solver.py) and plays the action of the best mean score. It thinks for
PIMC_BUDGET seconds (its manifest sets it), less when the arena's time control leaves
less: never more than a third of the decision's limit, nor a fortieth of its bank.
"""

import importlib
import os
import random

from arena.sdk import Action, Bot, Game, RuleSet, SeatView, run

try:  # imported as a package (tests, tools), or run where the arena is installed
    from sample_bots.pimc import strategy
except ImportError:  # started as `python bot.py` in this folder, package not importable
    strategy = importlib.import_module("strategy")

DEFAULT_BUDGET = 0.05
"""Seconds per decision when PIMC_BUDGET is not set."""


def budget_from_env() -> float:
    try:
        value = float(os.environ.get("PIMC_BUDGET", DEFAULT_BUDGET))
    except ValueError:
        return DEFAULT_BUDGET
    return value if value > 0 else DEFAULT_BUDGET


def refusal(rules: RuleSet) -> str | None:
    """Why these rules are not played (None: they are). The solver knows four seats of
    five cards, one deck of 24, 25, 32 or 33 cards and the options of arena's RuleSet as
    it is; rule sets with options it does not know of are refused."""
    seats = getattr(rules, "seats", 4)
    if seats != 4:
        return f"pimc plays four seats only, not {seats}"
    per_hand = getattr(rules, "cards_per_hand", 5)
    if per_hand != 5:
        return f"pimc plays five-card hands only, not {per_hand}"
    deck = getattr(rules, "deck", 24)
    if deck not in (24, 25, 32, 33):
        return f"pimc plays one 24, 25, 32 or 33 card deck, not {deck} cards"
    to_options = getattr(rules, "to_options", None)
    options = to_options() if callable(to_options) else {}
    for option, value in options.items():
        if option in KNOWN_OPTIONS:
            continue
        if value is True or value not in PLAIN_VALUES:  # a variant it does not know is on
            return f"pimc does not play {option}={value!r}"
    return None


KNOWN_OPTIONS = frozenset({
    "seats", "deck", "joker", "target", "stick_the_dealer", "who_may_go_alone",
    "lone_defender", "lone_defender_euchre_points", "lone_defender_march_points",
    "dealer_partner_must_go_alone", "first_lead", "passed_player_may_go_alone",
    "super_euchre_points", "dealer_needs_trump_to_pick_up", "name",
    # Options of newer rule sets that it plays too: the hand size is checked above, the
    # game's length does not change how a hand is played, the points are read by the
    # strategy's score, and a joker by another name is the joker.
    "hand_size", "cards_per_hand", "win_by_two", "hand_limit", "march_points",
    "lone_march_points", "euchre_points", "two_of_spades_joker",
})
"""The options of the rules it plays, whatever their values."""
PLAIN_VALUES = (None, False, 0, 1, "", "none", "off", "single")
"""Values of another option that leave the game it knows unchanged (off, one pack)."""


class PimcBot(Bot):
    name = "pimc"
    version = "1.1"
    author = "Euchre Arena"

    def __init__(self, budget: float | None = None) -> None:
        self.budget = budget if budget is not None else budget_from_env()

    def supports(self, rules: RuleSet) -> str | None:
        return refusal(rules)

    def start_game(self, game: Game) -> None:
        game.rng = random.Random(f"{game.id}:{game.seat}")

    def decide(self, view: SeatView, game: Game | None = None) -> Action:
        budget = self.budget
        rng = random.Random(0)
        if game is not None:
            rng = getattr(game, "rng", rng)
            if game.time_left > 0:
                budget = min(budget, game.time_left / 3)
            if game.bank > 0:
                budget = min(budget, game.bank_left / 40)
        return strategy.decide(view, rng, budget)


if __name__ == "__main__":
    run(PimcBot())
