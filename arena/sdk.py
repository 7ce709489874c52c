"""Write a bot in Python by writing `decide(view) -> action`; this module does the rest.

    from arena.sdk import Bot, run

    class MyBot(Bot):
        name = "my-bot"
        def decide(self, view):
            return view.legal_actions[0]

    if __name__ == "__main__":
        run(MyBot())

`view` is the seat's whole view (arena.core.SeatView) with `view.legal_actions` filled in;
the arena checks every answer, so a bot can never play what the rules forbid, only lose
by trying. The optional hooks hear what happens at the table, for bots that track cards.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from typing import NoReturn

from arena import ADDRESS_ENV
from arena.core.actions import Action
from arena.core.events import Event
from arena.core.rules import RuleSet
from arena.core.view import SeatView
from arena.wire.transport import BotHandler, BotIdentity, serve

ADDRESS_VARIABLE = ADDRESS_ENV


class Bot:
    """Subclass it, set the class attributes, and write decide()."""

    name = "unnamed-bot"
    version = "0"
    author = ""
    game_id = ""
    """The current game's id (set before start_game): a stable seed for a bot that wants
    to be reproducible, game by game, whatever order the games run in."""
    time_left = 0.0
    """Seconds the current decision may take (set before decide)."""

    def supports(self, rules: RuleSet) -> str | None:
        """Return a reason to refuse these rules, or None to play them."""
        return None

    def start_game(self, seat: int, seat_bots: Sequence[str]) -> None:
        """A game starts; `seat` is this process's seat in it."""

    def decide(self, view: SeatView) -> Action:
        raise NotImplementedError("a bot must implement decide(view)")

    def on_event(self, event: Event) -> None:
        """Hears each event (hand dealt, actions it may see, tricks, results), in order."""

    def end_game(self) -> None:
        """The game is over (its last events came through on_event first)."""


class _Handler(BotHandler):
    def __init__(self, bot: Bot) -> None:
        self.bot = bot

    def hello(self, rules: RuleSet) -> BotIdentity:
        bot = self.bot
        return BotIdentity(bot.name, bot.version, bot.author, bot.supports(rules))

    def start_game(self, game_id: str, seat: int, seat_bots: Sequence[str]) -> None:
        self.bot.game_id = game_id
        self.bot.start_game(seat, seat_bots)

    def decide(
        self, game_id: str, view: SeatView, events: Sequence[Event], time_left: float
    ) -> Action:
        try:
            for e in events:
                self.bot.on_event(e)
            self.bot.time_left = time_left
            return self.bot.decide(view)
        except MemoryError:
            _out_of_memory(self.bot)

    def end_game(self, game_id: str, events: Sequence[Event]) -> None:
        for e in events:
            self.bot.on_event(e)
        self.bot.end_game()


def _out_of_memory(bot: Bot) -> NoReturn:
    """A bot that ran out of memory (in the arena, its sandbox's memory limit) exits at
    once: a Python process that failed to allocate may be left in any state, and the
    arena rules a crash of this seat alone, where a half-broken bot could go on failing
    in ways that look like other faults."""
    os.write(2, f"{bot.name}: out of memory (the sandbox's limit is its manifest's "
                f"[limits] memory_mb); exiting\n".encode())
    os._exit(70)


def run(bot: Bot, address: str | None = None) -> None:
    """Serves the bot at EUCHRE_BOT_ADDRESS (set by the arena) until it is stopped."""
    address = address or os.environ.get(ADDRESS_VARIABLE)
    if not address:
        sys.exit(
            f"{bot.name}: no address to listen on. The arena starts bots and sets "
            f"{ADDRESS_VARIABLE}; to run this bot by hand, set it yourself, e.g. "
            f"{ADDRESS_VARIABLE}=127.0.0.1:50051, and register that address with the arena."
        )
    try:
        serve(_Handler(bot), address)
    except (OSError, RuntimeError) as e:  # grpcio says RuntimeError when it cannot bind
        sys.exit(f"{bot.name}: cannot listen on {address}: {e}")
