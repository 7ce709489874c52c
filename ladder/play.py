"""Playing a ladder: the planned games that are not yet stored, each stored as it finishes.

Resuming is not a mode: every run opens the database, plans the whole ladder, and plays
what is missing, so a first run, a run after Ctrl-C and a run after kill -9 are the same
code. A game cut off by a stop is simply not stored and is played again, from its seed,
next time. Games are handed to the workers in schedule order; they finish in any order,
and each is committed the moment it finishes by one writer, in a thread of its own, so
that no fsync ever holds up the games (the game loop and gRPC wake-ups run on trio's
thread).

Stopping: Ctrl-C and SIGTERM both cancel the workers, which stop every bot process; what
was committed stays, and the run is marked 'interrupted'.
"""

from __future__ import annotations

import contextlib
import math
import sqlite3
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Protocol

import trio

from arena.gamelog import GameLog
from arena.manifest import BotManifest
from arena.plan import PlannedGame, game_spec
from arena.runner import run_games, run_until_signal
from arena.spec import GameSpec
from ladder.config import LadderConfig
from ladder.schedule import plan_ladder
from ladder.standings import compute_standings, snapshot_lines
from ladder.store import GameRow, Store


class RunObserver(Protocol):
    def started(self, *, title: str, total: int, done: int, rows: Sequence[GameRow],
                bots: Sequence[str]) -> None: ...

    def game_done(self, row: GameRow) -> None: ...

    def finished(self) -> None: ...


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
) -> RunSummary:
    """Plays the ladder's missing games into its database. Ctrl-C or SIGTERM end it early
    with status 'interrupted' (KeyboardInterrupt may still escape from a Ctrl-C outside the
    games, e.g. while bots are registered); raises ConfigError (StoreError) when the
    database cannot be used as asked."""
    started = time.monotonic()
    with Store.open(cfg.database, write=True, fresh=fresh) as store:
        key = store.bind_settings(cfg.name, cfg.settings())
        versions = store.register_bots([b.manifest for b in cfg.bots], new_versions=new_versions)
        labels = {b.name: versions[b.name].label for b in cfg.bots}
        manifests = {labels[b.name]: replace(b.manifest, name=labels[b.name]) for b in cfg.bots}
        planned = plan_ladder(cfg, key, [labels[n] for n in cfg.bot_names])
        finished = store.finished_ids()
        todo = [g for g in planned if g.game_id not in finished]
        bot_ids = store.bot_ids()
        concurrency = max(1, min(cfg.concurrency, len(todo)))
        run = store.start_run(planned=len(planned), to_play=len(todo), concurrency=concurrency)
        rows = store.games()
        every = checkpoint_every or max(100, len(planned) // 20)
        summary = RunSummary(
            planned=len(planned), already=len(planned) - len(todo), played=0, faults=0,
            elapsed=0.0, status="interrupted", labels=labels,
        )
        by_id = {g.game_id: g for g in todo}

        def store_game(spec: GameSpec, log: GameLog) -> GameRow | None:
            """In the writer thread: the commit (with its fsync), and a snapshot of the
            standings every so often, never on trio's thread."""
            row = store.record_game(by_id[spec.game_id], log, bot_ids, run)
            if row is not None:
                rows.append(row)
                if (summary.played + 1) % every == 0:
                    with contextlib.suppress(sqlite3.Error):  # the next commit will tell
                        _snapshot(store, run, rows)
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
                yield _spec(cfg, game, manifests)

        if observer is not None:
            observer.started(title=cfg.name, total=len(planned), done=summary.already,
                             rows=rows, bots=[labels[n] for n in cfg.bot_names])
        try:
            if todo:
                summary.stopped_by = trio.run(_play, cfg, specs, concurrency, store_game, stored)
            summary.status = "interrupted" if summary.stopped_by else "complete"
        finally:
            summary.elapsed = time.monotonic() - started
            if observer is not None:
                observer.finished()
            with contextlib.suppress(sqlite3.Error):
                store.finish_run(run, summary.status)
                _snapshot(store, run, rows)
    return summary


def _spec(cfg: LadderConfig, game: PlannedGame, manifests: Mapping[str, BotManifest]) -> GameSpec:
    return game_spec(game, manifests, rules=cfg.rules, time_control=cfg.time_control,
                     fault_policy=cfg.fault_policy)


async def _play(cfg: LadderConfig, specs: Callable[[], Iterator[GameSpec]], concurrency: int,
                store_game: Callable[[GameSpec, GameLog], GameRow | None],
                stored: Callable[[GameRow | None, GameLog], None]) -> str | None:
    """Plays the games, storing each as it finishes; returns the name of the signal that
    stopped them, or None. Raises what storing raised (a full disk, a broken file), once
    every game is stopped: playing on without storing would waste the night.

    Finished games go through a channel to one writer task, which commits each in a
    worker thread; the writer outlives a stop, so every game that finished is stored."""
    send, receive = trio.open_memory_channel[tuple[GameSpec, GameLog]](math.inf)
    failure: list[BaseException] = []
    games = trio.CancelScope()

    async def writer() -> None:
        async with receive:
            async for spec, log in receive:
                if failure:
                    continue  # drain: nothing more is stored after a failure
                try:
                    row = await trio.to_thread.run_sync(store_game, spec, log)
                except Exception as e:
                    failure.append(e)
                    games.cancel()
                    continue
                stored(row, log)

    async def play() -> None:
        async with send:
            with games:
                await run_games(
                    specs(), rules=cfg.rules, concurrency=concurrency, log_dir=cfg.logs,
                    on_done=lambda spec, log: send.send_nowait((spec, log)),
                    transport=cfg.transport, sandbox=cfg.sandbox, caps=cfg.caps,
                    fresh_processes=cfg.fresh_processes,
                )

    stopped_by: str | None = None
    async with trio.open_nursery() as nursery:
        nursery.start_soon(writer)

        stopped_by = await run_until_signal(play)
    if failure:
        raise failure[0]
    return stopped_by


def _snapshot(store: Store, run: int, rows: Sequence[GameRow]) -> None:
    st = compute_standings(rows)
    lines = snapshot_lines(st)
    if lines:
        store.save_ratings(run, lines)
