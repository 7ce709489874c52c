"""Live progress on the terminal while games run (rich)."""

from __future__ import annotations

from types import TracebackType

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    TaskProgressColumn,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

from arena.records.gamelog import GameLog


def progress_columns() -> tuple[ProgressColumn, ...]:
    """The progress line of matches and ladders: games done of total, games/s, ETA, faults."""
    return (
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TaskProgressColumn(),
        TextColumn("{task.fields[rate]}"),
        TimeElapsedColumn(),
        TextColumn("eta"),
        TimeRemainingColumn(),
        TextColumn("{task.fields[faults]}"),
    )


class GameProgress:
    """A progress bar: games done of total, games/s, ETA, faults so far."""

    def __init__(self, total: int, title: str, done: int = 0, console: Console | None = None):
        self.console = console or Console(stderr=True)
        self.progress = Progress(*progress_columns(), console=self.console, transient=False)
        self.task = self.progress.add_task(title, total=total, completed=done, rate="",
                                           faults="")
        self.faults = 0
        self.new_games = 0

    def __enter__(self) -> GameProgress:
        self.progress.__enter__()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.progress.__exit__(exc_type, exc, tb)

    def game_done(self, log: GameLog) -> None:
        self.faults += len(log.faults)
        self.new_games += 1
        task = self.progress.tasks[0]
        elapsed = task.elapsed or 0.0
        rate = f"{self.new_games / elapsed:.1f} games/s" if elapsed > 0 else ""
        faults = f"[red]{self.faults} faults" if self.faults else "no faults"
        self.progress.update(self.task, advance=1, rate=rate, faults=faults)
