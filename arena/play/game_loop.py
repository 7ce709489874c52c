"""One game between bot processes, judged by the rules core and recorded as it goes.

play_game() never raises because of a bot: every misbehaviour becomes a Fault in the
game's log, and the game ends as the fault policy says (forfeit, or a random legal
action in the bot's place). Time is charged per call: the round trip as stamped when the
answer arrives, less the allowance, from a per-decision limit and a per-game bank.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from dataclasses import dataclass, replace

import trio

from arena.core.actions import Action
from arena.core.errors import IllegalActionError
from arena.core.events import Event, EventFeed
from arena.core.game import GameState
from arena.core.view import SeatView, seat_view
from arena.play.observer import GameObserver
from arena.play.process_cache import BotInstance, ProcessCache
from arena.procs.processes import describe_exit
from arena.records.gamelog import STALLED_AFTER, GameEnd, GameLog, Recorder, SeatBot, thrown_in_run
from arena.settings.faults import BotFault, Fault, FaultKind
from arena.settings.manifest import BotManifest
from arena.settings.spec import FaultPolicy, GameSpec, HouseSeat

START_GAME_TIMEOUT = 5.0
END_GAME_TIMEOUT = 2.0


@dataclass
class _Seat:
    seat: int
    manifest: BotManifest | HouseSeat
    instance: BotInstance | None = None
    bank: float = 0.0
    decisions: int = 0
    out: bool = False
    """Out of this game (crashed, start failed, bank spent): substituted from now on."""
    started: bool = False
    """StartGame was answered: only then does the bot hear EndGame."""


class _Forfeit(Exception):
    def __init__(self, seat: int) -> None:
        self.seat = seat


class GameRun:
    """The state of one game being played; play() drives it to the end."""

    def __init__(self, cache: ProcessCache, spec: GameSpec, observer: GameObserver | None = None
                 ) -> None:
        self.cache = cache
        self.spec = spec
        self.observer = observer
        self.game = GameState(spec.rules, spec.seed, spec.first_dealer)
        self.feed = EventFeed(self.game)
        self.rng = random.Random(spec.seed ^ 0x5EED)
        self.seats = [
            _Seat(s, m, bank=spec.time_control.bank) for s, m in enumerate(spec.seat_bots)
        ]
        self.log = GameLog(
            game_id=spec.game_id,
            rules=spec.rules,
            seed=spec.seed,
            first_dealer=spec.first_dealer,
            seats=(),
            started_ms=int(time.time() * 1000),
            table_id=self.table_id,
            time_control=spec.time_control,
        )
        self.recorder = Recorder(self.game, self.log)

    @property
    def table_id(self) -> str:
        return self.spec.table_id or self.spec.game_id

    def _fault(self, seat: _Seat, fault: BotFault) -> None:
        """Records the fault, then forfeits (raises _Forfeit) or marks the seat to be
        substituted, as the policy says."""
        substitute = self.spec.fault_policy is FaultPolicy.SUBSTITUTE
        kind, detail = fault.kind, fault.detail
        if seat.instance is not None:
            seat.instance.needs_restart = True
            process = seat.instance.process
            if process is not None:
                detail = process.as_told(detail)
                if kind is FaultKind.BOT_ERROR:
                    # A traceback is promised only where the SDK writes one: a bot in
                    # another language returned a status, and its log holds what it wrote.
                    traceback = ", with the traceback" if seat.instance.identity.sdk else ""
                    detail += f"\n(its log{traceback}: {process.log_path})"
        self.log.faults.append(
            Fault(kind, seat.seat, self.game.hand_number, seat.decisions, detail, substitute)
        )
        if kind in (FaultKind.CRASHED, FaultKind.DISCONNECTED, FaultKind.START_FAILED,
                    FaultKind.REFUSED_RULES):
            seat.out = True
        if not substitute:
            raise _Forfeit(seat.seat)

    async def play(self) -> GameLog:
        # Every seat is named from the start, so a game forfeited while starting its bots
        # still has a whole record (and counts in everyone's figures).
        self.log.seats = tuple(self._seat_bot(st.manifest, st.seat) for st in self.seats)
        observer = self.observer
        if observer is not None:
            observer.started(self.log)
            observer.happened((self.game.dealt,), False)
        try:
            await self._play_out()
        except BaseException:  # stopped (cancelled) or broken: the game has no end
            if observer is not None:
                observer.ended(None)
            raise
        if observer is not None:
            observer.ended(self.log)
        await self._end_game()
        self.log.finished_ms = int(time.time() * 1000)
        return self.log

    async def _play_out(self) -> None:
        try:
            await self._acquire()
            await self._start_game()
            while not self.game.over:
                await self._one_decision()
                if not self.game.over and thrown_in_run(self.game.results) >= STALLED_AFTER:
                    self.recorder.finish(GameEnd.STALLED, None)
                    self.feed.stalled()
                    return
            self.recorder.finish(GameEnd.COMPLETED, self.game.winner)
        except _Forfeit as f:
            self.recorder.finish(GameEnd.FORFEIT, 1 - f.seat % 2)
            self.feed.forfeit(f.seat % 2)

    async def _acquire(self) -> None:
        seats = list(self.log.seats)
        counts: dict[str, int] = {}
        wanted: list[tuple[_Seat, BotManifest, int]] = []
        for st in self.seats:
            m = st.manifest
            if isinstance(m, HouseSeat):
                continue
            wanted.append((st, m, counts.get(m.name, 0)))
            counts[m.name] = counts.get(m.name, 0) + 1
        family = self.spec.family
        await self.cache.make_room([(m, i) for _, m, i in wanted], family)
        for st, m, index in wanted:
            try:
                st.instance = await self.cache.instance(m, index, family)
            except BotFault as e:
                self._fault(st, e)
                continue
            said = st.instance.identity
            process = st.instance.process
            limits = process.seat_limits() if process is not None else None
            seats[st.seat] = replace(seats[st.seat], reported_name=said.name,
                                     reported_version=said.version, limits=limits)
            self.log.seats = tuple(seats)

    def _seat_bot(self, bot: BotManifest | HouseSeat, seat: int) -> SeatBot:
        """Who holds the seat, by the arena's own account: the manifest's name, version
        and digest, and whether it is sealed (a bot given by address never is)."""
        if isinstance(bot, HouseSeat):
            return SeatBot(seat, bot.name, "house", sandboxed=True)
        sealed = self.cache.settings.sandbox and bot.command is not None
        return SeatBot(seat, bot.name, bot.version, bot.digest, sandboxed=sealed)

    async def _start_game(self) -> None:
        names = [m.name for m in self.spec.seat_bots]
        failures: list[tuple[_Seat, BotFault]] = []

        async def start(st: _Seat) -> None:
            if st.out or st.instance is None:
                return
            try:
                async with st.instance.awake():
                    with trio.fail_after(START_GAME_TIMEOUT):
                        await st.instance.client.start_game(
                            self.table_id, st.seat, self.spec.rules, names,
                            self.spec.time_control,
                        )
                st.started = True
            except BotFault as e:
                failures.append((st, e))
            except trio.TooSlowError:
                failures.append((st, BotFault(FaultKind.TIMEOUT, "StartGame: no answer")))

        async with trio.open_nursery() as nursery:
            for st in self.seats:
                nursery.start_soon(start, st)
        for st, e in sorted(failures, key=lambda x: x[0].seat):
            self._fault(st, e)

    async def _one_decision(self) -> None:
        game = self.game
        st = self.seats[game.turn]
        view = seat_view(game, st.seat)
        events = self.feed.take(st.seat)
        action: Action | None = None
        think = 0.0
        if isinstance(st.manifest, HouseSeat):
            action = st.manifest.policy(view, self.rng)
        elif not st.out and st.instance is not None:
            try:
                action, think = await self._ask(st, view, events)
            except BotFault as e:
                self._fault(st, await diagnose_fault(st.instance, e))
        substituted = action is None
        if action is None:
            action = self.rng.choice(view.legal_actions)
        think_us = round(think * 1e6)
        try:
            happened = game.apply(action, st.seat)
        except IllegalActionError as e:
            self._fault(st, BotFault(FaultKind.ILLEGAL_ACTION, f"{e.action}: {e.reason}"))
            action = self.rng.choice(view.legal_actions)
            happened = game.apply(action, st.seat)
            substituted = True
        # The one stream of the game: recorded whole, and told to each seat as it may see.
        self.recorder.record(happened, think_us, substituted)
        self.feed.tell(happened)
        if self.observer is not None:
            self.observer.happened(happened, substituted)
        st.decisions += 1

    async def _ask(self, st: _Seat, view: SeatView, events: list[Event]) -> tuple[Action, float]:
        """The bot's action and the call's round trip; the bank is charged the round trip
        less the latency allowance."""
        tc = self.spec.time_control
        limit = min(tc.per_decision, st.bank)
        if limit <= 0:
            st.out = True
            raise BotFault(FaultKind.TIMEOUT, "the game's time bank is spent")
        assert st.instance is not None
        try:
            action, elapsed = await ask_in_time(st.instance, self.table_id, st.decisions, view,
                                                events, limit, st.bank, tc.allowance)
        except BotFault as e:
            if e.kind is FaultKind.TIMEOUT:  # no answer: the whole limit is spent
                st.bank -= limit
            raise
        charged = max(0.0, elapsed - tc.allowance)
        st.bank -= charged
        if charged > limit:
            raise BotFault(FaultKind.TIMEOUT, answered_late(elapsed, limit))
        return action, elapsed

    async def _end_game(self) -> None:
        async def end(st: _Seat) -> None:
            inst = st.instance
            if inst is None or st.out or (not inst.alive and inst.process is not None):
                return
            events = self.feed.take(st.seat)
            async with inst.awake():
                with trio.move_on_after(END_GAME_TIMEOUT) as scope:
                    try:
                        await inst.client.end_game(self.table_id, events)
                    except BotFault:
                        inst.needs_restart = True
            if scope.cancelled_caught:
                inst.needs_restart = True

        with trio.CancelScope(shield=True):
            async with trio.open_nursery() as nursery:
                for st in self.seats:
                    nursery.start_soon(end, st)


async def ask_in_time(inst: BotInstance, table_id: str, number: int, view: SeatView,
                      events: Sequence[Event], limit: float, bank: float, allowance: float
                      ) -> tuple[Action, float]:
    """One Decide call, timed as every game times it (and a replay, arena.check): the
    bot's action and the round trip, or BotFault(TIMEOUT) when no answer came within the
    limit and the latency allowance, said one way whichever deadline fired first (trio's,
    or gRPC's, which is given trio's). An answer past the limit is returned: what it
    costs is the caller's to charge (answered_late). The limit runs inside the bot's
    waking, so the wait for its freeze is never its time."""
    async with inst.awake():
        with trio.move_on_after(limit + allowance):
            try:
                return await inst.client.decide(table_id, number, view, events, limit, bank)
            except BotFault as e:
                if e.kind is FaultKind.TIMEOUT:
                    raise BotFault(FaultKind.TIMEOUT, _no_answer(limit, allowance)) from None
                raise
    raise BotFault(FaultKind.TIMEOUT, _no_answer(limit, allowance))


def _no_answer(limit: float, allowance: float) -> str:
    return f"no answer within {limit:.3f} s (plus {allowance:.2f} s allowance)"


def answered_late(elapsed: float, limit: float) -> str:
    """The timeout of an answer that came, but past the limit."""
    return f"answered after {elapsed:.3f} s; the limit was {limit:.3f} s"



BOT_ERROR_TAIL_WAIT = 0.2
"""Seconds for a bot's traceback, written just before its error status, to reach the log."""


async def diagnose_fault(inst: BotInstance, fault: BotFault) -> BotFault:
    """A call's fault, said as fully as the process can tell (a game's and a replay's
    alike). A lost connection is a crash when the process died: wait a moment for the exit
    to be seen, then say how it ended and what it last wrote. A bot that raised an error
    (bot_error) is quoted too: the end of its log holds the traceback."""
    proc = inst.process
    if proc is not None:
        proc.thaw()  # it was frozen as the call ended; a dying process must finish dying
    if fault.kind is FaultKind.BOT_ERROR and proc is not None:
        await trio.sleep(BOT_ERROR_TAIL_WAIT)
        tail = proc.log_tail(12)
        if tail.strip():
            return BotFault(fault.kind, f"{fault.detail}; its last output:\n{tail}")
        return fault
    if fault.kind is not FaultKind.DISCONNECTED or proc is None:
        return fault
    with trio.move_on_after(1.0):
        await proc.wait()
    if proc.running:
        return fault
    tail = proc.log_tail(10)
    how = describe_exit(proc.returncode or 0)
    over = proc.over_limit()
    if over is not None:
        how += f", over its {over} limit (counted over all its processes)"
    return BotFault(FaultKind.CRASHED, f"the bot's process {how}; its last output:\n{tail}")


async def play_game(cache: ProcessCache, spec: GameSpec, observer: GameObserver | None = None
                    ) -> GameLog:
    """Plays one game; `observer` (see arena.play.observer) hears it as it is played."""
    return await GameRun(cache, spec, observer).play()
