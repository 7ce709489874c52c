"""`arena replay-test`: a bot told a recorded game again is told exactly what its seat was
told in the game, agrees with its own games, differs from another bot's, and has each
fault said at its decision; bad input is refused before any bot starts."""

from __future__ import annotations

import base64
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import trio

from arena.check.replay_test import GameReplay, recorded_time_control, replay_games, seats_of
from arena.cli.main import main
from arena.records import files as records
from arena.records.gamelog import GameLog
from arena.records.replay import replay
from arena.settings.process import ProcessSettings
from arena.settings.spec import TimeControl
from arena.wire.gen.euchre.v1 import bot_pb2
from tests.helpers import misbehaving_bot, no_bot_left  # noqa: F401 - a fixture

pytestmark = pytest.mark.usefixtures("no_bot_left")


@pytest.fixture(scope="module")
def games(tmp_path_factory) -> tuple[Path, Path, list[Path]]:
    """Two games of heuristic against misbehave.py's `record` mode (which plays at random
    by the game's id and its own count of decisions, and writes every DecideRequest to its
    log): the match's folder, the record bot's folder, the records."""
    root = tmp_path_factory.mktemp("replay-test")
    root.chmod(0o755)  # read by sealed bots, which run as nobody under root
    bot = misbehaving_bot(root, "record")
    out = root / "match"
    proc = subprocess.run(
        [sys.executable, "-m", "arena.cli.main", "match", "heuristic", str(bot.source),
         "--games", "2", "--concurrency", "1", "--out", str(out),
         # not a match's defaults: the replay must take the record's own
         "--per-decision", "1.5", "--bank", "45"],
        capture_output=True, text=True, timeout=180)
    assert proc.returncode == 0, proc.stderr
    return out, bot.source.parent, sorted((out / "games").glob("*.pb"))


def arena(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "arena.cli.main", *map(str, args)],
                          capture_output=True, text=True, timeout=180,
                          env={**os.environ, "COLUMNS": "200"})


def seats_named(path: Path, name: str) -> list[int]:
    return [s.seat for s in records.read(path).seats if s.name == name]


def requests_in(folder: Path) -> dict[tuple[str, int, int], bot_pb2.DecideRequest]:
    """Every DecideRequest the record bots wrote to their logs, by game, seat, decision."""
    found = {}
    for log_file in folder.glob("*.log"):
        for line in log_file.read_text().splitlines():
            if line.startswith("REQUEST "):
                req = bot_pb2.DecideRequest.FromString(base64.b64decode(line.split()[1]))
                found[(req.game_id, req.view.seat, req.decision_number)] = req
    return found


def test_each_request_is_the_one_the_seat_was_sent_in_the_game(games, tmp_path):
    out, bot_folder, paths = games
    from arena.settings.manifest import load_manifest

    bot = load_manifest(str(bot_folder))
    logs = [records.read(p) for p in paths]
    done: list[GameReplay] = []
    settings = ProcessSettings(log_dir=tmp_path / "logs")
    plan = [(str(p), log, seats_of(bot, log)) for p, log in zip(paths, logs, strict=True)]
    assert all(log.time_control == TimeControl(1.5, 45.0) for log in logs)
    trio.run(replay_games, bot, plan, recorded_time_control, settings, done.append)
    played, told = requests_in(out / "logs"), requests_in(tmp_path / "logs")
    assert len(played) > 50 and told.keys() == played.keys()
    for key, req in played.items():
        again = told[key]
        # The bank is counted again from the recorded think times, to the microsecond.
        assert abs(again.time_left.bank_ms - req.time_left.bank_ms) <= 1, key
        assert again.time_left.decision_ms == req.time_left.decision_ms, key
        again.ClearField("time_left")
        req.ClearField("time_left")
        assert again == req, key  # the view, the legal actions, the events: all of it
    # it plays at random by the game's id and its count, so it agrees with itself
    assert [(g.decisions, g.agreed, g.findings, g.notes) for g in done] == [
        (g.decisions, g.decisions, [], []) for g in done]


@pytest.mark.parametrize("bot", ["heuristic", "record"])
def test_a_bot_agrees_with_its_own_games(games, bot):
    _, bot_folder, paths = games
    proc = arena("replay-test", "heuristic" if bot == "heuristic" else bot_folder, paths[0].parent)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    for path in paths:
        seats = ", ".join(map(str, seats_named(path, bot)))
        assert f"{path}: seats {seats}: " in proc.stdout and " 0 differ" in proc.stdout
    assert proc.stdout.splitlines()[-1].startswith("2 games: ")
    assert "bot logs:" not in proc.stderr  # removed when all went well


def test_another_bots_seats_differ_decision_by_decision(games):
    _, _, paths = games
    seats = seats_named(paths[0], "heuristic")
    proc = arena("replay-test", "random", paths[0], *(f"--seat={s}" for s in seats), "--json")
    assert proc.returncode == 1, proc.stdout + proc.stderr
    doc = json.loads(proc.stdout)
    game = doc["games"][0]
    assert game["seats"] == seats and doc["differ"] == game["differ"] > 0
    assert game["agreed"] + game["differ"] == game["decisions"] == doc["decisions"]
    # each finding names the decision as the record has it
    recorded = _recorded(records.read(paths[0]))
    for f in game["findings"]:
        assert f["fault"] is None and f["answered"] != f["recorded"]
        assert (f["hand"], f["phase"], f["recorded"]) == recorded[f["seat"], f["decision"]]
    text = arena("replay-test", "random", paths[0], *(f"--seat={s}" for s in seats))
    assert text.returncode == 1
    f = game["findings"][0]
    assert (f"  seat {f['seat']}, hand {f['hand']}, decision {f['decision']}, {f['phase']}: "
            f"the record has {f['recorded']}, the bot said {f['answered']}") in text.stdout
    assert f"{game['decisions']} decisions, {game['differ']} differ" in text.stdout


def _recorded(log: GameLog) -> dict[tuple[int, int], tuple[int, str, str]]:
    """(seat, decision number) -> (hand from 1, phase, action) of each recorded action."""
    counts: dict[int, int] = {}
    out = {}
    for point in replay(log):
        seat = point.logged.seat
        n = counts[seat] = counts.get(seat, -1) + 1
        out[seat, n] = (point.game.hand_number + 1, point.game.phase.value, str(point.logged.action))
    return out


@pytest.mark.parametrize(("mode", "said"), [
    # dies on its 5th decision: said there, the seat's later decisions not asked
    ("crash", [r"decision 4, \w+: the record has [^;]+; crashed: the bot's process exited "
               r"with code 3; its last output:\n +crashing on purpose",
               r"seat \d: \d+ decision\(s\) not asked: the bot was lost at hand \d+, decision 4"]),
    # never answers its 3rd decision: a timeout there, and asked again after it (every
    # later decision asked: none left out)
    ("hang", [r"decision 2, \w+: the record has [^;]+; timeout: no answer within 0\.500 s",
              r"^1 game: \d+ decisions, \d+ differ, 1 bot fault$"]),
    ("lacks-card", [r"decision \d+, play: the record has [^;]+; illegal_action: play \w+: "
                    r"seat \d does not hold \w+"]),
    # refused once, for both games of the same rules
    ("refuse", [r"~00000.pb: seats? [\d, ]+: \d+ decisions, 0 differ, 1 bot fault, \d+ not asked",
                r"seat \d, start: refused_rules: I only play 32-card decks\n",
                r"seat \d: \d+ decision\(s\) not asked: the bot refused the rules",
                r"start: refused_rules: I only play 32-card decks \(as for an earlier game of "
                r"these rules: not started again\)"]),
    # never listens: said once, and no other game is tried
    ("never-listen", [r"~00000.pb: .*\n  seat \d, start: start_failed: .*did not listen",
                      r"^1 game: \d+ decisions, 0 differ, 1 bot fault, \d+ not asked$"]),
])
def test_a_fault_is_said_at_its_decision_and_the_replay_goes_on(games, tmp_path, mode, said):
    import re

    _, _, paths = games
    bot = misbehaving_bot(tmp_path, mode)
    seat = seats_named(paths[0], "heuristic")[0]
    both = mode in ("refuse", "never-listen")
    # A short start limit only for the bot that never listens: another, slowed by a busy
    # machine, would fail to start instead of faulting where the test looks.
    start_limit = "0.5" if mode == "never-listen" else "10"
    proc = arena("replay-test", bot.source, paths[0].parent if both else paths[0],
                 "--seat", seat, "--per-decision", "0.5", "--start-limit", start_limit)
    assert proc.returncode == 3, proc.stdout + proc.stderr
    for pattern in said:
        assert re.search(pattern, proc.stdout, re.M), (pattern, proc.stdout)
    assert "bot fault" in proc.stdout.splitlines()[-1]
    assert "bot logs: " in proc.stderr and "Traceback" not in proc.stderr
    if mode == "never-listen":
        assert "1 game(s) not replayed: the bot did not start" in proc.stderr


def test_bad_input_is_refused_before_a_bot_starts(games, tmp_path, capsys):
    _, _, paths = games

    def refused(*args: object) -> str:
        assert main(["replay-test", *map(str, args)]) == 2
        err = capsys.readouterr().err
        assert len(err.strip().splitlines()) == 1 and "Traceback" not in err
        return err

    assert "no such file or folder" in refused("heuristic", tmp_path / "missing.pb")
    assert f"--seat 4: {paths[0]} has seats 0 to 3" in refused("heuristic", paths[0], "--seat", 4)
    assert "holds no bot.toml" in refused(tmp_path, paths[0])
    assert "'random' sat in no seat of this game: name the seats to ask with --seat N" in \
        refused("random", paths[0])
    msg = records.read(paths[0])
    msg.hands[0].actions.pop()  # a hand that no longer follows from its actions
    bad = tmp_path / "bad.pb"
    records.write(bad, msg)
    assert f"{bad}: the record disagrees with the rules" in refused("heuristic", bad)
    (tmp_path / "empty").mkdir()
    assert "no record files" in refused("heuristic", tmp_path / "empty")
    with pytest.raises(SystemExit):
        main(["replay-test", "heuristic", str(paths[0]), "--seat", "-1"])
