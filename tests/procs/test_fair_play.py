"""Fair play against a hostile bot (tests/bots/hostile.py), with real sealed processes and
real gRPC: whatever a competitor tries from inside its sandbox (reading the arena's or the
other bots' processes, files and deals; signalling; the network; writing the host; a
covert channel between partners or twin games; eating memory; leaving a process behind),
it must get nothing, harm nobody, and the games must go on.

A sealed bot can write nothing the test could read, so the bot reports each attempt in its
log, one line each: `ATTEMPT <what>: BLOCKED <why>` or `ATTEMPT <what>: LEAK <what it
got>`. Every test checks that the attempts it expects were made (a bot that never tried
proves nothing) and that none leaked, and then what the test can see from outside."""

from __future__ import annotations

import contextlib
import hashlib
import json
import math
import os
import re
import secrets
import shutil
import socket
import sqlite3
import subprocess
import sys
import sysconfig
from dataclasses import dataclass, replace
from pathlib import Path

import pytest
import trio

import arena
from arena.core.rules import RuleSet, preset
from arena.play.runner import run_games
from arena.records import files as records
from arena.records.gamelog import GameEnd, GameLog
from arena.settings.faults import FaultKind
from arena.settings.manifest import BotManifest, load_manifest
from arena.settings.match import MatchConfig, match_specs
from arena.settings.process import ProcessSettings
from arena.settings.spec import FaultPolicy, GameSpec, TimeControl
from tests.helpers import ROOT, TESTS, no_bot_left  # noqa: F401 - a fixture

pytestmark = pytest.mark.usefixtures("no_bot_left")

HOSTILE = TESTS / "bots" / "hostile.py"
RULES: RuleSet = replace(preset("standard"), target=3)  # short games: the attacks come early
README = ROOT / "README.md"
SEALED_ENV = {"PATH", "HOME", "TMPDIR", "LANG", "PYTHONUNBUFFERED", "EUCHRE_BOT_ADDRESS", "PWD"}
WRITE_MARK = "hostile.py was here"


# --- bots, matches, logs ------------------------------------------------------------


def hostile_bot(tmp_path: Path, mode: str, env: dict[str, str] | None = None,
                limits: dict[str, int] | None = None, *, script: Path = HOSTILE,
                name: str | None = None) -> BotManifest:
    """`script` (tests/bots/hostile.py unless said) in MODE, in a folder of its own (a
    sealed bot reads only its folder), named after the mode unless `name` says."""
    name = name or mode
    folder = tmp_path / f"bot-{name}"
    folder.mkdir()
    shutil.copy(script, folder / script.name)
    lines = [f'name = "{name}"', 'version = "1"',
             f'command = ["{{python}}", "{script.name}", "{mode}"]']
    if env:
        lines.append("env = { " + ", ".join(f"{k} = {json.dumps(v)}" for k, v in env.items())
                     + " }")
    if limits:
        lines.append("[limits]")
        lines += [f"{k} = {v}" for k, v in limits.items()]
    (folder / "bot.toml").write_text("\n".join(lines) + "\n")
    return load_manifest(str(folder))


@dataclass
class Match:
    games: list[tuple[GameSpec, GameLog]]
    """In game order."""
    seed: int
    """The match's --seed."""
    out: Path
    """The run's folder: logs/ (the bots' output) and games/ (the records)."""

    @property
    def logs(self) -> list[GameLog]:
        return [log for _, log in self.games]

    @property
    def log_dir(self) -> Path:
        return self.out / "logs"


def new_match_dirs(tmp_path: Path) -> Path:
    out = tmp_path / "out"
    (out / "games").mkdir(parents=True)
    return out


def play(tmp_path: Path, bot_a: BotManifest, bot_b: BotManifest, *, games: int = 2,
         concurrency: int = 2, sandbox: bool = True,
         policy: FaultPolicy = FaultPolicy.SUBSTITUTE) -> Match:
    """A match as `arena match` plays one, with a large secret seed (so that it cannot
    turn up in a log by chance); records go to out/games."""
    return trio.run(lambda: play_async(tmp_path, bot_a, bot_b, games=games,
                                       concurrency=concurrency, sandbox=sandbox, policy=policy))


async def play_async(tmp_path: Path, bot_a: BotManifest, bot_b: BotManifest, *, games: int,
                     concurrency: int, sandbox: bool, policy: FaultPolicy) -> Match:
    out = tmp_path / "out"
    if not out.exists():
        new_match_dirs(tmp_path)
    seed = 10**15 + secrets.randbelow(9 * 10**15)
    cfg = MatchConfig(
        bot_a=bot_a, bot_b=bot_b, games=games, rules=RULES, seed=seed,
        concurrency=concurrency, time_control=TimeControl(per_decision=2.0, bank=60.0),
        fault_policy=policy, out_dir=out,
        processes=ProcessSettings(out / "logs", sandbox=sandbox, start_limit=math.inf),
    )
    done: list[tuple[GameSpec, GameLog]] = []

    def on_done(spec: GameSpec, log: GameLog) -> None:
        records.write(out / "games" / f"{log.game_id}.pb", log)
        done.append((spec, log))

    await run_games(match_specs(cfg), rules=cfg.rules, concurrency=concurrency,
                    processes=cfg.processes, on_done=on_done)
    return Match(sorted(done, key=lambda d: d[1].game_id), seed, out)


def bot_logs(log_dir: Path, name: str) -> dict[Path, str]:
    """The logs of every process of bot `name`: <name>-<slot>-<family><index>.log."""
    found = {p: p.read_text(errors="replace")
             for p in sorted(log_dir.glob(f"{name}-s*-*.log"))
             if re.fullmatch(rf"{re.escape(name)}-s\d+-\d\d+", p.stem)}
    assert found, f"no log of {name} in {log_dir}: {sorted(os.listdir(log_dir))}"
    return found


def family_of(log_path: Path) -> int:
    return int(log_path.stem.rsplit("-", 1)[1][0])


def lines_of(texts, prefix: str) -> list[str]:
    return [ln for t in texts for ln in t.splitlines() if ln.startswith(prefix)]


def attempt_problems(logs: dict[Path, str], expected: list[str]) -> list[str]:
    """Every ATTEMPT line must say BLOCKED, and each process that played a game must have
    made each expected attempt."""
    problems = []
    for path, text in logs.items():
        attempts = lines_of([text], "ATTEMPT ")
        problems += [f"{path.name}: {ln}" for ln in attempts if ": BLOCKED " not in ln]
        problems += [f"{path.name}: {ln}" for ln in text.splitlines()
                     if ": LEAK " in ln and not ln.startswith("ATTEMPT ")]
        if not lines_of([text], "GAMEID "):
            continue  # a process restarted for a game that had no more to ask of it
        for what in expected:
            if not any(ln.startswith(f"ATTEMPT {what}") for ln in attempts):
                problems.append(f"{path.name}: never tried {what!r}")
    return problems


def secrets_problems(texts, match_seed: int | None, logs: list[GameLog],
                     more: dict[str, str] | None = None) -> list[str]:
    """The deal secrets (the match's seed, every game's real seed, the arena's game ids)
    must appear nowhere in what the bot wrote."""
    wanted = {f"seed {log.seed} of {log.game_id}": str(log.seed) for log in logs}
    wanted |= {f"game id {log.game_id}": log.game_id for log in logs}
    if match_seed is not None:
        wanted[f"the match's seed {match_seed}"] = str(match_seed)
    wanted |= more or {}
    return [f"{label} is in its log" for label, value in wanted.items()
            if any(value in t for t in texts)]


def table_id_problems(logs: dict[Path, str], games: list[tuple[int, GameLog]]) -> list[str]:
    """The GAMEID lines (what the bot was told) are the records' table ids, each process
    saw only games of its own family, and the two halves of a pair have different ids.
    `games` holds (family, record) for every game."""
    problems = []
    by_family: dict[int, set[str]] = {0: set(), 1: set()}
    for family, log in games:
        by_family[family].add(log.table_id)
        if not re.fullmatch(r"[0-9a-f]{16}", log.table_id) or log.table_id == log.game_id:
            problems.append(f"{log.game_id}: table id {log.table_id!r} is not opaque")
    told: dict[int, set[str]] = {0: set(), 1: set()}
    for path, text in logs.items():
        ids = {ln.split()[1] for ln in lines_of([text], "GAMEID ")}
        told[family_of(path)] |= ids
        if ids - by_family[family_of(path)]:
            problems.append(f"{path.name} was told {sorted(ids)}, not ids of its family's "
                            f"games {sorted(by_family[family_of(path)])}")
    if told != by_family:
        problems.append(f"the bot was told {told}; the records say {by_family}")
    if by_family[0] & by_family[1]:
        problems.append(f"both halves of a pair were announced alike: {by_family}")
    return problems


def match_table_ids(match: Match, logs: dict[Path, str]) -> list[str]:
    problems = table_id_problems(logs, [(spec.family, log) for spec, log in match.games])
    for first, second in zip(match.logs[::2], match.logs[1::2], strict=True):
        if first.seed != second.seed:
            problems.append(f"{first.game_id} and {second.game_id} are not a duplicate pair")
    return problems


def honest_problems(logs: list[GameLog], honest: str) -> list[str]:
    """Every game completed and the honest bot saw no fault."""
    problems = [f"{log.game_id} ended {log.end}" for log in logs if log.end is not GameEnd.COMPLETED]
    problems += [f"{log.game_id}: the honest bot faulted: {f}" for log in logs
                 for f in log.faults if log.seats[f.seat].name == honest]
    return problems


def seat_problems(logs: list[GameLog], hostile: str, mode: str) -> list[str]:
    """The records say who sat where, sealed, and what the bot called itself."""
    problems = []
    for log in logs:
        for s in log.seats:
            if not s.sandboxed or not s.digest:
                problems.append(f"{log.game_id} seat {s.seat}: sandboxed={s.sandboxed} "
                                f"digest={s.digest!r}")
            if s.name == hostile and s.reported_name != f"hostile-{mode}":
                problems.append(f"{log.game_id} seat {s.seat}: reported {s.reported_name!r}")
    return problems


def report(problems: list[str]) -> None:
    assert not problems, "\n".join(problems)


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def folder_digests(folder: Path) -> dict[str, str]:
    return {str(p.relative_to(folder)): digest(p) for p in sorted(folder.rglob("*")) if p.is_file()}


def make_database(path: Path) -> None:
    """A stand-in for a ladder database (a secret the bot must not read or write)."""
    conn = sqlite3.connect(path)
    with conn:
        conn.execute("CREATE TABLE games (game_id TEXT, seed INTEGER)")
        conn.execute("INSERT INTO games VALUES ('secret-game', 123456789)")
    conn.close()


def proc_state(pid: int) -> str:
    return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]


def host_listening_ports(limit: int = 30) -> list[int]:
    """TCP ports listening on the host's loopback (or every address), from /proc/net."""
    ports = set()
    for name in ("tcp", "tcp6"):
        with contextlib.suppress(OSError):
            for line in Path(f"/proc/net/{name}").read_text().splitlines()[1:]:
                fields = line.split()
                address, state = fields[1], fields[3]
                host, port = address.rsplit(":", 1)
                if state == "0A" and (set(host) == {"0"} or host.endswith("0100007F")
                                      or host == "00000000000000000000000001000000"):
                    ports.add(int(port, 16))
    return sorted(ports)[:limit]


def processes_with(needle: str) -> list[str]:
    """Live processes whose command line holds `needle`."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == os.getpid():
            continue
        try:
            cmd = Path(f"/proc/{entry}/cmdline").read_bytes().replace(b"\0", b" ").decode()
            state = proc_state(int(entry))
        except (OSError, IndexError):
            continue
        if needle in cmd and state not in ("Z", "X"):
            found.append(f"{entry} ({state}): {cmd}")
    return found


@pytest.fixture
def canary(monkeypatch) -> str:
    """A variable of the arena's own environment: a sealed bot must never see it."""
    value = secrets.token_hex(12)
    monkeypatch.setenv("HOSTILE_ARENA_CANARY", value)
    return value


# --- the attacks ----------------------------------------------------------------------


def test_peek_sees_no_other_process_file_or_deal(tmp_path, canary):
    out = new_match_dirs(tmp_path)
    db = tmp_path / "ladder.sqlite"
    make_database(db)
    # which slot plays which half is a race: name the honest bot's logs of both
    other_logs = [out / "logs" / f"random-s{w}-{f}0.log" for w in (0, 1) for f in (0, 1)]
    targets = [db, out, *other_logs, out / "games", README]
    bot = hostile_bot(tmp_path, "peek", env={"HOSTILE_SECRETS": ":".join(map(str, targets))})
    match = play(tmp_path, bot, load_manifest("random"))

    logs = bot_logs(match.log_dir, "peek")
    texts = list(logs.values())
    assert sum(p.exists() for p in other_logs) == 2  # the secrets were real
    assert list((out / "games").glob("*.pb"))
    expected = ["see other processes in /proc", "read /proc/1/environ",
                "open the files of /proc/1/fd", "list /proc/1/cwd", "list /tmp", "list HOME",
                "list /run", "list my socket folder /run/euchre"]
    expected += [f"open {p}" for p in targets]
    problems = attempt_problems(logs, expected)
    problems += secrets_problems(texts, match.seed, match.logs,
                                 {"the arena's environment (HOSTILE_ARENA_CANARY)": canary})
    problems += match_table_ids(match, logs)
    problems += honest_problems(match.logs, "random")
    problems += seat_problems(match.logs, "peek", "peek")
    # /proc: only its own processes (bubblewrap's init and itself)
    for line in lines_of(texts, "PID "):
        if "hostile.py" not in line and "bwrap" not in line.split()[2]:
            problems.append(f"it saw a process not its own: {line[:200]}")
    # its environment is the sealed one and nothing of the arena's
    env_keys = {ln[4:].split("=", 1)[0] for ln in lines_of(texts, "ENV ")}
    if not env_keys or env_keys - SEALED_ENV - {"HOSTILE_SECRETS"}:
        problems.append(f"its environment: {sorted(env_keys)}")
    report(problems)


def test_signals_reach_no_process_outside_the_sandbox(tmp_path):
    victim = subprocess.Popen(["sleep", "300"])
    try:
        bot = hostile_bot(tmp_path, "signal", env={"HOSTILE_VICTIM_PID": str(victim.pid)})
        match = play(tmp_path, bot, load_manifest("random"))
        state = proc_state(victim.pid)
        running = victim.poll() is None
    finally:
        victim.kill()
        victim.wait()
    assert running, f"the victim was killed: {victim.returncode}"
    assert state not in ("T", "t", "Z", "X"), f"the victim's state is {state!r}"
    logs = bot_logs(match.log_dir, "signal")
    expected = ["SIGSTOP and SIGKILL every other visible process",
                f"SIGSTOP the victim pid {victim.pid}", f"SIGKILL the victim pid {victim.pid}",
                f"pidfd_open the victim pid {victim.pid}"]
    problems = attempt_problems(logs, expected)
    problems += honest_problems(match.logs, "random")  # a stopped bot would have timed out
    problems += secrets_problems(list(logs.values()), match.seed, match.logs)
    problems += match_table_ids(match, logs)
    report(problems)


def test_the_network_reaches_nothing(tmp_path):
    tcp = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    tcp.bind(("127.0.0.1", 0))
    tcp.listen(16)
    port = tcp.getsockname()[1]
    udp = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    udp.bind(("127.0.0.1", port))
    tcp6: socket.socket | None = socket.socket(socket.AF_INET6, socket.SOCK_STREAM)
    try:
        tcp6.bind(("::1", port))
        tcp6.listen(16)
    except OSError:  # no IPv6 here
        tcp6.close()
        tcp6 = None
    host_sock = tmp_path / "host.sock"
    unix = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    unix.bind(str(host_sock))
    unix.listen(16)
    abstract_name = f"euchre-hostile-host-{secrets.token_hex(6)}"
    abstract = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    abstract.bind(b"\0" + abstract_name.encode())
    abstract.listen(16)
    listeners = [s for s in (tcp, udp, tcp6, unix, abstract) if s is not None]
    try:
        env = {
            "HOSTILE_PORT": str(port),
            "HOSTILE_PORTS": ",".join(map(str, host_listening_ports())),
            "HOSTILE_SECRETS": str(host_sock),
            "HOSTILE_ABSTRACT": abstract_name,
        }
        match = play(tmp_path, hostile_bot(tmp_path, "net", env=env), load_manifest("random"))
        reached = []
        for s in listeners:
            s.setblocking(False)
            try:
                if s.type == socket.SOCK_DGRAM:
                    reached.append(f"UDP {port} got {s.recvfrom(4096)}")
                else:
                    conn, peer = s.accept()
                    reached.append(f"{s.getsockname()!r} accepted {peer!r}")
                    conn.close()
            except BlockingIOError:
                pass
    finally:
        for s in listeners:
            s.close()
    assert not reached, f"the test's listeners were reached: {reached}"
    logs = bot_logs(match.log_dir, "net")
    expected = [f"TCP connect to 127.0.0.1:{port}", f"TCP connect to ::1:{port}",
                "TCP connect to the host's loopback ports", "TCP connect out to 1.1.1.1:443",
                f"UDP sendto 127.0.0.1:{port}", "UDP sendto 1.1.1.1:53",
                "list network interfaces", f"connect to the unix socket {host_sock}",
                f"connect to the abstract unix socket @{abstract_name}",
                "list the abstract unix sockets"]
    problems = attempt_problems(logs, expected)
    problems += secrets_problems(list(logs.values()), match.seed, match.logs)
    problems += match_table_ids(match, logs)
    # bubblewrap's command line (its pid 1) would name a writable host folder, whose
    # siblings are the other bots' sockets: there is none to name
    problems += attempt_problems(logs, ["find a writable host folder in bubblewrap's command line"])
    problems += honest_problems(match.logs, "random")
    report(problems)


def test_nothing_outside_the_sandbox_can_be_written(tmp_path):
    out = new_match_dirs(tmp_path)
    db = tmp_path / "ladder.sqlite"
    make_database(db)
    targets = [db, ROOT, README, out / "games"]
    bot = hostile_bot(tmp_path, "write", env={"HOSTILE_SECRETS": ":".join(map(str, targets))})
    own = bot.cwd
    before = {"db": digest(db), "own": folder_digests(own)}
    readme_before = README.read_text()
    site = Path(sysconfig.get_paths()["purelib"])
    folders = [ROOT, out / "games", own, Path(arena.__file__).parent, site, Path(sys.prefix)]
    try:
        match = play(tmp_path, bot, load_manifest("random"))
    finally:
        planted = [p for folder in folders for p in folder.glob("hostile-*.pth")]
        for p in planted:  # never leave anything behind in the checkout or the venv
            p.unlink()
    problems = [f"it created {p}" for p in planted]
    if digest(db) != before["db"]:
        problems.append("the database changed")
    if folder_digests(own) != before["own"]:
        problems.append("its own folder changed")
    if WRITE_MARK in README.read_text() and WRITE_MARK not in readme_before:
        problems.append("it wrote into the checkout's README")
    logs = bot_logs(match.log_dir, "write")
    expected = [f"write into {p}" for p in
                [*targets, own, own / HOSTILE.name, Path(arena.__file__).parent, site, sys.prefix]]
    expected.append("write into the sandbox's root /")
    problems += attempt_problems(logs, expected)
    problems += secrets_problems(list(logs.values()), match.seed, match.logs)
    problems += honest_problems(match.logs, "random")
    problems += seat_problems(match.logs, "write", "write")
    report(problems)


def test_partners_and_twin_games_share_nothing(tmp_path):
    """Hostile against hostile, as `arena match X X` plays it (the second team renamed),
    two games at once: the partners of each game and the two halves of each duplicate
    pair all look for each other's markers, and leave their own, at every game."""
    bot = hostile_bot(tmp_path, "share")
    twin = replace(bot, name="share-2")
    match = play(tmp_path, bot, twin, games=4, concurrency=2)
    problems = []
    for name in ("share", "share-2"):
        logs = bot_logs(match.log_dir, name)
        texts = list(logs.values())
        where = ["in /tmp", "in HOME", "in /dev/shm", "in my own folder",
                 "at @euchre-hostile-share", "in SysV shared memory"]
        expected = [f"find another process's marker {w} (at StartGame)" for w in where]
        expected += [f"find another process's marker {w} (at the first Decide)" for w in where]
        expected.append("leave a marker in my own folder")
        problems += attempt_problems(logs, expected)
        for mark in ("MARK wrote /tmp/hostile-share-", "MARK listening at @euchre-hostile-share",
                     "MARK wrote SysV segment"):
            if not lines_of(texts, mark):
                problems.append(f"{name} never left a marker: {mark!r}")
        problems += secrets_problems(texts, match.seed, match.logs)
        problems += match_table_ids(match, logs)
        problems += [f"{log.game_id}: {f}" for log in match.logs for f in log.faults]
    problems += honest_problems(match.logs, "share")
    report(problems)


def test_a_memory_hog_hits_its_own_limit_and_crashes_only_its_seat(tmp_path):
    bot = hostile_bot(tmp_path, "hog", limits={"memory_mb": 256})
    match = play(tmp_path, bot, load_manifest("random"))
    problems = honest_problems(match.logs, "random")
    for log in match.logs:
        hog_seats = {s.seat for s in log.seats if s.name == "hog"}
        if {f.seat for f in log.faults} != hog_seats:
            problems.append(f"{log.game_id}: faults {log.faults}, hog seats {hog_seats}")
        for f in log.faults:
            if f.kind is not FaultKind.CRASHED or not f.substituted:
                problems.append(f"{log.game_id}: {f}")
            elif "exited with code 3" not in f.detail:
                problems.append(f"{log.game_id}: the crash's detail: {f.detail}")
    logs = bot_logs(match.log_dir, "hog")
    problems += attempt_problems(logs, ["allocate memory until something stops me"])
    reached = [int(m) for t in logs.values()
               for m in re.findall(r"^HOG hit the limit at (\d+) MiB$", t, re.M)]
    if len(reached) < 4 or max(reached) > 256:
        problems.append(f"the hogs stopped at {reached} MiB (limit 256, one per seat and game)")
    report(problems)


def test_a_process_that_escapes_into_a_new_session_dies_with_its_bot(tmp_path):
    mark = str(secrets.randbelow(10**9)).zfill(9)
    bot = hostile_bot(tmp_path, "escape", env={"HOSTILE_MARK": mark})
    try:
        match = play(tmp_path, bot, load_manifest("random"))
        left = processes_with(f"3600.{mark}")
    finally:
        for line in processes_with(f"3600.{mark}"):  # never leave one behind
            with contextlib.suppress(OSError):
                os.kill(int(line.split()[0]), 9)
    assert not left, f"escaped processes outlived the match: {left}"
    logs = bot_logs(match.log_dir, "escape")
    problems = attempt_problems(logs, ["escape into a new session that outlives me"])
    problems += secrets_problems(list(logs.values()), match.seed, match.logs)
    for path, text in logs.items():
        if lines_of([text], "GAMEID ") and f"3600.{mark}" not in "".join(
                lines_of([text], "ESCAPED pid ")):
            problems.append(f"{path.name}: the escape did not happen")
    problems += honest_problems(match.logs, "random")
    report(problems)


# --- a ladder, and the records -------------------------------------------------------


def test_a_ladder_keeps_its_deals_from_a_peeking_bot(tmp_path, canary):
    db = tmp_path / "ladder.sqlite"
    logs_dir = tmp_path / "ladder-logs"
    ladder_file = tmp_path / "ladder.toml"
    targets = [db, Path(f"{db}-wal"), logs_dir, logs_dir / "random-s0-00.log", ladder_file,
               README]
    bot = hostile_bot(tmp_path, "peek", env={"HOSTILE_SECRETS": ":".join(map(str, targets))})
    ladder_file.write_text("\n".join([
        f"bots = [{json.dumps(str(bot.cwd))}, \"random\"]",  # no seed: a secret deal key
        "games_per_pairing = 4",
        "concurrency = 2",
        "[rules]", 'preset = "standard"', "target = 3",
        "[time_control]", "per_decision = 2.0", "bank = 60.0",
    ]) + "\n")
    proc = subprocess.run([sys.executable, "-m", "ladder.cli.main", "run", str(ladder_file), "--quiet"],
                          capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    conn = sqlite3.connect(db)
    try:
        rows = conn.execute("SELECT game_id, number, seed, record FROM games").fetchall()
        (key,) = conn.execute("SELECT deal_key FROM ladder").fetchone()
        runs = conn.execute("SELECT status FROM runs").fetchall()
        sealed = conn.execute("SELECT sandboxed FROM games").fetchall()
    finally:
        conn.close()
    assert len(rows) == 4 and runs == [("complete",)] and sealed == [(1,)] * 4
    games = [(number % 2, records.decode(blob))
             for _, number, _, blob in rows]
    for (game_id, _, seed, _), (_, log) in zip(rows, games, strict=True):
        assert (log.game_id, log.seed) == (game_id, seed)
    logs = bot_logs(logs_dir, "peek")
    texts = list(logs.values())
    expected = ["see other processes in /proc", "read /proc/1/environ", "list /tmp",
                "list my socket folder /run/euchre"] + [f"open {p}" for p in targets]
    problems = attempt_problems(logs, expected)
    problems += secrets_problems(texts, None, [log for _, log in games], {
        "the deal key": key.hex(),
        "the arena's environment (HOSTILE_ARENA_CANARY)": canary,
    })
    problems += table_id_problems(logs, games)
    problems += honest_problems([log for _, log in games], "random")
    report(problems)


def test_records_say_whether_each_seat_was_sealed(tmp_path):
    random_bot = load_manifest("random")
    matches: dict[bool, Match] = {}

    async def both() -> None:  # at once, to save time
        async def one(sandbox: bool) -> None:
            matches[sandbox] = await play_async(
                tmp_path / f"sandbox-{sandbox}", random_bot, replace(random_bot, name="random-2"),
                games=1, concurrency=1, sandbox=sandbox, policy=FaultPolicy.FORFEIT)

        async with trio.open_nursery() as nursery:
            for sandbox in (False, True):
                nursery.start_soon(one, sandbox)

    trio.run(both)
    for sandbox, match in matches.items():
        (log,) = match.logs
        assert log.end is GameEnd.COMPLETED and not log.faults
        assert [s.sandboxed for s in log.seats] == [sandbox] * 4
        assert log.sandboxed is sandbox
        assert all(s.digest and s.reported_name == "random" for s in log.seats)
        header = next(iter(bot_logs(match.log_dir, "random").values())).splitlines()[0]
        assert header.endswith(", sandboxed) =====" if sandbox else ", NOT sandboxed) =====")
