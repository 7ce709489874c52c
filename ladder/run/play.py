"""Playing a ladder: the planned games that are not yet stored, each stored as it finishes.

Resuming is not a mode: every run opens the database, plans the whole ladder, and plays
what is missing, so a first run, a run after Ctrl-C and a run after kill -9 are the same
code. A game cut off by a stop is simply not stored and is played again, from its seed,
next time. Games are handed to the game slots in schedule order; they finish in any
order, and each is committed the moment it finishes by one writer, off trio's thread (on
one of trio's own, arena.threads.bridges.in_thread), so that no fsync ever holds up the games
(the game loop and gRPC wake-ups run on trio's thread). The same call, once a game is
committed, counts it in the running standings
(ladder.rating.running: constant work a game, however many are stored), refreshes the live view
and now and then stores a snapshot of the ratings; a game counts as done (progress,
on_game) only after its commit. Stored games are read once, at the start, one row at a
time: the run keeps tallies, never every game, so its memory does not grow all night.

Stopping: Ctrl-C and SIGTERM both cancel the game slots, which stop every bot process; what
was committed stays, and the run is marked 'interrupted'. A gauntlet with an SPRT also
stops, 'complete', once its test accepts a hypothesis (ladder.schedule.sprt_watch): no game is
handed out after that, the games still being played are stopped, and the decision is
stored, so a resumed run (or one with more --games) has nothing left to play.
"""

from __future__ import annotations

import contextlib
import math
import sqlite3
import sys
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Protocol

import trio

from arena.play.observer import Observe
from arena.play.runner import run_games, run_until_signal
from arena.records.gamelog import GameLog
from arena.settings.faults import FaultKind
from arena.settings.manifest import BotManifest
from arena.settings.plan import PlannedGame, game_spec
from arena.settings.spec import GameSpec
from arena.threads.bridges import in_thread
from ladder.config.ladder_file import GAUNTLET, LadderConfig, sprt_settings
from ladder.rating.running import RunningStandings
from ladder.rating.sprt import SprtState
from ladder.rating.standings import snapshot_lines
from ladder.schedule.pairings import plan_ladder
from ladder.schedule.sprt_watch import SprtWatch
from ladder.store.database import GameRow, Store


class RunObserver(Protocol):
    def started(self, *, title: str, total: int, done: int, standings: RunningStandings,
                bots: Sequence[str]) -> None:
        """Before any game; `standings` counts the games already stored, and every game
        stored from now on (read it only in game_stored and finished)."""

    def game_stored(self, row: GameRow) -> None:
        """In the writer thread, right after the game's commit, once the standings count
        it: the place for work that grows with the standings (never trio's thread)."""

    def game_done(self, row: GameRow) -> None:
        """In trio's thread, once the game is stored: keep it short."""

    def finished(self) -> None:
        """After the last game, every thread of the run done."""


@dataclass
class RunSummary:
    planned: int
    """Games in the ladder's plan."""
    already: int
    """Of those, stored before this run."""
    played: int
    """Stored by this run."""
    faults: int
    elapsed: float
    status: str
    """'complete', or 'interrupted' (Ctrl-C, SIGTERM, or an error while storing)."""
    labels: dict[str, str]
    """Ladder name -> the name it is rated under (name@vN for a new version)."""
    stopped_by: str | None = None
    sprt: SprtState | None = None
    """A gauntlet's test, where it stands at the end of the run."""
    sprt_decided_before: bool = False
    """The test had decided before this run, which therefore played nothing."""
    suspended: tuple[str, ...] = ()
    """Bots suspended by this run (Suspensions), whose games were left unplayed."""

    @property
    def complete(self) -> bool:
        return self.status == "complete"


def run_ladder(
    cfg: LadderConfig,
    *,
    fresh: bool = False,
    new_versions: bool = False,
    observer: RunObserver | None = None,
    checkpoint_every: int | None = None,
    on_game: Callable[[GameRow, GameLog], None] | None = None,
    observe: Observe | None = None,
) -> RunSummary:
    """Plays the ladder's missing games into its database. Ctrl-C or SIGTERM end it early
    with status 'interrupted' (KeyboardInterrupt may still escape from a Ctrl-C outside the
    games, e.g. while bots are registered); raises ConfigError (StoreError) when the
    database cannot be used as asked. `observe` hears each game as it is played
    (arena.play.observer)."""
    started = time.monotonic()
    with Store.open(cfg.database, write=True, fresh=fresh) as store:
        key = store.bind_settings(cfg.name, cfg.settings())
        versions = store.register_bots([b.manifest for b in cfg.bots], new_versions=new_versions)
        labels = {b.name: versions[b.name].label for b in cfg.bots}
        manifests = {labels[b.name]: replace(b.manifest, name=labels[b.name]) for b in cfg.bots}
        planned = plan_ladder(cfg, key, [labels[n] for n in cfg.bot_names])
        finished = store.finished_ids()
        todo = [g for g in planned if g.game_id not in finished]
        total = len(planned)
        already = total - len(todo)
        watch = _sprt_watch(cfg, store, planned, labels)
        del planned, finished  # a long ladder's plan is large: keep what is left to play
        frontier = _Frontier(todo)
        standings = RunningStandings(duplicate=cfg.duplicate)
        _catch_up(store, standings, watch, frontier)
        decided_before = watch is not None and watch.decided is not None
        if decided_before:
            todo = []  # a finished test is never reopened, whatever --games says
        bot_ids = store.bot_ids()
        concurrency = max(1, min(cfg.concurrency, len(todo)))
        run = store.start_run(planned=total, to_play=len(todo), concurrency=concurrency)
        every = checkpoint_every or max(100, total // 20)
        summary = RunSummary(
            planned=total, already=already, played=0, faults=0,
            elapsed=0.0, status="interrupted", labels=labels,
            sprt=None if watch is None else watch.state, sprt_decided_before=decided_before,
        )
        by_id = {g.game_id: g for g in todo}
        stored_here = 0

        def store_game(spec: GameSpec, log: GameLog) -> GameRow | None:
            """In the writer thread: the commit (with its fsync), then the standings that
            count it, the live view's refresh and a snapshot every so often, never on
            trio's thread."""
            nonlocal stored_here
            row = store.record_game(by_id[spec.game_id], log, bot_ids, run)
            if row is not None:
                stored_here += 1
                standings.add(row)
                standings.settle(frontier.stored(row.seq))
                if watch is not None:
                    if watch.add(row.game_id, row.bot_a, row.bot_b, row.score_a) is not None:
                        _save_decision(store, watch, run)
                    summary.sprt = watch.state
                if observer is not None:
                    observer.game_stored(row)
                if stored_here % every == 0:
                    with contextlib.suppress(sqlite3.Error):  # the next commit will tell
                        _snapshot(store, run, standings)
            return row

        def stored(row: GameRow | None, log: GameLog) -> None:
            """Back in trio's thread, once the game is safely stored."""
            if row is None:  # pragma: no cover - the plan never holds a stored game
                return
            summary.played += 1
            summary.faults += row.faults
            if observer is not None:
                observer.game_done(row)
            if on_game is not None:
                on_game(row, log)

        def specs() -> Iterator[GameSpec]:
            for game in todo:
                if decided():
                    return
                yield _spec(cfg, game, manifests)

        def decided() -> bool:
            return watch is not None and watch.decided is not None

        if observer is not None:
            observer.started(title=cfg.name, total=total, done=summary.already,
                             standings=standings, bots=[labels[n] for n in cfg.bot_names])
        try:
            if todo:
                suspensions = Suspensions()
                summary.stopped_by = trio.run(_play, cfg, specs, concurrency, store_game, stored,
                                              decided, observe, suspensions)
                summary.suspended = tuple(sorted(suspensions.suspended))
            summary.status = "interrupted" if summary.stopped_by else "complete"
        finally:
            summary.elapsed = time.monotonic() - started
            if observer is not None:
                observer.finished()
            with contextlib.suppress(sqlite3.Error):
                store.finish_run(run, summary.status)
                _snapshot(store, run, standings)
    return summary


def _spec(cfg: LadderConfig, game: PlannedGame, manifests: Mapping[str, BotManifest]) -> GameSpec:
    return game_spec(game, manifests, rules=cfg.rules, time_control=cfg.time_control,
                     fault_policy=cfg.fault_policy)


async def _play(cfg: LadderConfig, specs: Callable[[], Iterator[GameSpec]], concurrency: int,
                store_game: Callable[[GameSpec, GameLog], GameRow | None],
                stored: Callable[[GameRow | None, GameLog], None],
                done: Callable[[], bool], observe: Observe | None = None,
                suspensions: Suspensions | None = None) -> str | None:
    """Plays the games, storing each as it finishes; returns the name of the signal that
    stopped them, or None. Raises what storing raised (a full disk, a broken file), once
    every game is stopped: playing on without storing would waste the night. Once `done()`
    says so (a decided SPRT), the games still being played are stopped.

    Finished games go through a channel to one writer task, which commits each on one
    of trio's threads (arena.threads.bridges.in_thread); the writer outlives a stop, so every
    game that finished is stored."""
    send, receive = trio.open_memory_channel[tuple[GameSpec, GameLog]](math.inf)
    failure: list[BaseException] = []
    games = trio.CancelScope()

    async def writer() -> None:
        async with receive:
            async for spec, log in receive:
                if failure:
                    continue  # drain: nothing more is stored after a failure
                try:
                    row = await in_thread(store_game, spec, log)
                except Exception as e:
                    failure.append(e)
                    games.cancel()
                    continue
                stored(row, log)
                if done():
                    games.cancel()

    suspensions = suspensions if suspensions is not None else Suspensions()

    def finished(spec: GameSpec, log: GameLog) -> None:
        for line in suspensions.count(log):
            print(f"ladder: {line}", file=sys.stderr, flush=True)
        if not suspensions.refused(log):
            send.send_nowait((spec, log))

    async def play() -> None:
        async with send:
            with games:
                await run_games(
                    suspensions.skip(specs()), rules=cfg.rules, concurrency=concurrency,
                    processes=cfg.processes, on_done=finished, executor=cfg.executor,
                    observe=observe,
                )

    stopped_by: str | None = None
    async with trio.open_nursery() as nursery:
        nursery.start_soon(writer)

        stopped_by = await run_until_signal(play)
    if failure:
        raise failure[0]
    return stopped_by


SUSPEND_AFTER = 3
"""Games in a row a bot failed to start in (each after its own restarts, arena.
process_cache) before the ladder stops giving it games for the rest of the run."""


class Suspensions:
    """Bots that keep failing to start are suspended for the rest of the run, with one
    line saying so, rather than forfeiting all night: their games are left unplayed (and
    unstored), so a later run, after the bot is fixed, plays them. A bot that refuses
    the ladder's rules, or lacks a feature they need (arena.core.features), is suspended
    at its first game: it was never seated, so that game is not stored either."""

    def __init__(self) -> None:
        self.in_a_row: dict[str, int] = {}
        self.suspended: set[str] = set()

    @staticmethod
    def refused(log: GameLog) -> bool:
        """Whether a bot of this game refused its rules: a game never played, not stored."""
        return any(f.kind is FaultKind.REFUSED_RULES for f in log.faults)

    def count(self, log: GameLog) -> list[str]:
        """Counts one finished game; returns the lines to print for bots suspended now."""
        lines = []
        for f in log.faults:
            name = log.seats[f.seat].name
            if f.kind is FaultKind.REFUSED_RULES and name not in self.suspended:
                self.suspended.add(name)
                lines.append(f"{name} suspended for the rest of this run: it cannot play "
                             f"these rules ({f.detail.splitlines()[0]}); its games are "
                             "left unplayed")
        failed = {log.seats[f.seat].name: f for f in log.faults
                  if f.kind is FaultKind.START_FAILED}
        for name in {s.name for s in log.seats if s.version != "house"}:
            if name not in failed:
                self.in_a_row[name] = 0
                continue
            self.in_a_row[name] = self.in_a_row.get(name, 0) + 1
            if self.in_a_row[name] == SUSPEND_AFTER and name not in self.suspended:
                self.suspended.add(name)
                why = failed[name].detail.splitlines()[0]
                lines.append(f"{name} suspended for the rest of this run: it failed to start "
                             f"in {SUSPEND_AFTER} games in a row ({why}); its other games "
                             f"are left to play once it starts")
        return lines

    def skip(self, specs: Iterator[GameSpec]) -> Iterator[GameSpec]:
        for spec in specs:
            if not any(getattr(b, "name", None) in self.suspended for b in spec.seat_bots):
                yield spec


def _sprt_watch(cfg: LadderConfig, store: Store, planned: Sequence[PlannedGame],
                labels: Mapping[str, str]) -> SprtWatch | None:
    """The gauntlet's test, before the stored games are fed to it (_catch_up); None
    without [sprt]. A decision stored by an earlier run stands as it was stored."""
    if cfg.sprt is None or cfg.format != GAUNTLET or cfg.challenger is None:
        return None
    challenger = labels[cfg.challenger]
    watch = SprtWatch(cfg.sprt, challenger, planned, duplicate=cfg.duplicate)
    stored = store.sprt_decision(challenger)
    if stored is not None:
        watch.decided = watch.state = SprtState(stored["llr"], stored["lower"],
                                                stored["upper"], stored["units"],
                                                stored["result"])
        watch.decided_games = stored["games"]
    return watch


class _Frontier:
    """How far the schedule is settled: the first game to play that is not stored yet.
    No game before it can come any more, so the running standings fold in what is before
    it; a game this run never stores (cut off by a stop) holds it where it is."""

    def __init__(self, todo: Sequence[PlannedGame]) -> None:
        self._seqs = [g.seq for g in todo]  # in schedule order, as planned
        self._at = 0
        self._stored: set[int] = set()

    @property
    def seq(self) -> float:
        return self._seqs[self._at] if self._at < len(self._seqs) else math.inf

    def stored(self, seq: int) -> float:
        """One more game stored; returns the frontier."""
        self._stored.add(seq)
        while self._at < len(self._seqs) and self._seqs[self._at] in self._stored:
            self._stored.remove(self._seqs[self._at])
            self._at += 1
        return self.seq


def _catch_up(store: Store, standings: RunningStandings, watch: SprtWatch | None,
              frontier: _Frontier) -> None:
    """Reads the stored games once, one row at a time in schedule order, into the running
    standings and the gauntlet's test. A decision those games already made (a run stopped
    before it said so) is stored, credited to the last run that stored a challenger game."""
    decided = False
    last_run = 0
    for r in store.iter_games():
        standings.add(r)
        # Every stored game before this one is read, and every game to play is after the
        # frontier: all before the nearer of the two is settled.
        standings.settle(min(r.seq, frontier.seq))
        if watch is not None and watch.challenger in (r.bot_a, r.bot_b):
            last_run = max(last_run, r.run)
            decided = watch.add(r.game_id, r.bot_a, r.bot_b, r.score_a) is not None or decided
    standings.settle(frontier.seq)
    if decided:
        assert watch is not None
        _save_decision(store, watch, run=last_run)


def _save_decision(store: Store, watch: SprtWatch, run: int) -> None:
    state = watch.decided
    assert state is not None and state.result is not None
    store.save_sprt(watch.challenger, sprt_settings(watch.test), result=state.result,
                    llr=state.llr, lower=state.lower, upper=state.upper, units=state.units,
                    games=watch.decided_games, run=run)


def _snapshot(store: Store, run: int, standings: RunningStandings) -> None:
    lines = snapshot_lines(standings.standings())
    if lines:
        store.save_ratings(run, lines, games=standings.games)
