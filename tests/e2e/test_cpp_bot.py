"""The C++ sample bot (sample_bots/cpp), built from proto/ alone with Debian's grpc++ and
protobuf, plays as any bot: its own binary sealed in the sandbox, over real gRPC, checked
by check-bot on every rule set and in a match against the random sample bot.

The bot is built once per session, in place (sample_bots/cpp/build, where its manifest
names the binary and where a sealed bot can read it), by its own build.sh. Where the
toolchain is not installed these tests skip, saying what is missing
(scripts/install_cpp_toolchain.sh installs it; scripts/test runs that); where it is, a
failed build fails them.
"""

from __future__ import annotations

import fcntl
import os
import shutil
import subprocess
import sys

import pytest

from arena.records import files as arena_records
from arena.records.gamelog import GameEnd
from arena.settings.manifest import SAMPLE_BOTS, load_manifest
from arena.settings.rule_sets import NAMED_RULES
from tests.check.test_checkbot import failed_rows
from tests.helpers import no_bot_left  # noqa: F401 - a fixture

CPP = SAMPLE_BOTS / "cpp"
BINARY = CPP / "build" / "cppbot"

pytestmark = [
    # One worker builds and runs it: two makes in one build folder would race.
    pytest.mark.xdist_group("cpp_bot"),
    # The first test to run pays for the build: about a minute on a busy two-core machine.
    pytest.mark.timeout(600),
]


def missing_toolchain() -> list[str]:
    """What build.sh needs that is not installed, each with its Debian package."""
    tools = {"g++": "g++", "make": "make", "pkg-config": "pkg-config",
             "protoc": "protobuf-compiler", "grpc_cpp_plugin": "protobuf-compiler-grpc"}
    missing = [f"{tool} ({package})" for tool, package in tools.items() if shutil.which(tool) is None]
    if shutil.which("pkg-config"):
        for lib, package in {"grpc++": "libgrpc++-dev", "protobuf": "libprotobuf-dev"}.items():
            if subprocess.run(["pkg-config", "--exists", lib]).returncode != 0:
                missing.append(f"{lib} ({package})")
    return missing


@pytest.fixture(scope="session")
def cpp_bot() -> None:
    missing = missing_toolchain()
    if missing:
        pytest.skip(f"the C++ sample bot's toolchain is not installed: {', '.join(missing)} "
                    "(sh scripts/install_cpp_toolchain.sh installs it, as root)")
    BINARY.parent.mkdir(exist_ok=True)
    # A lock besides the xdist group: a run that does not group (plain -n 2) builds once too.
    with open(BINARY.parent / ".build-lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        proc = subprocess.run(["sh", str(CPP / "build.sh")], capture_output=True, text=True,
                              timeout=540)
    if proc.returncode != 0:
        pytest.fail(f"sample_bots/cpp/build.sh failed:\n{proc.stdout}\n{proc.stderr}")


def arena_cli(*args: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    """An arena command with long limits for starting and deciding, as for the JavaScript
    bot (tests/check/test_js_bot.py): a machine busy with other work starts sealed
    processes slowly. The bot decides in about a millisecond; check-bot still reports it."""
    return subprocess.run([sys.executable, "-m", "arena.cli.main", *args, "--start-limit", "120",
                           "--per-decision", "10"],
                          capture_output=True, text=True, timeout=timeout,
                          env={**os.environ, "COLUMNS": "200"})


@pytest.mark.usefixtures("cpp_bot")
def test_the_build_is_not_part_of_the_fingerprint():
    # What build.sh makes differs with each machine's compiler and protoc: the sources
    # are the bot, and a ladder counts a new version only when they change.
    files = load_manifest(str(CPP)).file_digests
    assert {"bot.toml", "bot.cpp", "strategy.cpp", "strategy.h", "Makefile", "build.sh"} <= set(files)
    assert not [f for f in files if f.startswith("build/")], files


@pytest.mark.usefixtures("cpp_bot")
def test_without_an_address_it_says_so():
    env = {k: v for k, v in os.environ.items() if k != "EUCHRE_BOT_ADDRESS"}
    proc = subprocess.run([str(BINARY)], capture_output=True, text=True, env=env, timeout=30)
    assert proc.returncode == 2
    assert "EUCHRE_BOT_ADDRESS is not set" in proc.stderr


@pytest.mark.usefixtures("cpp_bot", "no_bot_left")
def test_check_bot_passes_the_cpp_bot_sealed_on_every_rule_set():
    # Every rule set, about 20 s in all: the bot starts in milliseconds and declares every
    # feature, so no table is refused to it.
    proc = arena_cli("check-bot", str(CPP), "--games", "2")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert not failed_rows(proc.stdout), proc.stdout
    assert "in the arena's sandbox" in proc.stdout and "PASS" in proc.stdout
    assert "refused" not in proc.stdout, proc.stdout
    assert proc.stdout.count(": rules") == proc.stdout.count("accepted") == len(NAMED_RULES)
    assert "not reached" not in proc.stdout, proc.stdout
    for phase in ("dealer_names_trump", "dealer_pickup", "partner_gives", "going_alone"):
        assert phase in proc.stdout, phase


@pytest.mark.usefixtures("cpp_bot", "no_bot_left")
def test_cpp_bot_beats_random_without_a_fault(tmp_path):
    out = tmp_path / "run"
    proc = arena_cli("match", str(CPP), "random", "--games", "8", "--seed", "11",
                     "--concurrency", "2", "--out", str(out), "--fail-on-fault")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    logs = [arena_records.read(p) for p in sorted((out / "games").glob("*.pb"))]
    assert len(logs) == 8
    for log in logs:
        assert log.end is GameEnd.COMPLETED and not log.faults
        cpp_seats = [s for s in log.seats if s.name == "cpp"]
        assert len(cpp_seats) == 2
        assert all(s.sandboxed and s.reported_name == "cpp" for s in cpp_seats)
    wins = sum(1 for g in logs if g.winning_team is not None and g.seats[g.winning_team].name == "cpp")
    assert wins >= 7, f"cpp won {wins} of 8 against random"
