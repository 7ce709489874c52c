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


def misbehaving_bot(tmp_path: Path, mode: str, env: dict[str, str] | None = None,
                    script: Path = MISBEHAVE):
    """A manifest for tests/bots/misbehave.py (or another script of tests/bots that takes
    a mode) in the given mode."""
    folder = tmp_path / f"bot-{mode}"
    folder.mkdir(exist_ok=True)
    shutil.copy(script, folder / script.name)  # a sealed bot reads only its folder
    lines = [
        f'name = "{mode}"',
        'version = "1"',
        f'command = ["{{python}}", "{script.name}", "{mode}"]',
    ]
    if env:
        lines.append("env = { " + ", ".join(f'{k} = "{v}"' for k, v in env.items()) + " }")
    (folder / "bot.toml").write_text("\n".join(lines) + "\n")
    return load_manifest(str(folder))


def command_bot(tmp_path: Path, name: str, command: list[str],
                files: dict[str, tuple[str, int]] | None = None):
    """A manifest whose command is given as it is (a missing program, one that may not be
    executed...), in a folder of its own holding `files`: name -> (text, mode)."""
    folder = tmp_path / name
    folder.mkdir()
    folder.chmod(0o755)  # a sealed bot runs as nobody when the tests run as root
    for file, (text, mode) in (files or {}).items():
        (folder / file).parent.mkdir(parents=True, exist_ok=True)
        (folder / file).write_text(text)
        (folder / file).chmod(mode)
    quoted = ", ".join(f'"{part}"' for part in command)
    (folder / "bot.toml").write_text(f'name = "{name}"\nversion = "1"\ncommand = [{quoted}]\n')
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


REV1 = TESTS / "bots" / "rev1"


def rev1_bot(tmp_path: Path):
    """A manifest for tests/bots/rev1: a bot whose code is generated from the protocol's
    first revision (its own proto/ folder, as the repository had it), into its folder, so
    that the sealed bot reads nothing of today's protocol."""
    from grpc_tools import protoc  # a test dependency, as for scripts/gen_proto.py

    folder = tmp_path / "bot-rev1"
    shutil.copytree(REV1, folder, ignore=shutil.ignore_patterns("__pycache__"))
    (folder / "gen").mkdir()
    include = Path(protoc.__file__).parent / "_proto"
    args = ["protoc", f"-I{folder / 'proto'}", f"-I{include}", f"--python_out={folder / 'gen'}",
            f"--grpc_python_out={folder / 'gen'}", "euchre/v1/bot.proto", "euchre/v1/types.proto"]
    assert protoc.main(args) == 0, "protoc failed on the first revision's proto files"
    (folder / "bot.toml").write_text(
        'name = "rev1"\nversion = "1"\ncommand = ["{python}", "bot.py", "{here}/gen"]\n')
    return load_manifest(str(folder))
