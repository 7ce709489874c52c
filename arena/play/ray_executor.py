"""Games on a Ray cluster: this process hands out games and takes back their logs; arena
worker processes on the cluster's nodes play them.

Each worker is a Ray actor holding game slots (arena.play.slots.GameSlot) on trio, in a thread
of its own that lives as long as the actor: the same per-game step as a local run, with
the same process cache, sandbox, time control and failure handling, on the node where Ray
placed it. The games come from the same dispatcher as a local run's (arena.play.slots.Dispatch),
so the two games of a duplicate pair are never played at once here either. An actor rather than a
task per game, because a worker keeps its bot processes between games as a local worker
does (a Python bot takes about a second to start: paid once a night, not once a game),
and because each game's log comes back the moment it ends, to be stored as a local run
stores it. The one SQLite store stays with the caller, so resume, exactly-once storage,
verify and ratings are the same whichever executor played.

Bots reach the workers by path: every node must hold each bot at the path its manifest
was read from (a shared filesystem, or the same checkout everywhere), and the arena
installed in the Python the cluster runs. A worker reads each bot's manifest again on its
own node before it plays it and refuses a game whose bot is not the registered one
(another digest), so a node with stale files cannot play under the registered name.

A worker lost with its node (or killed) loses the games it was playing: their logs never
arrive, so nothing of them is stored, and no bot is charged a fault for them. Each is
handed out again, from its spec, to a worker still standing, and the lost worker is
replaced wherever the cluster finds room for it.
"""

from __future__ import annotations

import contextlib
import logging
import os
import socket
import threading
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import trio

from arena.play.slots import Dispatch, GameSlot, OnDone, SlotSettings
from arena.procs.processes import BotPool, open_bot_pool, require_sandbox
from arena.procs.sandbox import SandboxUnavailable
from arena.records.gamelog import GameLog
from arena.settings.errors import KINDS, ConfigError, Kind, MachineError, kind_of
from arena.settings.manifest import BotManifest, load_manifest
from arena.settings.spec import Executor, GameSpec, require_ray
from arena.threads.bridges import LoopThread, wait_future

__all__ = ["GameLostError", "RayExecutor", "RayWorker"]

MAX_LOSSES = 3
"""Times one game may lose its worker before the run gives up on it: a game that kills
every worker it lands on is a bug to look at, not to retry all night."""
CLOSE_TIMEOUT = 15.0
"""Seconds a worker has to stop its games and bots at the end before it is killed."""


class GameLostError(MachineError):
    """A game lost its worker MAX_LOSSES times: the cluster, not the game, needs looking
    at."""


class _GameLoop:
    """The game slots (arena.play.slots.GameSlot) of the games a worker plays at once, with
    their bot pool, on a trio loop in a thread of its own (arena.threads.bridges.LoopThread).

    The loop lives in one long-lived thread because bot processes die with the thread that
    started them (PDEATHSIG, see arena.threads.bridges): Ray's method threads come and go, this
    one stays. Kept apart from the actor class: Ray makes an actor with any coroutine
    method an asyncio actor, whose plain methods then run one at a time on its event loop
    (measured: twelve games at once played at the pace of one)."""

    def __init__(self, settings: SlotSettings, name: str) -> None:
        self._settings = settings
        self._name = name
        self._free: list[GameSlot] = []
        self._made = 0
        self._pool: BotPool | None = None
        self._loop = LoopThread("arena-games", self._lifetime)

    def play(self, spec: GameSpec) -> GameLog:
        """Plays the game on the loop; blocks the calling thread until its log is back."""
        return self._loop.run(self._play, spec)

    def close(self) -> None:
        """Stops the games still running and every bot process, then the loop."""
        self._loop.close(CLOSE_TIMEOUT)

    @contextlib.asynccontextmanager
    async def _lifetime(self) -> AsyncIterator[None]:
        self._settings.processes.log_dir.mkdir(parents=True, exist_ok=True)
        async with open_bot_pool() as pool:
            self._pool = pool
            try:
                yield
            finally:
                for slot in self._free:
                    await slot.close()

    async def _play(self, spec: GameSpec) -> GameLog:
        """The game on a free slot (a new one if none is free): the step a local run
        takes, with its failure handling (arena.play.slots)."""
        slot = self._free.pop() if self._free else self._new_slot()
        log = await slot.play(spec)  # a game that raises leaves its slot closed: dropped
        self._free.append(slot)
        return log

    def _new_slot(self) -> GameSlot:
        assert self._pool is not None
        self._made += 1
        return GameSlot(self._pool, self._settings, name=f"{self._name}.{self._made}")


class RayWorker:
    """The actor: plain methods only (see _GameLoop), which Ray calls from up to
    `max_concurrency` threads at once; each hands its game to the loop."""

    def __init__(self, settings: SlotSettings, index: int, generation: int) -> None:
        """Checks what the node must offer before any game: a worker that cannot seal bots
        or write their logs would turn every game into forfeits, stored as results."""
        here = socket.gethostname()
        processes = settings.processes
        if processes.sandbox:
            try:
                require_sandbox("sandbox = false in the ladder file, or --no-sandbox")
            except SandboxUnavailable as e:
                raise MachineError(f"ray: node {here}: {e}") from None
        try:
            processes.log_dir.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise MachineError(f"ray: node {here}: cannot write bot logs in "
                               f"{processes.log_dir}: {e}") from None
        self._checked: dict[tuple[Path, str], str | None] = {}
        self._check_lock = threading.Lock()
        # Named by generation too: a replacement never appends to a lost worker's logs.
        self._loop = _GameLoop(settings, f"ray{index}g{generation}")

    def ready(self) -> str:
        """Where the worker runs, once it can play: the caller waits on this before it
        hands the worker a game, so a worker the cluster cannot place holds none."""
        import ray

        node = ray.get_runtime_context().get_node_id()
        return f"node {node[:12]} ({socket.gethostname()}, pid {os.getpid()})"

    def play(self, spec: GameSpec) -> GameLog:
        self._check_bots(spec)
        return self._loop.play(spec)

    def close(self) -> None:
        self._loop.close()

    def _check_bots(self, spec: GameSpec) -> None:
        """Each bot's manifest read again here, on this node: its digest must be the one
        the caller registered, or the game would be recorded under a name and version that
        did not play it."""
        for bot in spec.seat_bots:
            if not isinstance(bot, BotManifest) or bot.command is None or bot.source is None:
                continue
            key = (bot.source, bot.digest)
            with self._check_lock:
                if key not in self._checked:
                    self._checked[key] = _mismatch(bot)
                problem = self._checked[key]
            if problem is not None:  # the node's files: the cluster's to fix
                raise MachineError(f"{bot.name} on {socket.gethostname()}: {problem}")


def _mismatch(bot: BotManifest) -> str | None:
    assert bot.source is not None
    try:
        here = load_manifest(str(bot.source))
    except ConfigError as e:
        return f"its manifest cannot be read on this node: {e}"
    if here.digest != bot.digest:
        return (f"{bot.source} holds another version here (digest {here.digest}, registered "
                f"{bot.digest}): every node must hold the same bot files at the same path")
    return None


class _Losses:
    """How often each game lost its worker (handed out again each time, arena.play.slots)."""

    def __init__(self) -> None:
        self._losses: dict[str, int] = {}

    def count(self, spec: GameSpec) -> None:
        """One more loss of the game; GameLostError the MAX_LOSSES-th time."""
        n = self._losses[spec.game_id] = self._losses.get(spec.game_id, 0) + 1
        if n >= MAX_LOSSES:
            raise GameLostError(f"game {spec.game_id} lost its worker {n} times; giving up")


async def _result(ref: Any) -> Any:
    """Waits for a Ray object without a thread (arena.threads.bridges.wait_future). A cancelled
    wait leaves the call running: the worker's close, at the end of the run, stops its
    games and their bots."""
    future = ref.future()
    await wait_future(future, cancel=False)
    return future.result()


class _Slot:
    """One worker place on the cluster: an actor, replaced when it is lost."""

    def __init__(self, index: int, make: Callable[[int, int], Any],
                 notice: Callable[[str], object]) -> None:
        self.index = index
        self._make = make
        self._notice = notice
        self.actor: Any = None
        self.generation = 0
        self._lock = trio.Lock()
        self.started: list[Any] = []
        """Every actor that answered `ready`: each is closed at the end."""
        self.pending: list[Any] = []
        """Actors asked for and not yet placed: killed at the end, with nothing to close."""

    async def ready_actor(self) -> tuple[Any, int]:
        async with self._lock:
            if self.actor is None:
                actor = self._make(self.index, self.generation + 1)
                self.pending.append(actor)  # killed at the end unless it answers
                where = await _result(actor.ready.remote())
                self.pending.remove(actor)
                self._notice(f"ray: worker {self.index} ready on {where}")
                self.started.append(actor)
                self.actor = actor
                self.generation += 1
            return self.actor, self.generation

    def lost(self, generation: int) -> None:
        if generation == self.generation:
            self.actor = None


class RayExecutor:
    """The slots on `executor.workers` Ray actors (default: one per game at once),
    `concurrency` slots in all. Starts a cluster of this machine alone when no address is
    given, and stops it after. `notice` hears where each worker starts, and of workers lost
    and games handed out again."""

    hands_back = True
    """A game lost with its worker is handed out again."""

    def __init__(self, settings: SlotSettings, *, concurrency: int, executor: Executor,
                 notice: Callable[[str], object] = print) -> None:
        require_ray()
        self.settings = settings
        self.concurrency = concurrency
        self.executor = executor
        self.notice = notice

    async def play(self, dispatch: Dispatch, on_done: OnDone) -> None:
        import ray
        import ray.exceptions as rex

        settings, concurrency, notice = self.settings, self.concurrency, self.notice
        lost_errors = tuple(
            getattr(rex, n) for n in ("RayActorError", "ActorUnavailableError",
                                      "WorkerCrashedError", "NodeDiedError", "ObjectLostError",
                                      "OwnerDiedError")
            if hasattr(rex, n)
        )
        workers = max(1, min(self.executor.workers or concurrency, concurrency))
        # `concurrency` games at once in all: the first workers take one more when it does
        # not divide evenly.
        games_of = [concurrency // workers + (i < concurrency % workers) for i in range(workers)]
        started_here = _connect(ray, self.executor.address, cpus=workers)
        # `close` has a concurrency group of its own, so that it runs at once beside the
        # games it is to stop rather than after them.
        remote: Any = ray.remote  # its overloads do not list concurrency_groups, which it takes
        actor_class = remote(concurrency_groups={"control": 1})(RayWorker)

        def make(i: int, generation: int) -> Any:
            return actor_class.options(num_cpus=1, max_concurrency=games_of[i],
                                       max_restarts=0).remote(settings, i, generation)

        slots = [_Slot(i, make, notice) for i in range(workers)]
        losses = _Losses()
        unwrapped: BaseException | None = None
        try:
            async with trio.open_nursery() as nursery:

                async def play(slot: _Slot) -> None:
                    while True:
                        try:
                            actor, generation = await slot.ready_actor()
                        except lost_errors as e:
                            if getattr(e, "actor_init_failed", True):
                                # Its __init__ raised (the node cannot seal bots, write
                                # logs, or import the arena): nothing will play there, and
                                # trying again would hang the run.
                                raise MachineError(f"ray: worker {slot.index} could not "
                                                   f"start: {_last_line(e)}") from None
                            await trio.sleep(1.0)  # its node went as it started: try again
                            continue
                        spec = await dispatch.next()
                        if spec is None:
                            nursery.cancel_scope.cancel()  # every game is in: stop the waiting
                            return
                        try:
                            log = await _result(actor.play.remote(spec))
                        except lost_errors as e:
                            slot.lost(generation)
                            await dispatch.again(spec)
                            losses.count(spec)
                            notice(f"ray: worker {slot.index} lost ({type(e).__name__}); "
                                   f"game {spec.game_id} will be played again, nothing of it "
                                   "is kept")
                            continue
                        except BaseException as e:
                            await dispatch.done(spec)
                            if isinstance(e, rex.RayTaskError):
                                cause = getattr(e, "cause", None)
                                kind = Kind.BUG if cause is None else kind_of(cause)
                                if kind is not Kind.BUG:  # said as its kind, not Ray's traceback
                                    raise KINDS[kind](str(cause)) from None
                            raise
                        await dispatch.done(spec)
                        on_done(spec, log)

                for slot in slots:
                    for _ in range(games_of[slot.index]):
                        nursery.start_soon(play, slot)
        except BaseExceptionGroup as group:
            if len(group.exceptions) != 1:
                raise
            unwrapped = group.exceptions[0]  # one failure: said as itself, not as a group
        finally:
            with trio.CancelScope(shield=True):
                await _close_all(ray, [a for s in slots for a in s.started],
                                 [a for s in slots for a in s.pending])
                if started_here:
                    ray.shutdown()
        if unwrapped is not None:
            raise unwrapped


async def _close_all(ray: Any, started: list[Any], pending: list[Any]) -> None:
    """Each worker stops its bots in order; one that does not answer in time is killed
    (its bots die with it: PDEATHSIG)."""
    closing = [a.close.options(concurrency_group="control").remote() for a in started]
    with trio.move_on_after(CLOSE_TIMEOUT):
        for ref in closing:
            with contextlib.suppress(Exception):
                await _result(ref)
    for a in started + pending:
        with contextlib.suppress(Exception):
            ray.kill(a)


def _last_line(e: BaseException) -> str:
    """The last line of a Ray error's text: the exception the worker raised."""
    lines = [ln.strip() for ln in str(e).splitlines() if ln.strip()]
    return lines[-1] if lines else type(e).__name__


def _connect(ray: Any, address: str | None, *, cpus: int) -> bool:
    """Joins the cluster at `address`, or starts one of this machine alone (with room
    for every worker: a worker asks for one CPU, and most of its time is spent waiting on
    bots). True if this call started it, so the run stops it."""
    if ray.is_initialized():
        return False
    quiet = {"logging_level": logging.ERROR, "log_to_driver": False}
    try:
        if address is not None:
            ray.init(address=address, **quiet)
            return True  # disconnects at the end; the cluster itself goes on
        ray.init(address="local", num_cpus=max(cpus, os.cpu_count() or 1),
                 include_dashboard=False, **quiet)
    except (ConnectionError, RuntimeError, ValueError) as e:
        where = address or "a cluster on this machine"
        raise MachineError(f"ray: cannot connect to {where}: {e}") from None
    return True
