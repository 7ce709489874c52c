"""`arena watch` and `ladder watch`: following games in the terminal while they are played.

The process that plays the games publishes each in a live file (arena.play.live_files); a
watcher is another process that only reads them, so any number may watch at once and none
can slow a game down. It follows the game in progress that started last (the most of it
still to come), or the one --game names, redrawing it as its file grows; when that game
ends it moves on to the next one in progress. It ends when nothing has been played for
--wait seconds (and says so), and on Ctrl-C, with status 0; with status 1 when it found
nothing to watch at all.

On a terminal the frame is redrawn in place; sent to a file or a pipe, each new state is
printed as a frame of its own, after the last, so the whole game can be read back.
"""

from __future__ import annotations

import time
from pathlib import Path

from rich.console import Console
from rich.live import Live

from arena.play.live_files import LiveGame, LiveHeader, live_files, read_header, writer_alive
from arena.settings.errors import EXIT_NO, EXIT_OK, ConfigError
from arena.views.watch_frame import ending, frame

POLL = 0.1
_ALIVE_EVERY = 1.0


def match_live_folder(ref: str | None, runs: Path = Path("runs")) -> Path:
    """The live folder of a match's output folder; without one, of the newest folder under
    `runs` where a game is being played, or else of the newest match there."""
    if ref is not None:
        folder = Path(ref).expanduser()
        if not folder.is_dir():
            raise ConfigError(f"{folder}: no such folder (give a match's output folder, "
                              "as 'arena match --out' names it; for a ladder, 'ladder watch "
                              "LADDER.toml')")
        if (folder / "games").is_dir() or (folder / "live").is_dir():
            return folder / "live"
        if folder.name == "live" or live_files(folder):
            return folder
        raise ConfigError(f"{folder}: not a match's output folder (it has no games/ or "
                          "live/ folder); for a ladder, use 'ladder watch LADDER.toml'")
    playing = [d for d in runs.glob("*/live") if live_files(d)]
    if playing:
        return max(playing, key=lambda d: d.stat().st_mtime)
    matches = sorted(d for d in runs.glob("match-*") if d.is_dir())
    if not matches:
        raise ConfigError(f"no match is being played under {runs}/: give the match's "
                          "output folder, 'arena watch DIR'")
    return matches[-1] / "live"


def watch(folder: Path, *, seat: int | None, game_id: str | None, wait: float,
          console: Console | None = None) -> int:
    """Follows the games published in `folder` until none is left; the exit status."""
    console = console or _console()
    return _Watcher(folder, seat, game_id, wait, console).run()


def _console() -> Console:
    c = Console()
    return c if c.is_terminal else Console(width=max(c.width, 120))


def _key(h: LiveHeader) -> tuple[str, str, int, int]:
    """One playing of a game (a game stopped and played again is a new one)."""
    return (h.game_id, h.host, h.pid, h.started_ms)


class _Watcher:
    def __init__(self, folder: Path, seat: int | None, game_id: str | None, wait: float,
                 console: Console) -> None:
        self.folder, self.seat, self.game_id, self.wait = folder, seat, game_id, wait
        self.console = console
        self.display: Live | None = None
        self.watched = 0
        self.seen: set[tuple[str, str, int, int]] = set()

    def run(self) -> int:
        try:
            if self.console.is_terminal:
                with Live(console=self.console, auto_refresh=False) as self.display:
                    return self._run()
            return self._run()
        except KeyboardInterrupt:
            self._say("stopped watching")
            return EXIT_OK
        finally:
            self.display = None

    def _run(self) -> int:
        idle_since = time.monotonic()
        while True:
            game = self._pick()
            if game is None:
                if time.monotonic() - idle_since >= self.wait:
                    return self._nothing_left()
                time.sleep(POLL)
                continue
            try:
                self._follow(game)
            finally:
                game.close()
            self.watched += 1
            if self.game_id is not None:
                return EXIT_OK
            idle_since = time.monotonic()

    def _say(self, text: str) -> None:
        self.console.print(text, soft_wrap=True, markup=False, highlight=False)

    def _nothing_left(self) -> int:
        where = self.folder
        if self.game_id is not None:
            self._say(f"no game {self.game_id!r} is being played in {where} "
                               f"(waited {self.wait:g} s); a finished game is replayed with "
                               "'arena replay'")
            return EXIT_NO
        if self.watched:
            self._say(f"nothing more is being played in {where}: watched "
                               f"{self.watched} game(s)")
            return EXIT_OK
        self._say(f"nothing is being played in {where} (waited {self.wait:g} s)")
        return EXIT_NO

    def _pick(self) -> LiveGame | None:
        """The game to follow next, opened: the one asked for, or the newest in progress."""
        best: tuple[int, Path] | None = None
        for path in live_files(self.folder):
            h = read_header(path)
            if h is None or _key(h) in self.seen or not writer_alive(h):
                continue
            if self.game_id is not None and h.game_id != self.game_id:
                continue
            if self.seat is not None and self.seat >= h.rules.seats:
                raise ConfigError(f"no seat {self.seat}: {h.game_id} has seats 0 to "
                                  f"{h.rules.seats - 1}")
            if best is None or h.started_ms > best[0]:
                best = (h.started_ms, path)
        if best is None:
            return None
        try:
            game = LiveGame.open(best[1])
        except OSError:  # it ended a moment ago
            return None
        game.poll()
        if game.header is None:  # pragma: no cover - read_header found one a moment ago
            game.close()
            return None
        self.seen.add(_key(game.header))
        return game

    def _follow(self, game: LiveGame) -> None:
        assert game.header is not None
        self._show(game)
        checked = time.monotonic()
        while not game.finished:
            time.sleep(POLL)
            if game.poll():
                self._show(game)
                continue
            if game.removed():
                game.problem = "its file was removed before the end of the game"
            elif time.monotonic() - checked >= _ALIVE_EVERY:
                checked = time.monotonic()
                if not writer_alive(game.header):
                    game.problem = "the process playing it is gone (killed?)"
        if self.display is not None or game.end is None:  # printed frames end with it
            self._say(ending(game))

    def _show(self, game: LiveGame) -> None:
        view = frame(game, self.seat)
        if self.display is not None:
            self.display.update(view, refresh=True)
        else:
            self.console.print(view)
