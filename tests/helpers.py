"""Shared helpers for tests that start real bot processes."""

from __future__ import annotations

import itertools
import os
import shutil
import time
import uuid
from pathlib import Path
from random import Random

import pytest

from arena.core.game import GameState
from arena.core.rules import RuleSet
from arena.records import files as records
from arena.records.gamelog import GameEnd, GameLog, Recorder, SeatBot
from arena.settings.manifest import load_manifest

TESTS = Path(__file__).resolve().parent
MISBEHAVE = TESTS / "bots" / "misbehave.py"
ROOT = TESTS.parent


def misbehaving_bot(tmp_path: Path, mode: str, env: dict[str, str] | None = None):
    """A manifest for tests/bots/misbehave.py in the given mode."""
    folder = tmp_path / f"bot-{mode}"
    folder.mkdir(exist_ok=True)
    shutil.copy(MISBEHAVE, folder / MISBEHAVE.name)  # a sealed bot reads only its folder
    lines = [
        f'name = "{mode}"',
        'version = "1"',
        f'command = ["{{python}}", "{MISBEHAVE.name}", "{mode}"]',
    ]
    if env:
        lines.append("env = { " + ", ".join(f'{k} = "{v}"' for k, v in env.items()) + " }")
    (folder / "bot.toml").write_text("\n".join(lines) + "\n")
    return load_manifest(str(folder))


def processes_with_mark(mark: str) -> list[str]:
    """Live (not zombie) processes whose environment holds EUCHRE_TEST_MARK=mark."""
    needle = f"EUCHRE_TEST_MARK={mark}".encode()
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            environ = Path(f"/proc/{entry}/environ").read_bytes()
            stat = Path(f"/proc/{entry}/stat").read_text()
            cmd = Path(f"/proc/{entry}/cmdline").read_bytes().replace(b"\0", b" ").decode()
        except OSError:
            continue
        if stat.rsplit(")", 1)[1].split()[0] == "Z" or int(entry) == os.getpid():
            continue
        if needle in environ.split(b"\0"):
            found.append(f"{entry}: {cmd}")
    return found


@pytest.fixture
def no_bot_left(monkeypatch):
    """Marks every process this test starts (through the environment they inherit) and
    fails the test if any of them is still alive at its end. Unlike a scan by command
    line, it is not fooled by other test runs on the same machine."""
    mark = uuid.uuid4().hex
    monkeypatch.setenv("EUCHRE_TEST_MARK", mark)
    yield mark
    deadline = time.monotonic() + 3.0
    left = processes_with_mark(mark)
    while left and time.monotonic() < deadline:  # an orphan may take a moment to be reaped
        time.sleep(0.1)
        left = processes_with_mark(mark)
    assert not left, f"processes left running: {left}"


def play_random_game(seed: int, rules: RuleSet, names: tuple[str, ...]) -> GameLog:
    """A complete, valid record of a game of random legal moves, made in-process (no bots),
    and read back through the wire format as `arena replay` reads one from disk. `names`
    holds one per seat, or repeats round the table (two names make two teams)."""
    game = GameState(rules, seed)
    rng = Random(seed)
    log = GameLog(
        game_id=f"html-{seed}",
        rules=rules,
        seed=seed,
        first_dealer=game.first_dealer,
        seats=tuple(SeatBot(s, names[s % len(names)], "1.0") for s in range(rules.seats)),
    )

    recorder = Recorder(game, log)
    while not game.over:
        action = rng.choice(game.legal_actions())
        recorder.apply(game.apply, action, game.turn, think_us=rng.randrange(1000))
    recorder.finish(GameEnd.COMPLETED, game.winner)
    return records.decode(records.encode(log))


def twins_apart(logs: list[GameLog]) -> None:
    """Fails if two games of one deal (a duplicate pair's twins) were ever played at once:
    each must start after the other ended (arena.play.slots.Dispatch)."""
    by_seed: dict[int, list[GameLog]] = {}
    for log in logs:
        by_seed.setdefault(log.seed, []).append(log)
    for seed, games in by_seed.items():
        games.sort(key=lambda g: g.started_ms)
        for first, second in itertools.pairwise(games):
            assert second.started_ms >= first.finished_ms > 0, (
                f"deal {seed}: {second.game_id} started before {first.game_id} ended")
