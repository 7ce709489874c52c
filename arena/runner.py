"""Many games at once: specs in, finished game logs out, on a pool of workers.

run_games() hands the specs (any iterable, consumed lazily and in order) to
`concurrency` workers (arena.process_cache), each playing one game at a time
(arena.game_loop), and reports each finished game in finishing order.
run_until_signal() is how the command lines stop on Ctrl-C or SIGTERM.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
from collections.abc import Awaitable, Callable, Iterable

import trio

from arena.cli_args import check_memory
from arena.core.rules import RuleSet
from arena.game_loop import play_game
from arena.gamelog import GameLog
from arena.observer import Observe
from arena.process_cache import Worker
from arena.process_settings import ProcessSettings
from arena.spec import Executor, GameSpec

__all__ = ["play_game", "run_games", "run_until_signal"]


async def run_games(
    specs: Iterable[GameSpec],
    *,
    rules: RuleSet,
    concurrency: int,
    processes: ProcessSettings,
    on_done: Callable[[GameSpec, GameLog], object],
    executor: Executor | None = None,
    notice: Callable[[str], object] | None = None,
    observe: Observe | None = None,
) -> None:
    """Plays the specs (any iterable) on `concurrency` workers; calls on_done(spec, log)
    in the trio thread as each game finishes, in finishing order. Every bot process is
    started, held and stopped as `processes` says (arena.process_settings).
    With a Ray executor the workers are processes of a Ray cluster (arena.ray_executor),
    and `notice` (default: standard error) hears of workers lost. `observe` makes each
    game's observer (arena.observer), which hears it as it goes (on a Ray worker too: it
    is sent there with the settings)."""
    from arena.processes import open_bot_pool

    if executor is not None and executor.kind == "ray":
        from arena.ray_executor import RayWorkerSettings, run_games_on_ray

        settings = RayWorkerSettings(rules=rules, processes=processes, observe=observe)
        await run_games_on_ray(specs, settings=settings, concurrency=concurrency,
                               executor=executor, on_done=on_done,
                               notice=notice or _to_stderr)
        return

    check_memory(concurrency=concurrency, seats=rules.seats,
                 memory_mb=processes.limits.memory_mb, sealed=processes.sandbox)
    processes.log_dir.mkdir(parents=True, exist_ok=True)
    dispatch = _Dispatch(specs, lookahead=4 * concurrency)

    async def work(worker: Worker) -> None:
        try:
            while (spec := await dispatch.next()) is not None:
                try:
                    log = await play_game(worker, spec, observe(spec) if observe else None)
                finally:
                    await dispatch.done(spec)
                if processes.fresh_processes:
                    await worker.close()
                on_done(spec, log)
        finally:
            await worker.close()

    async with open_bot_pool() as pool, trio.open_nursery() as nursery:
        for i in range(concurrency):
            worker = Worker(pool, rules, processes, name=f"w{i}",
                            cpus=slot_cpus(i, concurrency))
            nursery.start_soon(work, worker)


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


class _Dispatch:
    """The specs, in order, to workers, except that a game never starts while another of
    the same deal (its duplicate twin) is being played: two games of one deal at once
    would let their bots, which hold each other's cards, meet in time (contention, or
    one's pace seen by the other). A game held back waits at most until its twin ends;
    up to `lookahead` later games go ahead meanwhile."""

    def __init__(self, specs: Iterable[GameSpec], lookahead: int) -> None:
        self._specs = iter(specs)
        self._held: list[GameSpec] = []
        self._playing: dict[int, int] = {}
        self._lookahead = lookahead
        self._changed = trio.Condition()
        self._exhausted = False

    async def next(self) -> GameSpec | None:
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
                if self._exhausted and not self._held:
                    return None
                await self._changed.wait()

    def _take(self, spec: GameSpec) -> GameSpec:
        self._playing[spec.seed] = self._playing.get(spec.seed, 0) + 1
        return spec

    async def done(self, spec: GameSpec) -> None:
        with trio.CancelScope(shield=True):
            async with self._changed:
                self._playing[spec.seed] -= 1
                self._changed.notify_all()


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
