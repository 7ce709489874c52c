"""The random bot: every decision uniform over the legal actions. The baseline to beat."""

import random

from arena.sdk import Bot, run


class RandomBot(Bot):
    name = "random"
    version = "1.0"
    author = "Euchre Arena"

    def __init__(self) -> None:
        self.rng = random.Random()

    def start_game(self, seat, seat_bots):
        # Seeded by the game and seat, so a ladder's results do not depend on which
        # process played which game, or in what order.
        self.rng.seed(f"{self.game_id}:{seat}")

    def decide(self, view):
        return self.rng.choice(view.legal_actions)


if __name__ == "__main__":
    run(RandomBot())
