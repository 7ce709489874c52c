"""Every crossing between trio and another thread, each written once.

* `wait_future`: a trio task waits for a future that another thread completes (a gRPC
  call, a Ray object) without a thread of its own: the future's callback, on that
  thread, stamps the moment it completed and wakes trio through its token. The wire's
  calls and the Ray executor's waits both go through it.
* `LoopThread`: a trio loop in a thread of its own that lives until it is closed; other
  threads hand it work and block until it is done. A Ray worker plays its games on one.
* `in_thread`: blocking work (a ladder's commits, with their fsync) on one of trio's
  threads, so that trio's own never waits on it.

Which thread may start a bot process. A bot is started with PR_SET_PDEATHSIG=SIGKILL
(arena.procs.processes), and the kernel sends it when the *thread* that forked the bot exits,
not the process. So a bot lives exactly as long as the thread that started it, and the
arena starts bots only from threads that live as long as it needs them: the main thread,
or a LoopThread's, which ends only when closed. Never from trio's own threads
(`in_thread`, trio.to_thread), which exit after a few idle seconds, nor from a trio loop
run in any other thread (Ray's method threads come and go). `may_start_processes()` says
whether the current thread is one of the two, and arena.procs.processes refuses to start a bot
from any other.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import AbstractAsyncContextManager
from typing import Any, Protocol, TypeVar

import trio

__all__ = ["LoopThread", "in_thread", "may_start_processes", "wait_future"]

T = TypeVar("T")


class Future(Protocol):
    """What `wait_future` needs of a future: grpc.Future and concurrent.futures.Future
    (what a Ray object's .future() gives) both have it."""

    def add_done_callback(self, fn: Callable[[Any], object], /) -> Any: ...
    def done(self) -> bool: ...
    def cancel(self) -> bool: ...


async def wait_future(future: Future, *, cancel: bool) -> float:
    """Waits until `future` completes (on another thread); returns the moment it did,
    time.monotonic() as stamped in its callback, before trio ran anything: trio's own
    delays (other games, other bots) are never counted in it. Taking its result is the
    caller's.

    Cancelled while waiting: with `cancel`, the future is cancelled (a gRPC call: the bot
    sees the cancel); without, it is left to complete on its own. Either way, a future
    that has already completed is waited for all the same (its wake is on its way), so
    an answer that arrived in time never turns into a timeout because trio's thread was
    busy when the deadline came.

    The task parks with trio's low-level park and reschedule rather than a trio.Event:
    one object fewer per call on the wire's hottest path (measured 0.618 against 0.645
    ms a call); and no thread waits, which beats trio.to_thread (about 1.0 against 1.2
    ms a call) and cancels cleanly, where an abandoned thread would keep the call open."""
    token = trio.lowlevel.current_trio_token()
    task = trio.lowlevel.current_task()
    arrived = [0.0]
    waiting = [True]  # touched only in the trio thread

    def wake() -> None:
        if waiting[0]:
            waiting[0] = False
            trio.lowlevel.reschedule(task)

    def on_done(_: object) -> None:  # on the thread that completed the future
        arrived[0] = time.monotonic()
        # RunFinishedError: the loop is shutting down and nobody waits for the answer
        with contextlib.suppress(trio.RunFinishedError):
            token.run_sync_soon(wake)

    def abort(_: object) -> trio.lowlevel.Abort:
        if future.done():
            return trio.lowlevel.Abort.FAILED
        waiting[0] = False
        if cancel:
            future.cancel()
        return trio.lowlevel.Abort.SUCCEEDED

    future.add_done_callback(on_done)
    await trio.lowlevel.wait_task_rescheduled(abort)
    return arrived[0]


async def in_thread(fn: Callable[..., T], *args: object) -> T:
    """fn(*args) on one of trio's threads, waited for without blocking trio's. Such a
    thread may exit once idle: nothing run there may start a process (see above)."""
    return await trio.to_thread.run_sync(fn, *args)


class _OwnerThread(threading.Thread):
    """A LoopThread's thread: one that may start bot processes."""


def may_start_processes() -> bool:
    """Whether a bot started from the current thread would live as long as the arena
    needs it: the main thread, or a LoopThread's (see the module's docstring)."""
    current = threading.current_thread()
    return current is threading.main_thread() or isinstance(current, _OwnerThread)


class LoopThread:
    """A trio loop in a thread of its own, from its start until `close`; other threads
    hand it work with `run` and `run_sync`, each blocking its caller until done.

    `lifetime`, when given, makes an async context manager entered on the loop as it
    starts (the constructor returns once it is entered, and raises what entering it
    raised) and left when the loop is closed: a bot pool, say, whose processes then
    belong to this thread, which may start them (may_start_processes)."""

    def __init__(self, name: str,
                 lifetime: Callable[[], AbstractAsyncContextManager[object]] | None = None
                 ) -> None:
        self._lifetime = lifetime
        self._ready = threading.Event()
        self._token: trio.lowlevel.TrioToken | None = None
        self._stop: trio.Event | None = None
        self._failed: BaseException | None = None
        self._thread = _OwnerThread(target=self._run, name=name, daemon=True)
        self._thread.start()
        self._ready.wait()
        if self._failed is not None:
            self._thread.join()
            raise self._failed

    @property
    def thread(self) -> threading.Thread:
        return self._thread

    def run(self, afn: Callable[..., Awaitable[T]], *args: object) -> T:
        """afn(*args) on the loop; blocks the calling thread until it returns (or raises)."""
        return trio.from_thread.run(afn, *args, trio_token=self._running())

    def run_sync(self, fn: Callable[..., T], *args: object) -> T:
        """fn(*args) in the loop's thread; blocks the calling thread until it returns."""
        return trio.from_thread.run_sync(fn, *args, trio_token=self._running())

    def close(self, timeout: float | None = None) -> bool:
        """Leaves `lifetime` and ends the loop and its thread, waiting up to `timeout`
        seconds for it; whether the thread has ended."""
        if self._token is not None and self._stop is not None:
            with contextlib.suppress(trio.RunFinishedError):
                trio.from_thread.run_sync(self._stop.set, trio_token=self._token)
        self._thread.join(timeout)
        return not self._thread.is_alive()

    def _running(self) -> trio.lowlevel.TrioToken:
        if self._token is None:
            raise RuntimeError("the loop thread never started")
        return self._token

    def _run(self) -> None:
        try:
            trio.run(self._main)
        except BaseException as e:  # a lifetime that could not be entered, or left
            self._failed = e
        finally:
            self._ready.set()

    async def _main(self) -> None:
        self._token = trio.lowlevel.current_trio_token()
        self._stop = trio.Event()
        async with self._entered():
            self._ready.set()
            await self._stop.wait()

    @contextlib.asynccontextmanager
    async def _entered(self) -> AsyncIterator[None]:
        if self._lifetime is None:
            yield
            return
        async with self._lifetime():
            yield
