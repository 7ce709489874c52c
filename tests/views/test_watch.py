"""Watching games while they are played: the live files a run publishes (one per game,
written by the game loop's observer, removed at the game's end), and `ladder watch` /
`arena watch`, separate processes that follow them, with every seat's cards or with one
seat's view, and end cleanly."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from random import Random

import pytest
import trio
from rich.console import Console

from arena.cli.watch import watch
from arena.core.cards import card_label
from arena.core.game import GameState
from arena.core.rules import preset
from arena.core.view import seat_view
from arena.play.live_files import (
    LiveFolder,
    LiveFolderUnsafe,
    LiveGame,
    LiveGameFile,
    live_files,
)
from arena.play.runner import run_games
from arena.records.gamelog import GameEnd, GameLog, SeatBot
from arena.settings.manifest import load_manifest
from arena.settings.process import ProcessSettings
from arena.settings.spec import GameSpec
from ladder.config.ladder_file import live_folder, load_ladder
from ladder.store.database import Store
from tests.helpers import ROOT, no_bot_left
from tests.ladder.test_ladder_run import write_ladder

__all__ = ["no_bot_left"]

TITLE = re.compile(r"^(\S+) · hand (\d+) · score (\d+)-(\d+) · action (\d+)")
SEAT_LINE = re.compile(r"^  seat (\d) (\S+) +(.*?)(?:  dealer)?(?:  sits out)?(?:  ← to act)?$")
LABEL = re.compile(r"(?:10|[2-9JQKA])[♣♦♥♠]²?|Joker")


# --- the files, without bots ---------------------------------------------------------


def _random_game(seed: int) -> tuple[GameLog, list[tuple]]:
    """A game of random legal actions, as the game loop would tell an observer of it."""
    rules = preset("standard")
    game = GameState(rules, seed, 0)
    log = GameLog("g~1", rules, seed, 0, tuple(SeatBot(s, f"bot{s % 2}", "1") for s in range(4)),
                  started_ms=1)
    rng = Random(seed)
    steps = []
    while not game.over:
        steps.append(game.apply(rng.choice(game.legal_actions()), game.turn))
    log.end, log.winning_team = GameEnd.COMPLETED, game.winner
    log.final_scores = (game.scores[0], game.scores[1])
    return log, steps


def test_a_live_file_is_the_game_replayed_line_by_line_and_is_removed_at_its_end(tmp_path):
    log, steps = _random_game(7)
    folder = LiveFolder(tmp_path / "live")
    writer = folder(GameSpec(log.game_id, log.rules, log.seed, 0, ()))
    writer.started(log)
    (path,) = live_files(tmp_path / "live")
    assert oct(path.stat().st_mode & 0o777) == "0o600"
    assert oct((tmp_path / "live").stat().st_mode & 0o777) == "0o700"
    reader = LiveGame.open(path)
    reader.poll()
    assert reader.header is not None and reader.header.seed == 7 and reader.actions == 0
    expected = GameState(log.rules, 7, 0)
    for n, events in enumerate(steps, start=1):
        writer.happened(events, substituted=False)
        for e in events:
            if getattr(e, "action", None) is not None:
                expected.apply(e.action, e.seat)
        if n % 17 == 0 or n == len(steps):
            assert reader.poll()
            assert reader.actions == n
            assert [sorted(h) for h in reader.game.hand.hands] == \
                [sorted(h) for h in expected.hand.hands]
    writer.ended(log)
    assert not path.exists(), "a finished game's file is removed"
    assert reader.poll(), "a reader that has the file open reads on to its end"
    assert reader.end is not None and reader.end.how == "completed"
    assert reader.end.winner == log.winning_team and reader.end.scores == log.final_scores
    assert reader.game.over
    reader.close()
    folder.close()
    assert not (tmp_path / "live").exists(), "the run's folder goes once it is empty"


def test_a_reader_waits_for_the_end_of_a_half_written_line(tmp_path):
    log, steps = _random_game(8)
    writer = LiveGameFile(tmp_path / "g.live")
    writer.started(log)
    reader = LiveGame.open(tmp_path / "g.live")
    reader.poll()
    whole = b'{"a":[1,0,null,null,false,null],"sub":false}\n'  # seat 1 passes
    assert steps[0][0].seat == 1 and steps[0][0].action.kind.name == "PASS"
    with open(tmp_path / "g.live", "ab") as f:
        f.write(whole[:20])
        f.flush()
        assert not reader.poll() or reader.actions == 0
        assert reader.actions == 0 and reader.problem is None
        f.write(whole[20:])
    assert reader.poll() and reader.actions == 1 and reader.problem is None
    reader.close()
    writer.ended(None)
    assert not (tmp_path / "g.live").exists()


def test_a_killed_runs_files_are_ignored_by_watchers_and_swept_by_the_next_run(tmp_path):
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True, check=True)
    log, steps = _random_game(9)
    folder = tmp_path / "live"
    writer = LiveGameFile(folder / "g~1.live")
    writer.started(log)
    writer.happened(steps[0], False)
    os.close(writer._fd)  # the process "dies": no end line, the file stays
    text = (folder / "g~1.live").read_text()
    (folder / "g~1.live").write_text(text.replace(f'"pid":{os.getpid()}',
                                                  f'"pid":{int(dead.stdout)}'))
    console = Console(file=open(os.devnull, "w"), width=120)  # noqa: SIM115
    try:
        assert watch(folder, seat=None, game_id=None, wait=0.3, console=console) == 1
    finally:
        console.file.close()
    assert live_files(folder), "a watcher never removes anything"
    LiveFolder.for_run(folder, [], sealed=True)
    assert not live_files(folder)


def test_no_live_files_where_a_sealed_bot_could_read_them(tmp_path):
    bot = tmp_path / "mybot"
    bot.mkdir()
    (bot / "bot.py").write_text("")
    (bot / "bot.toml").write_text('name = "mine"\nversion = "1"\ncommand = ["{python}", "bot.py"]\n')
    manifest = load_manifest(str(bot))
    with pytest.raises(LiveFolderUnsafe, match="mine"):
        LiveFolder.for_run(bot / "runs" / "live", [manifest], sealed=True)
    assert not (bot / "runs").exists()
    # Unsealed bots are trusted (they could read it anywhere); elsewhere is fine.
    LiveFolder.for_run(bot / "runs" / "live", [manifest], sealed=False)
    LiveFolder.for_run(tmp_path / "live", [manifest], sealed=True)


# --- the game loop's observer ------------------------------------------------------


class Recording:
    def __init__(self, calls: list, stop_after: int | None = None,
                 scope: trio.CancelScope | None = None) -> None:
        self.calls, self.stop_after, self.scope = calls, stop_after, scope

    def started(self, log):
        self.calls.append(("started", log.game_id, tuple(s.name for s in log.seats)))

    def happened(self, events, substituted):
        self.calls.append(("happened", tuple(events)))
        n = sum(c[0] == "happened" for c in self.calls)
        if self.stop_after is not None and n >= self.stop_after:
            self.scope.cancel()

    def ended(self, log):
        self.calls.append(("ended", log))


@pytest.mark.usefixtures("no_bot_left")
def test_the_game_loop_tells_its_observer_every_action_and_the_end_once(tmp_path):
    rand = load_manifest("random")
    spec = GameSpec("obs~1", preset("standard"), 11, 0, (rand,) * 4)
    calls: list = []
    logs: list[GameLog] = []
    processes = ProcessSettings(tmp_path / "l")
    trio.run(lambda: run_games([spec], rules=spec.rules, concurrency=1, processes=processes,
                               on_done=lambda s, log: logs.append(log),
                               observe=lambda s: Recording(calls)))
    (log,) = logs
    assert calls[0] == ("started", "obs~1", ("random",) * 4)
    assert calls[-1] == ("ended", log)
    actions = [e for c in calls if c[0] == "happened" for e in c[1]
               if type(e).__name__ == "ActionTaken"]
    assert len(actions) == sum(len(h.actions) for h in log.hands) > 20
    assert sum(c[0] == "ended" for c in calls) == 1

    # Stopped in the middle (Ctrl-C cancels the games): told so, with no record.
    stopped: list = []

    async def stop_midway() -> None:
        with trio.CancelScope() as scope:
            await run_games([spec], rules=spec.rules, concurrency=1, processes=processes,
                            on_done=lambda s, log: None,
                            observe=lambda s: Recording(stopped, stop_after=10, scope=scope))

    trio.run(stop_midway)
    assert stopped[-1] == ("ended", None)
    assert sum(c[0] == "ended" for c in stopped) == 1

    # A folder that cannot be made: nothing is published, and the game is played all the same.
    (tmp_path / "afile").write_text("")
    done: list[GameLog] = []
    trio.run(lambda: run_games([spec], rules=spec.rules, concurrency=1, processes=processes,
                               on_done=lambda s, log: done.append(log),
                               observe=LiveFolder(tmp_path / "afile" / "live")))
    assert done and done[0].end is GameEnd.COMPLETED


# --- a real ladder, watched from other processes -------------------------------------


def _frames(text: str) -> list[tuple[str, int, list[str]]]:
    """(game id, actions played, the frame's lines) of each frame printed."""
    frames: list[tuple[str, int, list[str]]] = []
    for line in text.splitlines():
        m = TITLE.match(line)
        if m:
            frames.append((m.group(1), int(m.group(5)), []))
        elif frames:
            frames[-1][2].append(line)
    return frames


def _state_at(log: GameLog, actions: int) -> GameState:
    game = GameState(log.rules, log.seed, log.first_dealer)
    done = 0
    for hand in log.hands:
        for la in hand.actions:
            if done == actions:
                return game
            game.apply(la.action, la.seat)
            done += 1
    assert done == actions, f"the record has {done} actions, a frame showed {actions}"
    return game


def _labels(cards) -> list[str]:
    return sorted(card_label(c) for c in cards)


def _shown_hands(lines: list[str]) -> dict[int, list[str]]:
    hands = {}
    for line in lines:
        m = SEAT_LINE.match(line)
        if m:
            hands[int(m.group(1))] = sorted(LABEL.findall(m.group(3)))
    return hands


def _wait_for(predicate, timeout: float, what: str, proc: subprocess.Popen | None = None):
    deadline = time.monotonic() + timeout
    while not predicate():
        if proc is not None and proc.poll() is not None:
            raise AssertionError(f"the ladder ended before {what}")
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.05)


@pytest.mark.usefixtures("no_bot_left")
def test_ladder_watch_follows_games_of_a_ladder_run_in_another_process(tmp_path):
    path = write_ladder(tmp_path, ['"random"', '"heuristic"'], games=6, concurrency=2)
    cfg = load_ladder(path)
    live = live_folder(cfg.database)
    ladder = subprocess.Popen([sys.executable, "-m", "ladder.cli.main", "run", str(path), "--quiet"],
                              cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              text=True)
    watchers: dict[str, subprocess.Popen] = {}
    outputs = {}
    try:
        _wait_for(lambda: live_files(live), 90, "a game to be published", ladder)
        first = live_files(live)[0].name.removesuffix(".live")

        def start(name: str, *args: str) -> None:
            out = open(tmp_path / f"{name}.out", "w")  # noqa: SIM115 - closed below
            outputs[name] = out
            watchers[name] = subprocess.Popen(
                [sys.executable, "-m", "ladder.cli.main", "watch", str(path), "--wait", "4", *args],
                cwd=ROOT, stdout=out, stderr=subprocess.STDOUT)

        start("all")
        start("seat1", "--seat", "1")
        start("one", "--game", first, "--seat", "0")
        start("ctrl_c")
        _wait_for(lambda: " · action " in (tmp_path / "ctrl_c.out").read_text(), 30,
                  "a first frame")
        watchers["ctrl_c"].send_signal(signal.SIGINT)
        assert watchers["ctrl_c"].wait(timeout=10) == 0
        out, _ = ladder.communicate(timeout=180)
        assert ladder.returncode == 0, out
        for name, proc in watchers.items():
            assert proc.wait(timeout=30) == 0, (tmp_path / f"{name}.out").read_text()
    finally:
        for proc in [ladder, *watchers.values()]:
            if proc.poll() is None:  # pragma: no cover - only when an assertion failed
                proc.kill()
                proc.wait()
        for f in outputs.values():
            f.close()
    assert not live.exists(), "every game's file, and the folder, are gone"
    text = {name: (tmp_path / f"{name}.out").read_text() for name in watchers}
    for t in text.values():
        assert "Traceback" not in t, t
    assert text["ctrl_c"].rstrip().endswith("stopped watching")

    with Store.open(cfg.database) as store:
        records = {gid: store.record(gid) for gid in store.finished_ids()}

    # Every seat's cards: each frame shows each hand as the record has it at that action.
    frames = _frames(text["all"])
    games = {gid for gid, _, _ in frames}
    assert len(games) >= 2, "the watcher moves on to the next game when one ends"
    assert re.search(r"nothing more is being played in .*: watched \d+ game\(s\)", text["all"])
    for gid, actions, lines in frames:
        game = _state_at(records[gid], actions)
        shown = _shown_hands(lines)
        assert shown == {s: _labels(game.hand.hands[s]) for s in range(4)}, (gid, actions)

    # One seat: its own cards, the others' counted, and no card it may not see anywhere.
    for name, seat in (("seat1", 1), ("one", 0)):
        frames = _frames(text[name])
        assert frames, text[name]
        for gid, actions, lines in frames:
            game = _state_at(records[gid], actions)
            view = seat_view(game, seat)
            shown = _shown_hands(lines)
            assert shown[seat] == _labels(view.hand)
            assert all(shown[s] == [] for s in range(4) if s != seat)
            hand = game.hand
            hidden = {c for s in range(4) if s != seat for c in hand.hands[s]}
            hidden |= set(hand.kitty[1:])
            if hand.discarded is not None:
                hidden.add(hand.discarded)
            hidden -= view.visible_cards()
            # (the trick that ended the hand before is public, and may hold cards dealt again)
            current = "\n".join(ln for ln in lines if "hand before" not in ln)
            leaked = {card_label(c) for c in hidden} & set(LABEL.findall(current))
            assert not leaked, (name, gid, actions, leaked, current)
    frames = _frames(text["one"])
    assert {gid for gid, _, _ in frames} == {first}
    assert re.search(rf"{re.escape(first)}: over, team \d won \d+-\d+", text["one"])


@pytest.mark.usefixtures("no_bot_left")
def test_arena_watch_follows_a_match_given_its_output_folder(tmp_path):
    out = tmp_path / "m"
    match = subprocess.Popen(
        [sys.executable, "-m", "arena.cli.main", "match", "random", "heuristic", "--games", "2",
         "--concurrency", "1", "--out", str(out)],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        _wait_for(lambda: live_files(out / "live"), 90, "a game to be published", match)
        watcher = subprocess.run(
            [sys.executable, "-m", "arena.cli.main", "watch", str(out), "--seat", "2", "--wait", "4"],
            cwd=ROOT, capture_output=True, text=True, timeout=180)
        _, err = match.communicate(timeout=120)
    finally:
        if match.poll() is None:  # pragma: no cover - only when an assertion failed
            match.kill()
            match.wait()
    assert match.returncode == 0, err
    assert f"watch its games live: arena watch {out}" in err
    assert watcher.returncode == 0, watcher.stdout + watcher.stderr
    frames = _frames(watcher.stdout)
    assert frames and all(re.search(r"only what seat 2 \S+ may see", "\n".join(lines))
                          for _, _, lines in frames)
    assert "over, team" in watcher.stdout and "nothing more is being played" in watcher.stdout
    assert not (out / "live").exists()


def test_watch_says_what_is_wrong_in_one_line(tmp_path):
    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", *args], cwd=tmp_path, capture_output=True,
                              text=True, timeout=60)

    r = run("arena.cli.main", "watch", str(tmp_path / "nowhere"))
    assert r.returncode == 2 and "no such folder" in r.stderr and "Traceback" not in r.stderr
    (tmp_path / "notamatch").mkdir()
    r = run("arena.cli.main", "watch", str(tmp_path / "notamatch"))
    assert r.returncode == 2 and "not a match's output folder" in r.stderr
    r = run("arena.cli.main", "watch")  # no runs/ here
    assert r.returncode == 2 and "arena watch DIR" in r.stderr
    (tmp_path / "runs" / "match-20240101-000000" / "games").mkdir(parents=True)
    r = run("arena.cli.main", "watch", "--wait", "0.2")
    assert r.returncode == 1 and "nothing is being played in runs/match-20240101-000000" in r.stdout
    r = run("arena.cli.main", "watch", "--seat", "7")
    assert r.returncode == 2 and "invalid choice" in r.stderr
    ladder = write_ladder(tmp_path, ['"random"', '"heuristic"'], games=2)
    r = run("ladder.cli.main", "watch", str(ladder), "--wait", "0.2", "--game", "x~y~00000")
    assert r.returncode == 1 and "no game 'x~y~00000' is being played" in r.stdout
