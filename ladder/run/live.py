"""What a running ladder shows: a progress bar and standings that refresh as games finish.

On a terminal it is one rich Live display. Overnight runs are often sent to a file
(nohup, a scheduler), where redrawing makes no sense, so there it prints a plain progress
line now and then instead, and the final standings at the end.

Standings are taken from the run's running tallies (ladder.rating.running), in the thread that
stores games, never trio's: at most once a second, and never more than a tenth of that
thread's time (a ladder of many bots has a slow fit), so the cost per game stays flat
however many games are stored. They are handed to rich's refresh thread as a finished
table, so drawing never reads half-updated data. A gauntlet's SPRT is in the table's
caption: its LLR against its bounds, as it moves.
"""

from __future__ import annotations

import time
from collections.abc import Sequence

from rich.console import Console, Group, RenderableType
from rich.live import Live
from rich.progress import Progress, TaskID
from rich.table import Table

from arena.views.ui import progress_columns
from ladder.rating.running import RunningStandings
from ladder.rating.sprt import SprtTest
from ladder.rating.standings import BY_PAIRS
from ladder.report.tables import standings_table
from ladder.store.database import GameRow

_QUIET_EVERY_SECONDS = 60.0
_MOST_BUSY = 0.1
"""The largest share of the writer thread's time the table may take."""


class LiveView:
    """Receives the run's events (see ladder.run.play.run_ladder) and shows them."""

    def __init__(self, console: Console | None = None, *, refresh_seconds: float = 1.0,
                 by: str = BY_PAIRS, prior: float = 2.0, challenger: str | None = None,
                 sprt: SprtTest | None = None) -> None:
        self.console = console or Console(stderr=True)
        self.refresh_seconds = refresh_seconds
        self.by = by
        self.prior = prior
        self.challenger = challenger
        """The gauntlet challenger's name in the ladder file (its label may be name@vN)."""
        self.sprt = sprt
        self.standings: RunningStandings | None = None
        self.bots: list[str] = []
        self.faults = 0
        self.new_games = 0
        self.total = 0
        self._started = 0.0
        self._next_table = 0.0
        self._last_line = 0.0
        self._table: Table | None = None
        self._live: Live | None = None
        self.progress = Progress(*progress_columns(), console=self.console)
        self.task: TaskID | None = None

    # --- run events ---------------------------------------------------------------------

    def started(self, *, title: str, total: int, done: int, standings: RunningStandings,
                bots: Sequence[str]) -> None:
        self.standings = standings
        self.bots = list(bots)
        self.total = total
        self._started = self._last_line = time.monotonic()
        self.task = self.progress.add_task(title, total=total, completed=done, rate="",
                                           faults="no faults")
        self._refresh_table(force=True)
        if self.console.is_terminal:
            # Transient: the final standings are printed once, to stdout, when the run ends;
            # only the progress bar is left on the screen.
            self._live = Live(self, console=self.console, refresh_per_second=4,
                              transient=True)
            self._live.start()
        else:
            self.console.print(f"{title}: {done} of {total} games already stored; "
                               f"{total - done} to play")

    def game_stored(self, row: GameRow) -> None:
        """In the writer thread: the table, when it is due."""
        self._refresh_table()

    def game_done(self, row: GameRow) -> None:
        self.new_games += 1
        self.faults += row.faults
        elapsed = time.monotonic() - self._started
        rate = f"{self.new_games / elapsed:.1f} games/s" if elapsed > 0 else ""
        faults = f"[red]{self.faults} faults" if self.faults else "no faults"
        assert self.task is not None
        self.progress.update(self.task, advance=1, rate=rate, faults=faults)
        if self._live is None and time.monotonic() - self._last_line >= _QUIET_EVERY_SECONDS:
            self._last_line = time.monotonic()
            task = self.progress.tasks[0]
            self.console.print(f"{int(task.completed)}/{self.total} games, {rate}, "
                               f"{self.faults} faults")

    def finished(self) -> None:
        self._refresh_table(force=True)
        if self._live is not None:
            self._live.stop()
            self._live = None
            self.console.print(self.progress)

    # --- drawing ------------------------------------------------------------------------

    def _refresh_table(self, force: bool = False) -> None:
        now = time.monotonic()
        if self.standings is None or (not force and now < self._next_table):
            return
        challenger = next((b for b in self.bots if self.challenger is not None and (
            b == self.challenger or b.startswith(f"{self.challenger}@v"))), None)
        st = self.standings.standings(by=self.by, bots=self.bots, prior=self.prior,
                                      challenger=challenger, sprt=self.sprt)
        self._table = standings_table(st)
        took = time.monotonic() - now
        self._next_table = now + max(self.refresh_seconds, took / _MOST_BUSY)

    def __rich__(self) -> Group:
        parts: list[RenderableType] = [self.progress]
        if self._table is not None:
            parts.append(self._table)
        return Group(*parts)
