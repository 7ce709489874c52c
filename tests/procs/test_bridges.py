"""The bridges between trio and other threads (arena.threads.bridges), and the rule they keep:
a bot dies with the thread that started it (PDEATHSIG), so bots are started only from the
main thread or a LoopThread's, which lives until it is closed."""

from __future__ import annotations

import concurrent.futures
import contextlib
import signal
import subprocess
import sys
import threading
import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import trio

from arena.procs import processes
from arena.procs.processes import BotPool, LaunchSpec, open_bot_pool
from arena.settings.errors import ArenaBug
from arena.threads.bridges import LoopThread, in_thread, may_start_processes, wait_future
from tests.helpers import no_bot_left  # noqa: F401 - a fixture

pytestmark = [
    pytest.mark.usefixtures("no_bot_left"),
    pytest.mark.skipif(processes._SETPRIV is None, reason="needs setpriv (util-linux)"),
]

LISTENER = Path(__file__).resolve().parents[1] / "proc_fixtures" / "listener.py"


def start_with_pdeathsig() -> subprocess.Popen[bytes]:
    """A process started as arena.procs.processes starts a bot: PDEATHSIG=SIGKILL (setpriv),
    forked from the calling thread, which waits until setpriv has set it and run the
    program (a thread gone before that would leave its child to another thread)."""
    proc = subprocess.Popen(processes._with_pdeathsig(
        [sys.executable, "-c", "import time; time.sleep(60)"]))
    deadline = time.monotonic() + 10
    program = sys.executable.encode()
    while Path(f"/proc/{proc.pid}/cmdline").read_bytes().split(b"\0")[0] != program:
        assert time.monotonic() < deadline, "setpriv never ran the program"
        time.sleep(0.01)
    return proc


def in_a_thread_that_then_exits(fn):
    """fn() in a new thread, which ends once fn returns; fn's value."""
    out = []
    thread = threading.Thread(target=lambda: out.append(fn()))
    thread.start()
    thread.join()
    return out[0]


def dies(proc: subprocess.Popen[bytes], within: float) -> bool:
    try:
        return proc.wait(timeout=within) == -signal.SIGKILL
    except subprocess.TimeoutExpired:
        return False


def test_a_process_lives_as_long_as_the_loop_thread_that_started_it_and_dies_with_it():
    """The rule itself, on a real process with PDEATHSIG: started from a thread that
    ends, it dies at once (the control); started on a LoopThread at the request of such
    a thread, it outlives the thread that asked, lives while the LoopThread does, and is
    killed by the kernel the moment the LoopThread ends, with nobody signalling it."""
    orphan = in_a_thread_that_then_exits(start_with_pdeathsig)
    assert dies(orphan, within=5), "PDEATHSIG did not follow the thread that forked"

    loop = LoopThread("owner")
    try:
        owned = in_a_thread_that_then_exits(lambda: loop.run_sync(start_with_pdeathsig))
        time.sleep(0.5)  # the asking thread is gone; the owner lives
        assert owned.poll() is None, "died with the thread that asked, not the one that forked"
        assert loop.thread.is_alive()
    finally:
        assert loop.close(timeout=10)
    assert dies(owned, within=5), "outlived the thread that started it"


def test_bots_are_started_only_from_threads_that_outlive_them(tmp_path):
    """arena.procs.processes refuses to start a bot from a trio loop in any other thread than
    the main one or a LoopThread's; a LoopThread's pool plays its bots for callers that
    come and go, and stops them when it closes."""
    spec = LaunchSpec("listener", (sys.executable, str(LISTENER)), LISTENER.parent, {})
    assert may_start_processes()  # pytest's main thread

    async def start_here() -> None:
        async with open_bot_pool() as pool:
            await pool.start(spec, log_path=tmp_path / "refused.log")

    def elsewhere() -> BaseException | None:
        assert not may_start_processes()
        try:
            trio.run(start_here)
        except ArenaBug as e:
            return e
        return None

    refused = in_a_thread_that_then_exits(elsewhere)
    assert refused is not None and "PDEATHSIG" in str(refused)

    pools: list[BotPool] = []

    @contextlib.asynccontextmanager
    async def a_pool() -> AsyncIterator[None]:
        async with open_bot_pool() as pool:
            pools.append(pool)
            yield

    async def start_bot() -> processes.BotProcess:
        assert may_start_processes()
        return await pools[0].start(spec, log_path=tmp_path / "owned.log")

    loop = LoopThread("owner", a_pool)
    try:
        bot = in_a_thread_that_then_exits(lambda: loop.run(start_bot))
        time.sleep(0.3)
        assert bot.running
    finally:
        assert loop.close(timeout=20)
    assert not bot.running and bot.returncode == -signal.SIGTERM


def test_a_lifetime_that_cannot_be_entered_fails_the_constructor():
    @contextlib.asynccontextmanager
    async def broken() -> AsyncIterator[None]:
        raise OSError("no room")
        yield

    with pytest.raises(OSError, match="no room"):
        LoopThread("broken", broken)


def test_wait_future_stamps_the_moment_the_future_completed():
    async def main() -> tuple[float, float, float]:
        future: concurrent.futures.Future[int] = concurrent.futures.Future()
        before = time.monotonic()
        threading.Timer(0.2, future.set_result, (7,)).start()
        arrived = await wait_future(future, cancel=True)
        assert future.result() == 7
        return before, arrived, time.monotonic()

    before, arrived, after = trio.run(main)
    assert before + 0.19 <= arrived <= after


@pytest.mark.parametrize("cancel", [True, False])
def test_a_cancelled_wait_cancels_the_future_only_when_asked_to(cancel):
    async def main() -> concurrent.futures.Future[int]:
        future: concurrent.futures.Future[int] = concurrent.futures.Future()
        with trio.move_on_after(0.1):
            await wait_future(future, cancel=cancel)
        return future

    future = trio.run(main)
    assert future.cancelled() is cancel
    if not cancel:
        future.set_result(1)  # completes later, with nobody waiting: no error anywhere


def test_an_answer_in_before_the_deadline_is_kept_however_late_trio_wakes():
    """The future completes while trio's thread is busy, and the deadline passes before
    trio wakes the waiter: the wait still returns, with the stamp of the completion, and
    the future is not cancelled (the wire's rule: an answer in time is never a timeout)."""

    async def main() -> tuple[bool, float, float]:
        future: concurrent.futures.Future[int] = concurrent.futures.Future()
        done_at = [0.0]

        def complete() -> None:
            done_at[0] = time.monotonic()
            future.set_result(3)

        with trio.move_on_after(0.2):
            async with trio.open_nursery() as nursery:
                async def busy() -> None:
                    await trio.sleep(0.05)
                    threading.Timer(0.05, complete).start()
                    time.sleep(0.4)  # trio's thread is held past the deadline
                nursery.start_soon(busy)
                arrived = await wait_future(future, cancel=True)
        return not future.cancelled(), arrived, done_at[0]

    kept, arrived, done_at = trio.run(main)
    assert kept
    assert done_at <= arrived < done_at + 0.05


def test_in_thread_runs_off_trios_thread():
    async def main() -> tuple[int, int]:
        return threading.get_ident(), await in_thread(threading.get_ident)

    here, there = trio.run(main)
    assert here != there
