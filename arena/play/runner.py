"""Many games at once: specs in, finished game logs out, on `concurrency` game slots.

run_games() hands the specs (any iterable, consumed lazily and in order) to the
executor the run asks for: `LocalExecutor`, here, on trio, or the Ray executor
(arena.play.ray_executor), on the workers of a cluster. Both play each game with the same step
(arena.play.slots.GameSlot), take their games from the same dispatcher (arena.play.slots.Dispatch:
the two games of a duplicate pair never at once), and report each finished game in
finishing order. run_until_signal() is how the command lines stop on Ctrl-C or SIGTERM.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
from collections.abc import Awaitable, Callable, Iterable

import trio

from arena.core.rules import RuleSet
from arena.play.game_loop import play_game
from arena.play.observer import Observe
from arena.play.run_notes import check_memory
from arena.play.slots import Dispatch, GameExecutor, GameSlot, OnDone, SlotSettings
from arena.settings.process import ProcessSettings
from arena.settings.spec import Executor, GameSpec

__all__ = ["LocalExecutor", "executor_for", "play_game", "run_games", "run_until_signal",
           "slot_cpus"]

LOOKAHEAD = 4
"""Games (per slot) the dispatcher may look past one held back until its twin ends."""


async def run_games(
    specs: Iterable[GameSpec],
    *,
    rules: RuleSet,
    concurrency: int,
    processes: ProcessSettings,
    on_done: OnDone,
    executor: Executor | None = None,
    notice: Callable[[str], object] | None = None,
    observe: Observe | None = None,
) -> None:
    """Plays the specs (any iterable) on `concurrency` game slots; calls on_done(spec, log)
    in the trio thread as each game finishes, in finishing order. Every bot process is
    started, held and stopped as `processes` says (arena.settings.process).
    With a Ray executor the slots are on worker processes of a Ray cluster
    (arena.play.ray_executor), and `notice` (default: standard error) hears of workers lost.
    `observe` makes each game's observer (arena.play.observer), which hears it as it goes (on
    a Ray worker too: it is sent there with the settings)."""
    settings = SlotSettings(rules=rules, processes=processes, observe=observe)
    chosen = executor_for(executor, settings, concurrency=concurrency,
                          notice=notice or _to_stderr)
    dispatch = Dispatch(specs, lookahead=LOOKAHEAD * concurrency, hands_back=chosen.hands_back)
    await chosen.play(dispatch, on_done)


def executor_for(executor: Executor | None, settings: SlotSettings, *, concurrency: int,
                 notice: Callable[[str], object]) -> GameExecutor:
    """The executor `executor` names (None: local)."""
    if executor is not None and executor.kind == "ray":
        from arena.play.ray_executor import RayExecutor

        return RayExecutor(settings, concurrency=concurrency, executor=executor, notice=notice)
    return LocalExecutor(settings, concurrency=concurrency)


class LocalExecutor:
    """Every slot in this process, on trio; slot i's sealed bots on CPUs of its own
    (slot_cpus) where the machine has one per slot."""

    hands_back = False

    def __init__(self, settings: SlotSettings, *, concurrency: int) -> None:
        self.settings = settings
        self.concurrency = concurrency

    async def play(self, dispatch: Dispatch, on_done: OnDone) -> None:
        from arena.procs.processes import open_bot_pool

        processes = self.settings.processes
        check_memory(concurrency=self.concurrency, seats=self.settings.rules.seats,
                     memory_mb=processes.limits.memory_mb, sealed=processes.sandbox)
        processes.log_dir.mkdir(parents=True, exist_ok=True)

        async def serve(slot: GameSlot) -> None:
            try:
                while (spec := await dispatch.next()) is not None:
                    try:
                        log = await slot.play(spec)
                    finally:
                        await dispatch.done(spec)
                    on_done(spec, log)
            finally:
                await slot.close()

        async with open_bot_pool() as pool, trio.open_nursery() as nursery:
            for i in range(self.concurrency):
                slot = GameSlot(pool, self.settings, name=f"s{i}",
                                cpus=slot_cpus(i, self.concurrency))
                nursery.start_soon(serve, slot)


def slot_cpus(slot: int, concurrency: int) -> str | None:
    """The CPUs the bots of game slot `slot` run on: a share of the machine's of their
    own where it has at least one per slot (so bots of different games never meet on a
    CPU), else all (None)."""
    try:
        cpus = sorted(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return None
    if concurrency < 2 or len(cpus) < concurrency:
        return None
    return ",".join(map(str, cpus[slot::concurrency]))


def _to_stderr(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


async def run_until_signal(body: Callable[[], Awaitable[None]]) -> str | None:
    """Runs `body` until it returns or SIGINT/SIGTERM arrives; returns the signal's name,
    or None. A signal cancels the body at its next checkpoint, so games stop, every bot is
    stopped in order and whatever the body was writing is finished or not started, where
    trio would otherwise raise KeyboardInterrupt wherever the main thread happened to be
    (inside gRPC, or halfway through writing a record). Off the main thread signals cannot
    be received, and the body simply runs."""
    stopped: list[str] = []
    async with trio.open_nursery() as nursery:

        async def watch() -> None:
            if threading.current_thread() is not threading.main_thread():
                return
            with trio.open_signal_receiver(signal.SIGINT, signal.SIGTERM) as signals:
                async for signum in signals:
                    stopped.append(signal.Signals(signum).name)
                    nursery.cancel_scope.cancel()
                    return

        nursery.start_soon(watch)
        await body()
        nursery.cancel_scope.cancel()
    return stopped[0] if stopped else None
