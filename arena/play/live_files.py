"""Games as they are played, published to files that a watcher in another process reads.

The process that plays a game writes one file for it, in a folder of the run (a ladder's
`NAME-live` beside its database, a match's `live/` in its output folder), through the
game's observer (arena.play.observer): LiveFolder is the observer factory a caller passes to
run_games(). The file is JSON lines, appended as the game goes:

    {"live": 1, "game": ID, "rules": {...}, "seed": S, "first_dealer": D, "seats": [...],
     "host": H, "pid": P, "started_ms": T}                      the header, once
    {"a": [seat, kind, suit, card, alone, to], "sub": false}    each action, in order
    {"end": "completed" | "forfeit" | "stalled" | "stopped", "winner": W, "scores": [A, B]}

The seed and the actions are the whole game: LiveGame replays them through the rules core,
as `arena replay` replays a record, so a watcher shows what the engine decided and a
seat's view is seat_view()'s, never a second account of the game.

What it promises, and how:

* **The game loop is not held up.** One write() of one line per action to a file opened
  when the game starts: no fsync, no lock, nothing but the page cache (a few microseconds;
  `bench/live.py` prints the figure beside the engine's own cost). A write that fails (a
  full disk) ends that game's file, never the game: the record is the game's account.
* **Many games, many processes.** One file per game, written by one process, read by any
  number of watchers; files are named after the game, so workers elsewhere that share the
  folder publish side by side. A reader takes only whole lines (each is one O_APPEND
  write) and keeps an unfinished last line until its end arrives.
* **Nothing left behind.** At its end a game writes its end line and removes its file; a
  watcher that has it open still reads to the end. A game stopped by Ctrl-C says
  "stopped" and is removed the same way. A process killed outright cannot: its files name
  its host and pid, so watchers ignore them once that pid is gone (writer_alive()), the
  next run's LiveFolder.sweep() removes them, and a game played again from its seed
  replaces its own.
* **Secret.** A file holds the game's seed, which deals every card, as the database and
  the records do: the folder is 0700, the files 0600, and a run publishes nothing in a
  folder that a sealed bot could read (readable_by()).
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
from collections import deque
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from arena.core.actions import Action, ActionKind
from arena.core.errors import RulesCoreError
from arena.core.game import (
    ActionTaken,
    GameEvent,
    GameState,
    HandDealt,
    HandEnded,
    TrickCompleted,
)
from arena.core.rules import RuleSet, rules_from_options
from arena.procs.sandbox import visible_inside
from arena.records.gamelog import GameLog, SeatBot
from arena.settings.errors import BadInput
from arena.settings.limits import Sandbox
from arena.settings.manifest import BotManifest
from arena.settings.spec import GameSpec

__all__ = [
    "LIVE_SUFFIX",
    "LiveEnd",
    "LiveFolder",
    "LiveFolderUnsafe",
    "LiveGame",
    "LiveGameFile",
    "LiveHeader",
    "live_files",
    "read_header",
    "readable_by",
    "writer_alive",
]

FORMAT = 1
LIVE_SUFFIX = ".live"
STOPPED = "stopped"
"""The end of a game that was stopped before it finished (it will be played again)."""
RECENT_ACTIONS = 8
_SAFE = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.~@+")


def _file_name(game_id: str) -> str:
    safe = "".join(c if c in _SAFE else "_" for c in game_id).lstrip(".") or "game"
    return safe + LIVE_SUFFIX


# --- writing -------------------------------------------------------------------------


@dataclass(frozen=True)
class LiveFolder:
    """Where a run publishes its games; called with a game's spec, it makes the game's
    observer. A plain value (a path), so it goes to workers in other processes as is."""

    path: Path

    @classmethod
    def for_run(cls, path: Path, bots: Iterable[BotManifest], *, sealed: bool) -> LiveFolder:
        """The folder a run publishes in, cleared of what killed runs left there. Raises
        LiveFolderUnsafe where a sealed bot could read it (unsealed bots are trusted, and
        could read it wherever it was)."""
        reader = readable_by(path, bots) if sealed else None
        if reader is not None:
            raise LiveFolderUnsafe(
                f"{path} is in what bot {reader!r} may read in its sandbox (its folder or "
                "its read_only paths), so games in progress are not published there; put "
                "the run's output elsewhere to watch them"
            )
        folder = cls(path)
        folder.sweep()
        return folder

    def __call__(self, spec: GameSpec) -> LiveGameFile:
        return LiveGameFile(self.path / _file_name(spec.game_id))

    def sweep(self) -> int:
        """Removes the files of games whose writer is gone (a run killed outright, on this
        host); returns how many."""
        removed = 0
        for path in live_files(self.path):
            header = read_header(path)
            if header is None or not writer_alive(header):
                with contextlib.suppress(OSError):
                    path.unlink()
                    removed += 1
        return removed

    def close(self) -> None:
        """At the end of a run: removes what dead writers left, then the folder if empty."""
        self.sweep()
        with contextlib.suppress(OSError):  # not empty (another run), or never made
            self.path.rmdir()


class LiveGameFile:
    """One game's file, written as the game is played (a GameObserver)."""

    __slots__ = ("_fd", "path")

    def __init__(self, path: Path) -> None:
        self.path = path
        self._fd: int | None = None

    def started(self, log: GameLog) -> None:
        header = {
            "live": FORMAT, "game": log.game_id, "rules": log.rules.to_options(),
            "seed": log.seed, "first_dealer": log.first_dealer,
            "seats": [[s.name, s.version, s.sandboxed] for s in log.seats],
            "host": socket.gethostname(), "pid": os.getpid(), "started_ms": log.started_ms,
        }
        try:
            folder = self.path.parent
            folder.mkdir(mode=0o700, parents=True, exist_ok=True)
            with contextlib.suppress(FileNotFoundError):
                self.path.unlink()  # a killed run's file of this game, played again
            self._fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_APPEND,
                               0o600)
        except OSError:
            self._fd = None
            return
        self._write(json.dumps(header, separators=(",", ":")) + "\n")

    def happened(self, events: Sequence[GameEvent], substituted: bool) -> None:
        if self._fd is None:
            return
        sub = "true" if substituted else "false"
        lines = [
            f'{{"a":{_action_json(e.seat, e.action)},"sub":{sub}}}\n'
            for e in events if isinstance(e, ActionTaken) and e.action is not None
        ]
        if lines:
            self._write("".join(lines))

    def ended(self, log: GameLog | None) -> None:
        if self._fd is None:
            return
        if log is None:
            end: dict[str, Any] = {"end": STOPPED}
        else:
            end = {"end": log.end.value if log.end else STOPPED, "winner": log.winning_team,
                   "scores": list(log.final_scores)}
        self._write(json.dumps(end, separators=(",", ":")) + "\n")
        self._close()

    def _write(self, text: str) -> None:
        assert self._fd is not None
        data = text.encode()
        try:
            if os.write(self._fd, data) == len(data):
                return
        except OSError:
            pass
        self._close()  # a short or failed write: this game publishes no more

    def _close(self) -> None:
        """Removes the file first: a watcher reading it keeps its open copy to the end."""
        fd, self._fd = self._fd, None
        with contextlib.suppress(OSError):
            self.path.unlink()
        if fd is not None:
            os.close(fd)


def _action_json(seat: int, a: Action) -> str:
    suit = "null" if a.suit is None else int(a.suit)
    card = "null" if a.card is None else a.card
    to = "null" if a.seat is None else a.seat
    return f"[{seat},{int(a.kind)},{suit},{card},{'true' if a.alone else 'false'},{to}]"


class LiveFolderUnsafe(BadInput):
    """A sealed bot could read the folder: nothing is published there."""


def readable_by(folder: Path, bots: Iterable[BotManifest]) -> str | None:
    """The name of the first sealed bot whose sandbox could read `folder` (it is in the
    bot's folder or a path its manifest lets it read), or None: where live files may go."""
    target = folder.resolve()
    for bot in bots:
        if bot.command is not None and visible_inside(target, Sandbox(read_only=bot.read_only),
                                                      bot.cwd):
            return bot.name
    return None


# --- reading -------------------------------------------------------------------------


class LiveFileError(BadInput):
    """A live file that cannot be followed (not one, or not this format)."""


@dataclass(frozen=True)
class LiveHeader:
    game_id: str
    rules: RuleSet
    seed: int
    first_dealer: int
    seats: tuple[SeatBot, ...]
    host: str
    pid: int
    started_ms: int


@dataclass(frozen=True)
class LiveEnd:
    how: str
    """'completed', 'forfeit', 'stalled' (a draw: hands thrown in without end) or
    'stopped' (the run was interrupted)."""
    winner: int | None = None
    scores: tuple[int, int] = (0, 0)

    @property
    def stopped(self) -> bool:
        return self.how == STOPPED


def live_files(folder: Path) -> list[Path]:
    """The live files in a folder (none when it does not exist)."""
    try:
        return sorted(p for p in folder.iterdir() if p.name.endswith(LIVE_SUFFIX))
    except OSError:
        return []


def writer_alive(header: LiveHeader) -> bool:
    """Whether the process writing a game may still be playing it: on this host, its pid
    is alive; on another, it cannot be told from here, and is taken to be."""
    if header.host != socket.gethostname():
        return True
    try:
        os.kill(header.pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # someone else's process: alive
        return True
    return True


def _parse_header(line: bytes) -> LiveHeader:
    try:
        h = json.loads(line)
        if h.get("live") != FORMAT:
            raise LiveFileError(f"not a live file of format {FORMAT}")
        seats = tuple(SeatBot(i, str(name), str(version), sandboxed=bool(sealed))
                      for i, (name, version, sealed) in enumerate(h["seats"]))
        return LiveHeader(str(h["game"]), rules_from_options(h["rules"]), int(h["seed"]),
                          int(h["first_dealer"]), seats, str(h["host"]), int(h["pid"]),
                          int(h["started_ms"]))
    except LiveFileError:
        raise
    except (ValueError, KeyError, TypeError, AttributeError, RulesCoreError) as e:
        raise LiveFileError(f"unreadable header: {e}") from None


def read_header(path: Path) -> LiveHeader | None:
    """A file's header, or None when it has none yet or cannot be read."""
    try:
        with path.open("rb") as f:
            line = f.readline()
    except OSError:
        return None
    if not line.endswith(b"\n"):
        return None
    try:
        return _parse_header(line)
    except LiveFileError:
        return None


@dataclass
class LiveGame:
    """One game's live file, followed: each poll() reads what was appended and plays it
    through the rules core, so `game` is the game as far as it has been played."""

    path: Path
    header: LiveHeader | None = None
    game: GameState | None = None
    actions: int = 0
    """Actions played so far."""
    recent: deque[tuple[ActionTaken, bool]] = field(
        default_factory=lambda: deque(maxlen=RECENT_ACTIONS))
    """The last few actions of the hand (full information), and whether the arena played
    each for a faulted bot."""
    last_trick: TrickCompleted | None = None
    """The last trick completed, in this hand or the one before."""
    last_hand: HandEnded | None = None
    end: LiveEnd | None = None
    problem: str | None = None
    """Why the file cannot be followed further (it disagrees with the rules, say)."""
    _file: Any = None
    _rest: bytes = b""

    @classmethod
    def open(cls, path: Path) -> LiveGame:
        """Raises OSError when the file is gone (its game just ended)."""
        live = cls(path)
        live._file = path.open("rb")
        return live

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None

    @property
    def finished(self) -> bool:
        """Nothing more will come: it ended, was stopped, or cannot be followed."""
        return self.end is not None or self.problem is not None

    def removed(self) -> bool:
        """The file was removed (its game is over) and everything in it was read."""
        if self._file is None:
            return True
        try:
            return os.fstat(self._file.fileno()).st_nlink == 0 and not self._pending()
        except OSError:
            return True

    def _pending(self) -> bool:
        here = self._file.tell()
        return bool(os.fstat(self._file.fileno()).st_size > here)

    def poll(self) -> bool:
        """Reads and plays what was appended; True when anything changed."""
        if self._file is None or self.finished:
            return False
        data = self._file.read()
        if not data:
            return False
        lines = (self._rest + data).split(b"\n")
        self._rest = lines.pop()  # an unfinished line, or b""
        changed = False
        for line in lines:
            if not line or self.finished:
                continue
            changed = True
            try:
                self._take(line)
            except LiveFileError as e:
                self.problem = str(e)
        return changed

    def _take(self, line: bytes) -> None:
        if self.header is None:
            self.header = h = _parse_header(line)
            try:
                self.game = GameState(h.rules, h.seed, h.first_dealer)
            except (ValueError, RulesCoreError) as e:
                raise LiveFileError(f"cannot start the game: {e}") from None
            return
        assert self.game is not None
        try:
            msg = json.loads(line)
            if "end" in msg:
                scores = msg.get("scores") or [0, 0]
                self.end = LiveEnd(str(msg["end"]), msg.get("winner"), (scores[0], scores[1]))
                return
            seat, kind, suit, card, alone, to = msg["a"]
            action = Action(ActionKind(kind), suit, card, alone, to)
            substituted = bool(msg.get("sub"))
        except (ValueError, KeyError, TypeError) as e:
            raise LiveFileError(f"unreadable line {self.actions + 2}: {e}") from None
        try:
            events = self.game.apply(action, seat)
        except RulesCoreError as e:
            raise LiveFileError(f"action {self.actions} ({action}) breaks the rules: {e}") from None
        self.actions += 1
        for event in events:
            if isinstance(event, ActionTaken):
                self.recent.append((event, substituted))
            elif isinstance(event, TrickCompleted):
                self.last_trick = event
            elif isinstance(event, HandEnded):
                self.last_hand = event
            elif isinstance(event, HandDealt):
                self.recent.clear()

