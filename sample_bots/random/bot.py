"""The random bot: every decision uniform over the legal actions. The baseline to beat."""

import random

from arena.sdk import Bot, run


class RandomBot(Bot):
    name = "random"
    version = "1.0"
    author = "Euchre Arena"

    def __init__(self) -> None:
        self.rng = random.Random()

    def decide(self, view):
        return self.rng.choice(view.legal_actions)


if __name__ == "__main__":
    run(RandomBot())
