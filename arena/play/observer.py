"""What the game loop tells whoever follows a game while it is played.

A caller that wants to see games as they happen (the live files `arena watch` and
`ladder watch` read, or, on a cluster, something that forwards the events to the process
that started the run) passes run_games() a factory of observers, one per game. The game
loop calls the game's observer from its own thread, with the game's own events (full
information: what a watcher may show of them is decided later, by arena.core.view), so an
observer must be quick and must not raise: it runs between two decisions of a game, and
a game is never to be slowed or stopped by someone watching it. An observer that fails
gives up quietly; the record is the game's account, not the observer's.

The factory is a plain value the caller builds (arena.play.live_files.LiveFolder holds only a
folder's path), so it can be sent to a worker in another process with the games.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol

from arena.core.game import GameEvent
from arena.records.gamelog import GameLog
from arena.settings.spec import GameSpec

__all__ = ["GameObserver", "Observe"]


class GameObserver(Protocol):
    def started(self, log: GameLog) -> None:
        """The game begins: `log` holds its id, rules, seed, first dealer and seats (the
        opening deal follows as the first events)."""

    def happened(self, events: Sequence[GameEvent], substituted: bool) -> None:
        """What one action caused (the opening deal, on its own, comes first), in order;
        `substituted`: the arena played the action for a faulted bot."""

    def ended(self, log: GameLog | None) -> None:
        """The game is over (`log` is its finished record), or was stopped before its end
        (None: the run was interrupted, and the game will be played again from its seed).
        Called exactly once, whatever happened."""


Observe = Callable[[GameSpec], GameObserver]
"""One observer per game, made when the game starts."""
