"""The bot processes a game slot keeps between games, by bot, process family and seat index.

A ProcessCache holds bot processes across the games its slot plays (one process per seat,
started on first use, restarted after a fault), so a match or ladder with C game slots
(arena.play.slots) runs C games at once, and a process's start (a second or so for a Python
bot) is paid once, not per game.

Processes kept between games must not carry what they learnt of one game into another
that shares its deal: the twin game of a duplicate pair deals the same cards with the
teams swapped, so a process that played one half would know every hidden card of the
other. Each game therefore names a process *family* (GameSpec.family: 0 for first
halves, 1 for second halves) and a bot's processes in one family never play a game of
the other; as every sealed process is cut off from every other (arena.procs.sandbox), no
process ever sees a deal from both sides. `ProcessSettings.fresh_processes` goes further:
new processes for every game.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass

import trio

from arena import __version__
from arena.core.features import lacking
from arena.core.rules import RuleSet
from arena.procs.processes import BotPool, BotProcess, BotStartError, LaunchSpec
from arena.settings.faults import BotFault, FaultKind, StartProblem
from arena.settings.manifest import BotManifest
from arena.settings.process import ProcessSettings
from arena.wire.client import BotClient, BotIdentity

HELLO_TIMEOUT = 5.0
START_ATTEMPTS = 3
"""How often a bot that is slow to start (to listen, or to answer Hello) is started
before its seat is charged: a loaded machine must not decide a game before a card is
dealt. Each attempt gets twice the time of the one before."""


@dataclass
class BotInstance:
    """One running bot (a process we started, or a remote address) and its connection."""

    manifest: BotManifest
    client: BotClient
    identity: BotIdentity
    process: BotProcess | None
    needs_restart: bool = False

    @property
    def alive(self) -> bool:
        return not self.needs_restart and (self.process is None or self.process.running)

    @contextlib.asynccontextmanager
    async def awake(self) -> AsyncIterator[None]:
        """A sealed bot runs only inside this block: thawed just before a call of the
        arena's, frozen again when it is answered or abandoned, and the block ends only
        once the freeze has caught it (arena.procs.processes.BotProcess.settle), so that
        the next seat never decides while this one still runs. A caller's time limit goes
        inside the block: the wait is not the bot's time."""
        if self.process is not None:
            self.process.thaw()
        try:
            yield
        finally:
            if self.process is not None:
                self.process.freeze()
                with trio.CancelScope(shield=True):  # bounded: FREEZE_WAIT
                    await self.process.settle()


_Key = tuple[str, str, int, int]


def _key(manifest: BotManifest, family: int, index: int) -> _Key:
    return (manifest.name, manifest.digest, family, index)


class _Slow(Exception):
    def __init__(self, detail: str, cause: StartProblem) -> None:
        self.detail = detail
        self.cause = cause


class ProcessCache:
    """The bot processes of one game slot, kept between the games it plays one after
    another."""

    def __init__(
        self,
        pool: BotPool,
        rules: RuleSet,
        settings: ProcessSettings,
        name: str = "w0",
        max_processes: int = 16,
        cpus: str | None = None,
    ) -> None:
        self.pool = pool
        self.rules = rules
        """The rules every bot it starts is greeted with (Hello)."""
        self.settings = settings
        self.name = name
        self.max_processes = max_processes
        self.cpus = cpus
        """The CPUs its sealed bots run on (arena.play.runner.slot_cpus); None: all."""
        self._instances: dict[_Key, BotInstance] = {}

    async def instance(self, manifest: BotManifest, index: int, family: int = 0) -> BotInstance:
        """The index-th process of this bot in process family `family`, started or
        restarted if needed; raises BotFault(START_FAILED or REFUSED_RULES)."""
        key = _key(manifest, family, index)
        inst = self._instances.pop(key, None)
        if inst is not None and inst.alive:
            self._instances[key] = inst  # to the back: the most recently used
            return inst
        if inst is not None:
            self._instances[key] = inst
            await self._retire(key)
        inst = await self._start(manifest, index, family)
        self._instances[key] = inst
        return inst

    async def make_room(self, wanted: Sequence[tuple[BotManifest, int]], family: int = 0) -> None:
        """Stops the least recently used processes that the next game does not need, so
        that it never holds more than max_processes (many bots, few slots)."""
        keep = {_key(m, family, i) for m, i in wanted}
        missing = len(keep - self._instances.keys())
        for key in [k for k in self._instances if k not in keep]:
            if len(self._instances) + missing <= self.max_processes:
                break
            await self._retire(key)

    async def _start(self, manifest: BotManifest, index: int, family: int) -> BotInstance:
        """Starts the bot, again (with twice the time) while it is only slow: did not
        listen, or did not answer Hello, in time. Anything else, or slowness
        START_ATTEMPTS times over, is its fault: BotFault(START_FAILED)."""
        startup = manifest.startup_timeout or self.settings.start_limit
        hello = HELLO_TIMEOUT
        for attempt in range(1, START_ATTEMPTS + 1):
            try:
                return await self._start_once(manifest, index, family, startup, hello)
            except _Slow as slow:
                if attempt == START_ATTEMPTS:
                    raise BotFault(
                        FaultKind.START_FAILED,
                        f"{slow.detail}\n  started {START_ATTEMPTS} times, the last with "
                        f"{startup:g} s to listen and {hello:g} s to answer Hello",
                        start=slow.cause,
                    ) from None
                startup, hello = startup * 2, hello * 2
        raise AssertionError("unreachable")

    async def _start_once(self, manifest: BotManifest, index: int, family: int,
                          startup: float, hello_timeout: float) -> BotInstance:
        process = None
        if manifest.command is None:
            address = manifest.address
            assert address is not None
        else:
            settings = self.settings
            sandbox = manifest.sandbox(settings.limits) if settings.sandbox else None
            spec = LaunchSpec(manifest.name, manifest.command, manifest.cwd, manifest.env, sandbox)
            log_path = settings.log_dir / f"{manifest.name}-{self.name}-{family}{index}.log"
            try:
                process = await self.pool.start(
                    spec,
                    log_path=log_path,
                    transport=settings.transport,
                    # The bot's own limit, from its manifest, wins over the run's.
                    startup_timeout=startup,
                    grace=settings.grace,
                    cpus=self.cpus,
                )
            except BotStartError as e:
                if e.slow:
                    raise _Slow(str(e), e.problem) from None
                raise BotFault(FaultKind.START_FAILED, str(e), start=e.problem) from None
            address = process.address
        client = BotClient(address)
        try:
            with trio.fail_after(hello_timeout):
                identity = await client.hello(self.rules, __version__)
            if process is not None:
                process.freeze()  # until the game's first call
        except trio.TooSlowError:
            client.close()
            if process is not None:
                await process.stop()
            raise _Slow(f"handshake failed: no answer in {hello_timeout:g} s",
                        StartProblem.HANDSHAKE) from None
        except BotFault as e:
            client.close()
            if process is not None:
                await process.stop()
            if e.kind is FaultKind.TIMEOUT:  # gRPC's deadline (trio's, passed on) came first
                raise _Slow(f"handshake failed: no answer in {hello_timeout:g} s",
                            StartProblem.HANDSHAKE) from None
            detail = e.detail if process is None else process.as_told(e.detail)
            raise BotFault(FaultKind.START_FAILED, f"handshake failed: {detail}",
                           start=StartProblem.HANDSHAKE) from None
        # A bot that did not declare what these rules need is never seated here: refused
        # as if it had refused them itself, with what it lacks, rather than met with
        # messages it cannot read (HelloResponse.features).
        refusal = identity.refusal or lacking(self.rules, identity.features)
        if refusal is not None:
            client.close()
            if process is not None:
                await process.stop()
            raise BotFault(FaultKind.REFUSED_RULES, refusal)
        return BotInstance(manifest, client, identity, process)

    async def _retire(self, key: _Key) -> None:
        inst = self._instances.pop(key)
        inst.client.close()
        if inst.process is not None:
            await inst.process.stop()

    async def close(self) -> list[tuple[str, int | None]]:
        """Stops every process; returns (bot name, exit code) for each (None: remote)."""
        codes = []
        with trio.CancelScope(shield=True):
            for key in list(self._instances):
                proc = self._instances[key].process
                await self._retire(key)
                codes.append((key[0], None if proc is None else proc.returncode))
        return codes
