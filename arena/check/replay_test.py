"""`arena replay-test BOT GAME`: a bot asked again at each decision of recorded games.

A record holds every action and, with its rules and seed, every deal, so what a seat was
told can be told again, in order: Hello with the game's rules, StartGame with the seat,
the bots around it and the time control, a DecideRequest at each of the seat's
decisions (its view, its legal actions, the events since its previous request) and
EndGame. All of it is made by what the game loop makes it with: the record replayed
through the rules core (arena.records.replay.walk), seat_view() and the EventFeed of
arena.core, the wire's client and the process cache; never by a second notion of what a
seat sees. Whatever the bot answers, the recorded action is played, so every later
request is the game's own.

So a bot that decides by what it is told agrees with its own games everywhere (a
regression test for a change to it), and another bot's seat shows where it would have
played otherwise.

The time control is the record's (or the command line's; a record written before
records kept it gets a match's), and the bank, which a record does not hold, is counted
down again from the recorded think times as the game loop charged them (a timeout, which
the record shows as a substituted action, is charged the whole limit). Each game gets new processes, as
a bot's answers should depend on what its game told it and nothing else.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import trio

from arena.core.actions import Action
from arena.core.errors import IllegalActionError
from arena.core.events import Event, EventFeed
from arena.core.game import GameState
from arena.core.hand import Phase
from arena.core.rules import RuleSet
from arena.core.view import SeatView, seat_view
from arena.play.game_loop import (
    END_GAME_TIMEOUT,
    START_GAME_TIMEOUT,
    answered_late,
    ask_in_time,
    diagnose_fault,
)
from arena.play.process_cache import BotInstance, ProcessCache
from arena.procs.processes import BotPool, open_bot_pool
from arena.records.gamelog import GameEnd, GameLog
from arena.records.replay import Point, walk
from arena.settings.errors import ArenaBug
from arena.settings.faults import BotFault, FaultKind
from arena.settings.manifest import BotManifest
from arena.settings.process import ProcessSettings
from arena.settings.spec import TimeControl

LOST = frozenset({FaultKind.CRASHED, FaultKind.DISCONNECTED, FaultKind.START_FAILED,
                  FaultKind.REFUSED_RULES})
"""Faults after which a seat has no bot to ask, as in the game loop: its later
decisions are counted as not asked."""


@dataclass(frozen=True)
class Decision:
    """A decision where the bot did not do what the record says, or faulted."""

    seat: int
    hand_number: int
    """From 0, as in the record (people read it from 1)."""
    decision_number: int
    """The seat's decision in the game, as DecideRequest.decision_number told it."""
    phase: Phase
    recorded: Action
    answered: Action | None
    """What the bot said: None when it gave no action (a timeout, a crash, an error)."""
    fault: BotFault | None
    """What the arena would have ruled against the answer: None for a legal one."""


@dataclass(frozen=True)
class SeatNote:
    """A fault of a seat's bot outside its decisions (its start, StartGame, EndGame), or
    the decisions it was not asked once it was lost."""

    seat: int
    call: str
    """"start", "StartGame", "EndGame", or "not asked"."""
    fault: BotFault | None
    """None for the decisions not asked (their cause is noted where it happened)."""
    not_asked: int = 0
    reason: str = ""
    """Why they were not asked."""


@dataclass
class GameReplay:
    """One record, replayed to the bot at some of its seats."""

    name: str
    """Where the record came from (its file)."""
    log: GameLog
    seats: tuple[int, ...]
    decisions: int = 0
    """The tested seats' decisions in the record."""
    agreed: int = 0
    not_compared: int = 0
    """Answered, but the record's action was the arena's own (substituted after a fault
    of the original bot), so there is nothing to compare it with."""
    not_asked: int = 0
    findings: list[Decision] = field(default_factory=list)
    notes: list[SeatNote] = field(default_factory=list)
    unstartable: bool = False
    """The bot did not start (or listen, or answer Hello): nothing later can be asked."""
    refusal: BotFault | None = None
    """The bot refused the game's rules (or lacks a feature they need)."""

    @property
    def differ(self) -> int:
        return sum(d.fault is None for d in self.findings)

    @property
    def faults(self) -> int:
        return sum(d.fault is not None for d in self.findings) + sum(
            n.fault is not None for n in self.notes)


@dataclass
class _Seat:
    seat: int
    bank: float
    instance: BotInstance | None = None
    decisions: int = 0
    lost: str | None = None
    """Why the seat has no bot to ask any more (a crash, a failed start): its later
    decisions are not asked."""
    not_asked: int = 0


def seats_of(bot: BotManifest, log: GameLog) -> tuple[int, ...]:
    """The seats the record's bot of the same name sat in."""
    return tuple(s.seat for s in log.seats if s.name == bot.name)


async def replay_games(bot: BotManifest, games: Sequence[tuple[str, GameLog, tuple[int, ...]]],
                       time_control: Callable[[GameLog], TimeControl],
                       processes: ProcessSettings, done: Callable[[GameReplay], None]) -> None:
    """Replays each (name, record, seats) to the bot in turn, calling `done` with each;
    `time_control` gives each game's (the record's own, see `recorded_time_control`).
    A bot that did not start is not started again; one that refused a game's rules is
    not asked them again."""
    refused: dict[RuleSet, BotFault] = {}
    async with open_bot_pool() as pool:
        for index, (name, log, seats) in enumerate(games):
            result = await replay_game(pool, bot, name, log, seats, time_control(log), processes,
                                       label=f"g{index}", refused=refused.get(log.rules))
            done(result)
            if result.unstartable:
                return
            if result.refusal is not None:
                refused[log.rules] = result.refusal


def recorded_time_control(log: GameLog, per_decision: float | None = None,
                          bank: float | None = None) -> TimeControl:
    """The time control the record's game was played under, with what the command line
    sets instead; a record that keeps none gets a match's default."""
    base = log.time_control or TimeControl()
    return TimeControl(base.per_decision if per_decision is None else per_decision,
                       base.bank if bank is None else bank, base.allowance)


async def replay_game(pool: BotPool, bot: BotManifest, name: str, log: GameLog,
                      seats: tuple[int, ...], tc: TimeControl, processes: ProcessSettings,
                      label: str = "g0", refused: BotFault | None = None) -> GameReplay:
    """The record `log` told again to new processes of `bot` at `seats` (one process a
    seat, as in a game: partners never share one), each answer judged and compared.
    `refused`: the bot's refusal of these rules, for an earlier game; it is not started."""
    result = GameReplay(name, log, seats)
    if refused is not None:
        result.refusal = refused
        result.notes.append(SeatNote(seats[0], "start", BotFault(
            refused.kind, f"{refused.detail} (as for an earlier game of these rules: not "
            "started again)")))
    cache = ProcessCache(pool, log.rules, processes, name=label)
    table = {s: _Seat(s, tc.bank) for s in seats}
    try:
        await _start(cache, bot, log, table, tc, result)
        feed = await _decisions(log, table, tc, result)
        await _end(log, feed, table, result)
    finally:
        await cache.close()
    for st in table.values():
        if st.not_asked:
            result.notes.append(SeatNote(st.seat, "not asked", None, st.not_asked,
                                         st.lost or ""))
    return result


def _table_id(log: GameLog) -> str:
    """The id the bots were told, as the game loop tells it (GameRun.table_id): a bot
    that seeds its choices by the game's id chooses as it did."""
    return log.table_id or log.game_id


async def _start(cache: ProcessCache, bot: BotManifest, log: GameLog, table: dict[int, _Seat],
                 tc: TimeControl, result: GameReplay) -> None:
    """Hello (in the process cache, with the record's rules) and StartGame, as the game
    loop sends them."""
    names = [s.name for s in log.seats]
    for index, st in enumerate(table.values()):
        # One failure to start, or refusal, stands for every seat: the same bot, the
        # same rules.
        if result.unstartable:
            st.lost = "the bot did not start"
            continue
        if result.refusal is not None:
            st.lost = "the bot refused the rules"
            continue
        try:
            st.instance = await cache.instance(bot, index)
        except BotFault as e:
            result.notes.append(SeatNote(st.seat, "start", e))
            if e.kind is FaultKind.REFUSED_RULES:
                result.refusal = e
                st.lost = "the bot refused the rules"
            else:
                result.unstartable = True
                st.lost = "the bot did not start"
            continue
        inst = st.instance
        fault: BotFault | None = None
        try:
            async with inst.awake():
                with trio.fail_after(START_GAME_TIMEOUT):
                    await inst.client.start_game(_table_id(log), st.seat, log.rules, names, tc)
        except BotFault as e:
            fault = await diagnose_fault(inst, e)
        except trio.TooSlowError:
            fault = BotFault(FaultKind.TIMEOUT, "StartGame: no answer")
        if fault is not None:
            inst.needs_restart = True
            result.notes.append(SeatNote(st.seat, "StartGame", fault))
            if fault.kind in LOST:
                st.lost = f"the bot was lost at StartGame ({fault.kind.value})"


async def _decisions(log: GameLog, table: dict[int, _Seat], tc: TimeControl,
                     result: GameReplay) -> EventFeed:
    """Asks the bot at each decision of its seats; returns the feed, holding what each
    seat has not been told yet."""
    feed: EventFeed | None = None
    for step in walk(log):
        if not isinstance(step, Point):
            if feed is not None:  # the first deal is the feed's own first event
                feed.tell((step,))
            continue
        if feed is None:
            feed = EventFeed(step.game)
        st = table.get(step.logged.seat)
        if st is None:
            continue
        view = seat_view(step.game, st.seat)
        events = feed.take(st.seat)
        number = st.decisions
        st.decisions += 1
        result.decisions += 1
        limit = min(tc.per_decision, st.bank)
        if limit <= 0 and st.lost is None:  # as in the game: the seat is out
            st.lost = "the game's time bank was spent, as the record counts it"
        if st.lost is not None or st.instance is None:
            st.not_asked += 1
            result.not_asked += 1
        else:
            await _judge(step, st, st.instance, view, events, number, limit, tc, result)
        st.bank -= _charged(log, step, number, limit, tc)
    if feed is None:  # a record without a single action
        feed = EventFeed(GameState(log.rules, log.seed, log.first_dealer, log.rules_edition))
    # How a game that did not end in play ends for the seats: as the game loop says it.
    if log.end is GameEnd.FORFEIT:
        feed.forfeit(1 - (log.winning_team or 0))
    elif log.end is GameEnd.STALLED:
        feed.stalled()
    return feed


async def _judge(step: Point, st: _Seat, inst: BotInstance, view: SeatView,
                 events: list[Event], number: int, limit: float, tc: TimeControl,
                 result: GameReplay) -> None:
    """One decision asked and its answer ruled as the game loop rules it."""
    logged = step.logged
    answer: Action | None = None
    fault: BotFault | None = None
    try:
        answer = await _ask(inst, _table_id(result.log), number, view, events, limit,
                            st.bank, tc.allowance)
    except BotFault as e:
        fault = await diagnose_fault(inst, e)
    if answer is not None and answer not in view.legal_actions:
        fault = BotFault(FaultKind.ILLEGAL_ACTION, f"{answer}: {_why_illegal(step, answer)}")
    if fault is None and answer is not None:
        if logged.substituted:
            result.not_compared += 1
        elif answer == logged.action:
            result.agreed += 1
            return
    if fault is not None:
        inst.needs_restart = True  # as after a fault in a game: no EndGame, not kept
    if fault is not None or (answer is not None and not logged.substituted):
        found = Decision(st.seat, step.game.hand_number, number, view.phase, logged.action,
                         answer, fault)
        result.findings.append(found)
        if fault is not None and fault.kind in LOST:
            st.lost = (f"the bot was lost at hand {found.hand_number + 1}, decision "
                       f"{number} ({fault.kind.value})")


async def _ask(inst: BotInstance, table_id: str, number: int, view: SeatView,
               events: Sequence[Event], limit: float, bank: float, allowance: float) -> Action:
    """The bot's action, timed as the game loop times it (ask_in_time); an answer past the
    limit is the timeout the game would have ruled."""
    action, elapsed = await ask_in_time(inst, table_id, number, view, events, limit, bank,
                                        allowance)
    if elapsed - allowance > limit:
        raise BotFault(FaultKind.TIMEOUT, answered_late(elapsed, limit))
    return action


def _why_illegal(step: Point, action: Action) -> str:
    """The rules core's own reason: an illegal action changes nothing in the game."""
    try:
        step.game.apply(action, step.logged.seat)
    except IllegalActionError as e:
        return e.reason
    raise ArenaBug(f"{action} is not among the legal actions, yet the rules took it")


def _charged(log: GameLog, step: Point, number: int, limit: float, tc: TimeControl) -> float:
    """What the game charged the seat's bank for this decision, from the record: the
    round trip less the allowance; a timeout (a substituted action with a timeout fault
    at this decision), the whole limit."""
    logged = step.logged
    if logged.substituted:
        timed_out = any(f.kind is FaultKind.TIMEOUT and f.seat == logged.seat
                        and f.decision_number == number for f in log.faults)
        return limit if timed_out and limit > 0 else 0.0
    return max(0.0, logged.think_us / 1e6 - tc.allowance)


async def _end(log: GameLog, feed: EventFeed, table: dict[int, _Seat],
               result: GameReplay) -> None:
    """EndGame with the events since each seat's last decision, to each bot the game
    loop would send it to: one still playing, without a fault."""
    for st in table.values():
        inst = st.instance
        if inst is None or st.lost is not None or (not inst.alive and inst.process is not None):
            continue
        events = feed.take(st.seat)
        fault: BotFault | None = None
        async with inst.awake():
            with trio.move_on_after(END_GAME_TIMEOUT) as scope:
                try:
                    await inst.client.end_game(_table_id(log), events)
                except BotFault as e:
                    fault = e
        if scope.cancelled_caught:
            fault = BotFault(FaultKind.TIMEOUT, f"EndGame: no answer in {END_GAME_TIMEOUT:g} s")
        if fault is not None:
            result.notes.append(SeatNote(st.seat, "EndGame", fault))
