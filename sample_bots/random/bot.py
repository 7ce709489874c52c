"""The random bot: every decision uniform over the legal actions. The baseline to beat."""

import random

from arena.sdk import Action, Bot, Game, SeatView, run


class RandomBot(Bot):
    name = "random"
    version = "1.0"
    author = "Euchre Arena"

    def start_game(self, game: Game) -> None:
        # A generator per game, seeded by the game and seat: a ladder's results do not
        # depend on which process played which game, in what order, or beside which.
        game.rng = random.Random(f"{game.id}:{game.seat}")

    def decide(self, view: SeatView, game: Game) -> Action:
        rng: random.Random = game.rng
        return rng.choice(view.legal_actions)


if __name__ == "__main__":
    run(RandomBot())
