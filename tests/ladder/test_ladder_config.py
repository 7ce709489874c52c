"""Ladder files: what a good one gives, and that every bad one is refused with a message
naming the file, the line and the key (through the real `ladder` command, too)."""

from __future__ import annotations

import subprocess
import sys
from dataclasses import fields, replace
from pathlib import Path

import pytest

from arena.core.rules import LoneDefender
from arena.settings.errors import ConfigError
from arena.settings.limits import DEFAULT_CAPS, Limits
from arena.settings.process import ProcessSettings
from arena.settings.spec import FaultPolicy
from ladder.config.ladder_file import GAUNTLET, ROUND_ROBIN, database_of, load_ladder, parse_ladder
from tests.helpers import ROOT

GOOD = """\
name = "club"
bots = [
    "random",
    { name = "random-b", bot = "random" },
    { name = "remote", address = "127.0.0.1:50999" },
]
games_per_pairing = 8
seed = 42
concurrency = 3
on_fault = "substitute"

[rules]
preset = "british"
target = 5

[time_control]
per_decision = 1.5
bank = 30
"""


def write(tmp_path: Path, text: str, name: str = "ladder.toml") -> Path:
    p = tmp_path / name
    p.write_text(text)
    return p


def test_a_good_file_gives_every_setting(tmp_path):
    cfg = load_ladder(write(tmp_path, GOOD))
    assert cfg.name == "club"
    assert cfg.bot_names == ("random", "random-b", "remote")
    # aliases rename the manifest, so records and standings use the ladder's name
    assert [b.manifest.name for b in cfg.bots] == ["random", "random-b", "remote"]
    assert cfg.bots[0].manifest.digest == cfg.bots[1].manifest.digest
    assert cfg.bots[2].manifest.address == "127.0.0.1:50999"
    assert cfg.bots[2].manifest.command is None
    assert cfg.format == ROUND_ROBIN and cfg.duplicate is True
    assert (cfg.games_per_pairing, cfg.seed, cfg.concurrency) == (8, 42, 3)
    assert cfg.rules.target == 5 and cfg.rules.joker and cfg.rules.lone_defender is LoneDefender.ALLOWED
    assert cfg.time_control.per_decision == 1.5 and cfg.time_control.bank == 30.0
    assert cfg.time_control.allowance == 0.25
    assert cfg.fault_policy is FaultPolicy.SUBSTITUTE
    assert cfg.database == tmp_path.resolve() / "ladder.sqlite"
    assert cfg.processes.log_dir == tmp_path.resolve() / "ladder-logs"
    assert database_of(tmp_path / "ladder.toml") == cfg.database


def test_defaults(tmp_path):
    cfg = load_ladder(write(tmp_path, 'bots = ["random", "heuristic"]\ngames_per_pairing = 2\n',
                            name="night.toml"))
    assert cfg.name == "night"
    assert cfg.duplicate and cfg.seed is None and cfg.concurrency >= 1  # a secret deal key
    assert cfg.processes == ProcessSettings(log_dir=tmp_path.resolve() / "night-logs")
    assert cfg.processes.sandbox and cfg.processes.limits == DEFAULT_CAPS
    assert cfg.rules.name == "standard"
    assert cfg.database.name == "night.sqlite" and cfg.database.parent == tmp_path.resolve()
    assert cfg.fault_policy is FaultPolicy.FORFEIT and cfg.processes.transport == "unix"


def test_gauntlet_and_preset_string(tmp_path):
    cfg = load_ladder(write(tmp_path, 'bots = ["random", "heuristic", '
                            '{ name = "h2", bot = "heuristic" }]\nformat = "gauntlet"\n'
                            'challenger = "heuristic"\ngames_per_pairing = 4\nrules = "canadian"\n'
                            'database = "sub/x.sqlite"\n'))
    assert cfg.format == GAUNTLET and cfg.challenger == "heuristic"
    assert cfg.rules.dealer_partner_must_go_alone
    assert cfg.database == tmp_path.resolve() / "sub" / "x.sqlite"


def test_settings_leave_out_the_preset_name(tmp_path):
    a = load_ladder(write(tmp_path, 'bots = ["random", "heuristic"]\ngames_per_pairing = 2\n'))
    b = load_ladder(write(tmp_path, 'bots = ["random", "heuristic"]\ngames_per_pairing = 2\n'
                          '[rules]\npreset = "standard"\ntarget = 10\n', name="b.toml"))
    assert a.rules.name != b.rules.name
    assert a.settings() == b.settings()


GAUNTLET_FILE = ('bots = ["random", "heuristic"]\ngames_per_pairing = 2\nformat = "gauntlet"\n'
                 'challenger = "heuristic"\n')
"""A gauntlet, for [sprt] (4 lines)."""

# (file text, line, what the message must say)
BAD = [
    ('bots = ["random", "heuristic"\ngames_per_pairing = 2\n', 2, "not valid TOML"),
    ('bots = ["random", "heuristic"]\ngames_per_pairing = 2\ngame_per_pairing = 4\n', 3,
     "game_per_pairing: unknown key (did you mean 'games_per_pairing'?)"),
    ('games_per_pairing = 2\n', None, "bots: missing"),
    ('bots = "random"\ngames_per_pairing = 2\n', 1, "bots: expected a list"),
    ('bots = ["random"]\ngames_per_pairing = 2\n', 1, "at least two bots"),
    ('bots = [\n  "random",\n  "no-such-bot",\n]\ngames_per_pairing = 2\n', 3,
     "bots[1]: no bot 'no-such-bot'"),
    ('bots = [\n  "random",\n  "random",\n]\ngames_per_pairing = 2\n', 3,
     "bots[1]: two bots are named 'random'"),
    ('bots = ["random", { name = "x", bot = "random", adress = "y" }]\ngames_per_pairing = 2\n',
     1, "bots[1].adress: unknown key (did you mean 'address'?)"),
    ('bots = ["random", { name = "x" }]\ngames_per_pairing = 2\n', 1,
     "give exactly one of bot"),
    ('bots = ["random", { address = "127.0.0.1:1" }]\ngames_per_pairing = 2\n', 1,
     "needs a name"),
    ('bots = ["random", { name = "a@b", bot = "random" }]\ngames_per_pairing = 2\n', 1,
     "may not hold"),
    ('bots = ["random", "heuristic"]\n', None, "games_per_pairing: missing"),
    ('bots = ["random", "heuristic"]\n\ngames_per_pairing = 3\n', 3,
     "games_per_pairing: 3: duplicate mode plays each deal twice"),
    ('bots = ["random", "heuristic"]\ngames_per_pairing = 0\n', 2, "games_per_pairing: 0"),
    ('bots = ["random", "heuristic"]\ngames_per_pairing = "ten"\n', 2, "games_per_pairing"),
    ('bots = ["random", "heuristic"]\ngames_per_pairing = 2\nformat = "swiss"\n', 3,
     "format: 'swiss': expected one of 'round-robin', 'gauntlet'"),
    ('bots = ["random", "heuristic"]\ngames_per_pairing = 2\nformat = "gauntlet"\n', 3,
     "format: a gauntlet needs challenger"),
    ('bots = ["random", "heuristic"]\ngames_per_pairing = 2\nformat = "gauntlet"\n'
     'challenger = "mine"\n', 4, "challenger: 'mine' is not one of the bots"),
    ('bots = ["random", "heuristic"]\ngames_per_pairing = 2\nchallenger = "random"\n', 3,
     "only a gauntlet has a challenger"),
    ('bots = ["random", "heuristic"]\ngames_per_pairing = 2\nseed = -1\n', 3, "seed: -1"),
    ('bots = ["random", "heuristic"]\ngames_per_pairing = 2\ntransport = "tcp"\n', 3,
     "transport: a sandboxed bot has no network"),
    ('bots = ["random", "heuristic"]\ngames_per_pairing = 2\nsandbox = "no"\n', 3,
     "sandbox: expected true or false"),
    ('bots = ["random", "heuristic"]\ngames_per_pairing = 2\n\n[limits]\nmemory = 1\n', 5,
     "limits.memory: unknown key"),
    ('bots = ["random", "heuristic"]\ngames_per_pairing = 2\n\n[limits]\nprocesses = 0\n', 5,
     "limits.processes: 0: expected a whole number"),
    ('bots = ["random", "heuristic"]\ngames_per_pairing = 2\nconcurrency = 0\n', 3,
     "concurrency: 0"),
    ('bots = ["random", "heuristic"]\ngames_per_pairing = 2\nduplicate = "yes"\n', 3,
     "duplicate: expected true or false"),
    ('bots = ["random", "heuristic"]\ngames_per_pairing = 2\n\n[rules]\npreset = "swedish"\n', 5,
     "rules.preset: unknown rule preset 'swedish'"),
    ('bots = ["random", "heuristic"]\ngames_per_pairing = 2\n\n[rules]\ntarget = 10\n'
     'stick_dealer = false\n', 6, "rules.stick_dealer: unknown key (did you mean "
     "'stick_the_dealer'?)"),
    ('bots = ["random", "heuristic"]\ngames_per_pairing = 2\n\n[rules]\ntarget = "ten"\n', 5,
     "rules.target: rule option target='ten': expected a whole number"),
    ('bots = ["random", "heuristic"]\ngames_per_pairing = 2\nrules = { preset = "standard", '
     'deck = 25 }\n', 3, "rules.deck: deck=25 contradicts joker=false"),
    ('bots = ["random", "heuristic"]\ngames_per_pairing = 2\n[rules]\njoker = true\n'
     'deck = 24\n', 5, "rules.deck: deck=24 contradicts joker=true"),
    ('bots = ["random", "heuristic"]\ngames_per_pairing = 2\n[time_control]\nbank = 0\n', 4,
     "time_control.bank: 0: expected a positive number"),
    ('bots = ["random", "heuristic"]\ngames_per_pairing = 2\n[time_control]\nper_move = 1\n', 4,
     "time_control.per_move: unknown key"),
    ('bots = ["random", "heuristic"]\ngames_per_pairing = 2\non_fault = "ignore"\n', 3,
     "on_fault: 'ignore'"),
    ('bots = ["random", "heuristic"]\ngames_per_pairing = 2\ntransport = "udp"\n', 3,
     "transport: 'udp'"),
    ('games_per_pairing = 2\n[[bots]]\nbot = "random"\n[[bots]]\nbot = "heuristic"\n'
     'nme = "x"\n', 6, "bots[1].nme: unknown key"),
    ('bots = ["random", "heuristic"]\ngames_per_pairing = 2\n[sprt]\nelo0 = 0\nelo1 = 5\n', 3,
     "sprt: an SPRT tests a gauntlet's challenger"),
    (GAUNTLET_FILE + '[sprt]\nelo0 = 0\n', 5,
     "sprt: elo1: missing"),
    (GAUNTLET_FILE + '[sprt]\nelo0 = 0\nelo1 = 5\nalpha = 1.5\n', 8,
     "sprt.alpha: alpha must be between 0 and 1"),
    (GAUNTLET_FILE + '[sprt]\nelo0 = 10\nelo1 = 5\n', 6,
     "sprt.elo0: elo0 (10) must be less than elo1 (5)"),
    (GAUNTLET_FILE + '[sprt]\nelo0 = 0\nelo1 = "5"\n', 7,
     "sprt.elo1: '5': expected a number"),
    (GAUNTLET_FILE + '[sprt]\nelo0 = 0\nelo1 = 5\nmodel = "bayes"\n', 8,
     "sprt.model: 'bayes'"),
    (GAUNTLET_FILE + '[sprt]\nelo0 = 0\nelo1 = 5\nelo2 = 9\n', 8,
     "sprt.elo2: unknown key"),
]


@pytest.mark.parametrize(("text", "line", "message"), BAD)
def test_bad_files_name_the_line_and_the_key(tmp_path, text, line, message):
    path = write(tmp_path, text)
    with pytest.raises(ConfigError) as info:
        parse_ladder(text, path)
    msg = str(info.value)
    prefix = f"{path}:{line}: " if line else f"{path}: "
    assert msg.startswith(prefix), msg
    assert message in msg, msg
    assert "\n" not in msg.strip()


def test_sprt_settings_are_read_and_bind_the_database(tmp_path):
    cfg = load_ladder(write(tmp_path, 'bots = ["random", "heuristic"]\ngames_per_pairing = 2\n'
                            'format = "gauntlet"\nchallenger = "heuristic"\n'
                            '[sprt]\nelo0 = -5\nelo1 = 15\nbeta = 0.1\n'))
    assert cfg.sprt is not None
    assert (cfg.sprt.elo0, cfg.sprt.elo1, cfg.sprt.alpha, cfg.sprt.beta, cfg.sprt.model) == \
        (-5.0, 15.0, 0.05, 0.1, "logistic")
    # in the settings a database keeps, so a resumed run goes on with the same test
    assert cfg.settings()["sprt"] == {"elo0": -5.0, "elo1": 15.0, "alpha": 0.05,
                                      "beta": 0.1, "model": "logistic",
                                      "challenger": "heuristic"}
    plain = load_ladder(write(tmp_path, 'bots = ["random", "heuristic"]\n'
                              'games_per_pairing = 2\n', "plain.toml"))
    assert plain.sprt is None and "sprt" not in plain.settings()


def test_array_of_tables_bots(tmp_path):
    cfg = load_ladder(write(tmp_path, 'games_per_pairing = 2\n[[bots]]\nbot = "random"\n'
                            '[[bots]]\nbot = "random"\nname = "r2"\n'))
    assert cfg.bot_names == ("random", "r2")


def test_bot_manifest_errors_keep_their_detail(tmp_path):
    bot = tmp_path / "mine"
    bot.mkdir()
    (bot / "bot.toml").write_text('name = "mine"\ncommand = 3\n')
    path = write(tmp_path, 'bots = [\n  "random",\n  "mine",\n]\ngames_per_pairing = 2\n')
    with pytest.raises(ConfigError, match=r"ladder.toml:3: bots\[1\]: .*'command' must be"):
        load_ladder(path)


@pytest.mark.processes
def test_the_command_prints_one_line_and_exits_2(tmp_path):
    path = write(tmp_path, 'bots = ["random", "heuristic"]\ngames_per_pairing = 2\n'
                 'seed = "x"\n')
    proc = subprocess.run([sys.executable, "-m", "ladder.cli.main", "run", str(path)],
                          capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.startswith("ladder: error: ")
    assert f"{path}:3: seed: 'x'" in proc.stderr
    assert "Traceback" not in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1


@pytest.mark.processes
def test_help_lists_every_command():
    proc = subprocess.run([sys.executable, "-m", "ladder.cli.main", "--help"], capture_output=True,
                          text=True, timeout=60, cwd=ROOT)
    assert proc.returncode == 0
    for word in ("run", "demo", "standings", "games", "report"):
        assert word in proc.stdout
    proc = subprocess.run([sys.executable, "-m", "ladder.cli.main", "run", "--help"],
                          capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert "--fresh" in proc.stdout and "--new-version" in proc.stdout


def test_the_demo_ladder_file_is_valid():
    cfg = load_ladder(ROOT / "ladders" / "demo.toml")
    assert {"random", "heuristic"} <= set(cfg.bot_names)
    assert cfg.duplicate and cfg.games_per_pairing % 2 == 0


def test_sandbox_settings_and_a_manifest_over_the_caps(tmp_path):
    cfg = load_ladder(write(tmp_path, 'bots = ["random", "heuristic"]\ngames_per_pairing = 2\n'
                            'sandbox = false\ntransport = "tcp"\nfresh_processes = true\n'
                            'seed = 5\n[limits]\nmemory_mb = 300\n'))
    p = cfg.processes
    assert not p.sandbox and p.fresh_processes and p.transport == "tcp"
    assert p.limits.memory_mb == 300 and p.limits.processes == DEFAULT_CAPS.processes
    assert cfg.settings()["seed"] == 5 and cfg.settings()["deals"]
    bot = tmp_path / "greedy"
    bot.mkdir()
    (bot / "bot.toml").write_text('name = "greedy"\ncommand = ["{python}", "bot.py"]\n'
                                  '[limits]\nmemory_mb = 4096\n')
    with pytest.raises(ConfigError, match=r"greedy.*memory_mb = 4096 \(at most 2048\)"):
        load_ladder(write(tmp_path, 'bots = ["random", "greedy"]\ngames_per_pairing = 2\n'))
    # the same bot within raised caps is fine, and gets what it asked for
    cfg = load_ladder(write(tmp_path, 'bots = ["random", "greedy"]\ngames_per_pairing = 2\n'
                            '[limits]\nmemory_mb = 8192\n'))
    assert cfg.bots[1].manifest.sandbox(cfg.processes.limits).limits.memory_mb == 4096


def test_process_settings_are_read_and_are_no_setting_of_the_games(tmp_path):
    """start_limit, grace and the other process keys make the ladder's ProcessSettings;
    none is stored with the database's settings (compared on resume), so a ladder resumes
    under any of them, and the stored settings of existing databases stay what they were."""
    plain = load_ladder(write(tmp_path, 'bots = ["random", "heuristic"]\ngames_per_pairing = 2\n'
                              'seed = 3\n'))
    assert set(plain.settings()) == {"seed", "deals", "duplicate", "rules", "time_control",
                                     "on_fault"}
    cfg = load_ladder(write(tmp_path, 'bots = ["random", "heuristic"]\ngames_per_pairing = 2\n'
                            'seed = 3\nstart_limit = 0.5\ngrace = 0\nfresh_processes = true\n'
                            'logs = "elsewhere"\n[limits]\nprocesses = 9\n', name="b.toml"))
    assert cfg.processes == ProcessSettings(
        log_dir=tmp_path.resolve() / "elsewhere", start_limit=0.5, grace=0.0,
        fresh_processes=True, limits=Limits(processes=9))
    assert cfg.settings() == plain.settings()
    for name in (f.name for f in fields(ProcessSettings)):
        changed = {"log_dir": tmp_path, "transport": "tcp", "start_limit": 99.0, "grace": 9.0,
                   "sandbox": False, "limits": Limits(memory_mb=64),
                   "fresh_processes": True}[name]
        sandbox = {"sandbox": False} if name == "transport" else {}
        other = plain.with_overrides(processes=replace(plain.processes, **{name: changed},
                                                       **sandbox))
        assert other.settings() == plain.settings(), name
    with pytest.raises(ConfigError, match=r"b.toml:3: start_limit: 0: expected a positive"):
        load_ladder(write(tmp_path, 'bots = ["random", "heuristic"]\ngames_per_pairing = 2\n'
                          'start_limit = 0\n', name="b.toml"))
    with pytest.raises(ConfigError, match=r"b.toml:3: grace: 'x': expected a number"):
        load_ladder(write(tmp_path, 'bots = ["random", "heuristic"]\ngames_per_pairing = 2\n'
                          'grace = "x"\n', name="b.toml"))
    # the command line's caps are held against the manifests as the file's are
    greedy = tmp_path / "greedy"
    greedy.mkdir()
    (greedy / "bot.toml").write_text('name = "greedy"\ncommand = ["{python}", "bot.py"]\n'
                                     '[limits]\nmemory_mb = 1024\n')
    ok = load_ladder(write(tmp_path, 'bots = ["random", "greedy"]\ngames_per_pairing = 2\n',
                           name="c.toml"))
    with pytest.raises(ConfigError, match=r"greedy.*memory_mb = 1024 \(at most 512\)"):
        ok.with_overrides(processes=replace(ok.processes, limits=Limits(memory_mb=512)))
