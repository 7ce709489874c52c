"""One decision's round trip through the arena, against the bare round trip.

    python bench/decisions.py [--calls N] [--games N]

The arena's path: build the seat view with the rules engine, encode it, call the bot
through the trio/gRPC bridge of arena/wire/client.py, decode and judge the answer.
The bare path: a plain grpcio client (no arena, no trio) sending a prebuilt request of
the same size to the same trivial bot process. Both run in this process, interleaved in
blocks, so the machine's noise falls on both; the line `ratio: X.XX` is arena / bare
(target: at most 1.25), and `cpu ratio: X.XX` the same for this process's CPU time per
call (all its threads: gRPC's included), the arena's path over the bare one (target: at
most 1.25), and how much of the arena's CPU is its own work (view, encoding, decoding)
rather than the bridge. The bridge alone (no arena code) is then timed three ways, with
its CPU per call: a blocking call, the arena's sync future woken through trio's token,
and trio.to_thread; the future's CPU over the blocking call's is the floor under the
arena's `cpu ratio` (grpcio's futures run their own machinery per call, beyond what a
blocking call does). Then `arena match random random` at concurrency = cores: games/s
and CPU use (the arena's process and the bots' processes apart).
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import grpc  # noqa: E402
import trio  # noqa: E402

from arena.core.game import GameState  # noqa: E402
from arena.core.rules import preset  # noqa: E402
from arena.core.view import seat_view  # noqa: E402
from arena.procs.processes import LaunchSpec, open_bot_pool  # noqa: E402
from arena.settings.manifest import load_manifest  # noqa: E402
from arena.threads.bridges import wait_future  # noqa: E402
from arena.wire import codec  # noqa: E402
from arena.wire.client import BotClient  # noqa: E402
from arena.wire.gen.euchre.v1 import bot_pb2, bot_pb2_grpc  # noqa: E402


def sample_states(n: int):
    """Real mid-game states (views of varied size), so the messages are realistic."""
    rng = random.Random(5)
    out = []
    game = GameState(preset("standard"), 3)
    while len(out) < n:
        if game.over:
            game = GameState(preset("standard"), rng.randrange(1 << 30))
        out.append(seat_view(game, game.turn))
        game.apply(rng.choice(game.legal_actions()))
    return out


def arena_work(n: int = 4000) -> dict[str, float]:
    """The arena's own work per decision, apart from the call: what of the CPU ratio is
    the arena's and what is the trio/gRPC bridge. Microseconds of CPU each."""
    rng = random.Random(9)
    game = GameState(preset("standard"), 5)
    views, actions = [], []
    t = time.process_time()
    while len(views) < n:
        if game.over:
            game = GameState(preset("standard"), rng.randrange(1 << 30))
        view = seat_view(game, game.turn)
        action = rng.choice(view.legal_actions)
        game.apply(action)
        views.append(view)
        actions.append(action)
    view_apply = time.process_time() - t
    t = time.process_time()
    for view in views:
        bare_request(view).SerializeToString()
    encode = time.process_time() - t
    answers = [bot_pb2.DecideResponse(action=bare_request(v).legal_actions[0]).SerializeToString()
               for v in views]
    t = time.process_time()
    for data in answers:
        codec.action_from_pb(bot_pb2.DecideResponse.FromString(data).action)
    decode = time.process_time() - t
    return {"seat view and apply": view_apply / n * 1e6,
            "encode and serialize the request": encode / n * 1e6,
            "parse and decode the answer": decode / n * 1e6}


def bare_request(view) -> bot_pb2.DecideRequest:
    req = bot_pb2.DecideRequest(game_id="bench", decision_number=1)
    codec.view_to_pb(view, req.view)
    for a in view.legal_actions:
        codec.action_to_pb(a, req.legal_actions.add())
    req.time_left.decision_ms = 2000
    req.time_left.bank_ms = 60000
    return req


async def measure_round_trips(
    calls: int, block: int
) -> tuple[list[float], list[float], int, float, float]:
    views = sample_states(200)
    requests = [bare_request(v) for v in views]
    size = sum(r.ByteSize() for r in requests) // len(requests)
    arena_times: list[float] = []
    bare_times: list[float] = []
    arena_cpu = bare_cpu = 0.0
    log_dir = Path(tempfile.mkdtemp(prefix="bench-decisions-"))
    async with open_bot_pool() as pool:
        spec = LaunchSpec("trivial", (sys.executable, str(ROOT / "bench" / "trivial_bot.py")),
                          ROOT, {"PYTHONPATH": str(ROOT)})
        proc = await pool.start(spec, log_path=log_dir / "trivial.log")
        client = BotClient(proc.address)
        channel = grpc.insecure_channel(proc.address)
        stub = bot_pb2_grpc.EuchreBotServiceStub(channel)
        for i in range(20):  # warm both paths up
            stub.Decide(requests[i % len(requests)], timeout=5)
            await client.decide("bench", i, views[i], [], 2.0, 60.0)
        done = 0
        while done < calls:
            cpu0 = time.process_time()
            for i in range(block):
                k = (done + i) % len(views)
                game_view = views[k]
                t0 = time.perf_counter()
                with trio.fail_after(5):
                    action, _ = await client.decide("bench", k, game_view, [], 2.0, 60.0)
                if action not in game_view.legal_actions:
                    raise SystemExit("the trivial bot answered an illegal action")
                arena_times.append(time.perf_counter() - t0)
            cpu1 = time.process_time()
            arena_cpu += cpu1 - cpu0
            for i in range(block):
                req = requests[(done + i) % len(requests)]
                t0 = time.perf_counter()
                stub.Decide(req, timeout=5)
                bare_times.append(time.perf_counter() - t0)
            bare_cpu += time.process_time() - cpu1
            done += block
        channel.close()
        client.close()
    return arena_times, bare_times, size, arena_cpu / len(arena_times), bare_cpu / len(bare_times)


async def bridge_floor(calls: int) -> dict[str, tuple[float, float]]:
    """The bridge alone, with no arena code: what a blocking call costs, against a sync
    stub's future woken through trio's token (arena.threads.bridges.wait_future, the arena's way)
    and trio.to_thread. It
    shows how much of the ratio is the trio/gRPC hand-off itself."""
    views = sample_states(50)
    requests = [bare_request(v) for v in views]
    log_dir = Path(tempfile.mkdtemp(prefix="bench-bridge-"))
    out: dict[str, list[float]] = {"blocking call": [], "future + trio token": [],
                                   "trio.to_thread": []}
    cpu = dict.fromkeys(out, 0.0)
    clock = time.process_time  # the whole process: gRPC's own threads count too
    async with open_bot_pool() as pool:
        spec = LaunchSpec("trivial", (sys.executable, str(ROOT / "bench" / "trivial_bot.py")),
                          ROOT, {"PYTHONPATH": str(ROOT)})
        proc = await pool.start(spec, log_path=log_dir / "trivial.log")
        channel = grpc.insecure_channel(proc.address)
        stub = bot_pb2_grpc.EuchreBotServiceStub(channel)
        for _ in range(max(1, calls // 150)):
            for i in range(50):
                req = requests[i]
                c0, t0 = clock(), time.perf_counter()
                stub.Decide(req, timeout=5)
                out["blocking call"].append(time.perf_counter() - t0)
                c1 = clock()
                cpu["blocking call"] += c1 - c0
                t0 = time.perf_counter()
                future = stub.Decide.future(req, timeout=5)
                await wait_future(future, cancel=True)  # the arena's bridge, as the wire uses it
                future.result()
                out["future + trio token"].append(time.perf_counter() - t0)
                c2 = clock()
                cpu["future + trio token"] += c2 - c1
                t0 = time.perf_counter()
                await trio.to_thread.run_sync(stub.Decide, req)
                out["trio.to_thread"].append(time.perf_counter() - t0)
                cpu["trio.to_thread"] += clock() - c2
        channel.close()
    return {k: (statistics.median(v) * 1000, cpu[k] / len(v) * 1e6) for k, v in out.items()}


def match_throughput(games: int, concurrency: int) -> None:
    from arena.play.runner import run_games
    from arena.settings.match import MatchConfig, match_specs
    from arena.settings.process import ProcessSettings
    from arena.settings.spec import FaultPolicy, TimeControl

    bot = load_manifest("random")
    from dataclasses import replace

    out = Path(tempfile.mkdtemp(prefix="bench-match-"))
    cfg = MatchConfig(
        bot_a=bot, bot_b=replace(bot, name="random-2"), games=games, rules=preset("standard"),
        seed=1, concurrency=concurrency, time_control=TimeControl(), fault_policy=FaultPolicy.FORFEIT,
        out_dir=out, processes=ProcessSettings(log_dir=out / "logs"),
    )
    decisions = 0

    def on_done(spec, log):
        nonlocal decisions
        decisions += sum(len(h.actions) for h in log.hands)

    cpu0 = time.process_time()
    kids0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    trio.run(lambda: run_games(match_specs(cfg), rules=cfg.rules, concurrency=concurrency,
                               processes=cfg.processes, on_done=on_done))
    wall = time.perf_counter() - t0
    cpu = time.process_time() - cpu0
    kids1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    bots_cpu = (kids1.ru_utime + kids1.ru_stime) - (kids0.ru_utime + kids0.ru_stime)
    cores = os.cpu_count() or 1
    print(f"\narena match random random, {games} games at concurrency {concurrency} ({cores} cores)")
    rate = decisions / wall
    print(f"  games/s          {games / wall:8.2f}   ({wall:.1f} s wall, {rate:,.0f} decisions/s)")
    print(f"  arena CPU        {cpu:8.2f} s   ({100 * cpu / wall:.0f}% of one core)")
    print(f"  bot processes    {bots_cpu:8.2f} s   ({100 * bots_cpu / wall:.0f}% of one core)")
    print(f"  machine use      {100 * (cpu + bots_cpu) / (wall * cores):.0f}% of {cores} cores")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=3000, help="decisions per path")
    parser.add_argument("--block", type=int, default=100, help="calls per interleaved block")
    parser.add_argument("--games", type=int, default=40, help="games for the match figures")
    args = parser.parse_args()
    arena_t, bare_t, size, arena_cpu, bare_cpu = trio.run(measure_round_trips, args.calls,
                                                          args.block)
    a = statistics.median(arena_t) * 1000
    b = statistics.median(bare_t) * 1000
    print(f"one decision, {args.calls} calls per path, requests of {size} bytes on average")
    print(f"  through the arena   median {a:.3f} ms   mean {statistics.fmean(arena_t) * 1000:.3f} ms")
    print(f"  bare grpcio         median {b:.3f} ms   mean {statistics.fmean(bare_t) * 1000:.3f} ms")
    print(f"ratio: {a / b:.2f}")
    print(f"  CPU per call: arena {arena_cpu * 1e6:.0f} µs, bare grpcio {bare_cpu * 1e6:.0f} µs")
    print(f"cpu ratio: {arena_cpu / bare_cpu:.2f}")
    print("the arena's own work per decision, CPU:")
    for name, us in arena_work().items():
        print(f"  {name:<34} {us:6.1f} µs")
    floor = trio.run(bridge_floor, args.calls)
    base, base_cpu = floor["blocking call"]
    print("the trio/gRPC bridge alone (no arena code), median and CPU per call:")
    for name, (ms, us) in floor.items():
        print(f"  {name:<22} {ms:.3f} ms   ({ms / base:.2f} x the blocking call)   "
              f"CPU {us:4.0f} µs ({us / base_cpu:.2f} x)")
    match_throughput(args.games, os.cpu_count() or 1)


if __name__ == "__main__":
    main()
