"""Game slots: the one per-game step every executor runs, and the dispatcher that feeds
every executor its games.

A run plays `concurrency` games at once, each in a *slot*: one game at a time on a
process cache of the slot's own (arena.play.process_cache), so a bot process is started once
and plays game after game of its family. Where the slots live is the executor's affair
(`GameExecutor`): all in this process (arena.play.runner.LocalExecutor) or spread over the
workers of a Ray cluster (arena.play.ray_executor.RayExecutor). What a slot does with a game is
written once, here (`GameSlot.play`), and so is which game comes next (`Dispatch`), so
both executors play, fail and keep twins apart alike:

* A game that does not end (cancelled by a stop, or a bug of the arena's) leaves nothing
  of its slot running: the slot's processes are stopped before the error goes on, and the
  slot starts afresh if it plays again. A bot's misbehaviour never gets here: the game
  loop makes it a fault in the game's record (arena.play.game_loop).
* With `ProcessSettings.fresh_processes` the slot's processes are stopped after every game.
* The two games of a duplicate pair (the same deal, teams swapped) are never played at
  the same time, wherever their slots are: bots holding each other's cards must not meet
  in time. A game lost with a Ray worker is handed out again before any other.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Protocol

import trio

from arena.core.rules import RuleSet
from arena.play.game_loop import play_game
from arena.play.observer import Observe
from arena.play.process_cache import ProcessCache
from arena.procs.processes import BotPool
from arena.records.gamelog import GameLog
from arena.settings.errors import ArenaBug
from arena.settings.process import ProcessSettings
from arena.settings.spec import GameSpec

__all__ = ["Dispatch", "GameExecutor", "GameSlot", "OnDone", "SlotSettings"]

OnDone = Callable[[GameSpec, GameLog], object]
"""Told each finished game, in trio's thread of the run, in finishing order."""


@dataclass(frozen=True)
class SlotSettings:
    """What every slot needs, whichever executor runs it: plain values, sent to each Ray
    worker once."""

    rules: RuleSet
    """The rules its bots are greeted with (Hello): every game of a run shares them."""
    processes: ProcessSettings
    observe: Observe | None = None
    """Makes each game's observer (arena.play.observer), where the game is played."""


class GameSlot:
    """Plays games one at a time on a process cache of its own."""

    def __init__(self, pool: BotPool, settings: SlotSettings, name: str,
                 cpus: str | None = None) -> None:
        self.settings = settings
        self.cache = ProcessCache(pool, settings.rules, settings.processes, name=name, cpus=cpus)
        """Named in its bots' log files; `cpus`: the CPUs its sealed bots run on."""

    async def play(self, spec: GameSpec) -> GameLog:
        """The game's log. Raises only what stops the game without an end (cancelled, or
        a bug), once every process of the slot is stopped."""
        observe = self.settings.observe
        try:
            log = await play_game(self.cache, spec, observe(spec) if observe else None)
        except BaseException:
            await self.close()
            raise
        if self.settings.processes.fresh_processes:
            await self.close()
        return log

    async def close(self) -> None:
        """Stops every process of the slot (shielded from cancellation)."""
        await self.cache.close()


class Dispatch:
    """The specs, in order, to the slots, except that a game never starts while another of
    the same deal (its duplicate twin) is being played: two games of one deal at once
    would let their bots, which hold each other's cards, meet in time (contention, or
    one's pace seen by the other). A game held back waits at most until its twin ends;
    up to `lookahead` later games go ahead meanwhile. With `hands_back` (a Ray executor's
    workers can be lost), a game handed back (`again`) goes out again first."""

    def __init__(self, specs: Iterable[GameSpec], lookahead: int, *,
                 hands_back: bool = False) -> None:
        self._specs = iter(specs)
        self._hands_back = hands_back
        self._held: list[GameSpec] = []
        self._playing: dict[int, int] = {}
        self._in_play = 0
        self._lookahead = lookahead
        self._changed = trio.Condition()
        self._exhausted = False

    async def next(self) -> GameSpec | None:
        """The next game to play; None once every game has been handed out (and, with
        `hands_back`, none is in play: it may yet come back), so that a slot with nothing
        left to play stops its bots at once. The caller owes `done` (or `again`) for
        every game it is given."""
        async with self._changed:
            while True:
                for i, spec in enumerate(self._held):
                    if not self._playing.get(spec.seed):
                        del self._held[i]
                        return self._take(spec)
                if not self._exhausted and len(self._held) < self._lookahead:
                    upcoming = next(self._specs, None)
                    if upcoming is None:
                        self._exhausted = True
                    elif self._playing.get(upcoming.seed):
                        self._held.append(upcoming)
                        continue
                    else:
                        return self._take(upcoming)
                if self._exhausted and not self._held and not (
                        self._hands_back and self._in_play):
                    return None
                await self._changed.wait()

    def _take(self, spec: GameSpec) -> GameSpec:
        self._playing[spec.seed] = self._playing.get(spec.seed, 0) + 1
        self._in_play += 1
        return spec

    async def done(self, spec: GameSpec) -> None:
        """The game is no longer played (it ended, or was stopped): its twin may start."""
        await self._return(spec, again=False)

    async def again(self, spec: GameSpec) -> None:
        """The game was lost unplayed (with its worker): hand it out again, first."""
        if not self._hands_back:
            raise ArenaBug("a game handed back to a dispatcher made without hands_back")
        await self._return(spec, again=True)

    async def _return(self, spec: GameSpec, *, again: bool) -> None:
        with trio.CancelScope(shield=True):
            async with self._changed:
                self._playing[spec.seed] -= 1
                self._in_play -= 1
                if again:
                    self._held.insert(0, spec)
                self._changed.notify_all()


class GameExecutor(Protocol):
    """Where a run's slots are (arena.settings.spec.Executor chooses): each plays the games it
    takes from the dispatcher on GameSlots."""

    hands_back: bool
    """Whether a game it was given may come back unplayed (Dispatch.again)."""

    async def play(self, dispatch: Dispatch, on_done: OnDone) -> None:
        """Plays every game `dispatch` hands out, and returns once it hands out none:
        on_done(spec, log) for each game that ended, after `dispatch.done(spec)`. Raises
        what stopped the run, once every slot's processes are stopped."""
        ...
