"""The wire: generated code is current, the protocol is documented, the codec round-trips
domain values and refuses malformed ones, and the gRPC client honours trio's cancels."""

from __future__ import annotations

import random
import re
import subprocess
import sys
import threading
from concurrent import futures
from pathlib import Path

import grpc
import pytest
import trio

from arena.core import actions as A
from arena.core.events import EventFeed
from arena.core.game import GameState
from arena.core.rules import PRESETS, preset
from arena.core.view import seat_view
from arena.settings.faults import BotFault, FaultKind
from arena.wire import codec
from arena.wire.client import BotClient
from arena.wire.gen.euchre.v1 import bot_pb2, bot_pb2_grpc, types_pb2

ROOT = Path(__file__).resolve().parents[2]
GEN = ROOT / "arena" / "wire" / "gen"


@pytest.mark.processes
def test_generated_code_is_not_stale(tmp_path):
    out = tmp_path / "gen"
    proc = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "gen_proto.py"), "--out", str(out)],
        capture_output=True, text=True,
    )
    assert proc.returncode == 0, proc.stderr
    fresh = {p.relative_to(out): p.read_bytes() for p in out.rglob("*") if p.is_file()}
    committed = {
        p.relative_to(GEN): p.read_bytes()
        for p in GEN.rglob("*")
        if p.is_file() and "__pycache__" not in p.parts
    }
    assert fresh.keys() == committed.keys(), "run: python scripts/gen_proto.py"
    stale = [str(k) for k in fresh if fresh[k] != committed[k]]
    assert not stale, f"stale generated files {stale}: run python scripts/gen_proto.py"


def test_every_message_field_and_enum_value_is_commented():
    missing = []
    for proto in (ROOT / "proto").rglob("*.proto"):
        lines = proto.read_text().splitlines()
        for i, line in enumerate(lines):
            s = line.strip()
            is_decl = re.match(r"^(message|enum|service|rpc)\b", s) or re.match(
                r"^(optional |repeated )?[\w.]+ \w+ = \d+;", s
            )
            if not is_decl or s.endswith("_UNSPECIFIED = 0;"):
                continue
            if not lines[i - 1].strip().startswith("//"):
                missing.append(f"{proto.name}:{i + 1}: {s}")
    assert not missing, "undocumented protocol elements:\n" + "\n".join(missing)


def test_enums_start_with_unspecified():
    for module in (types_pb2, bot_pb2):
        for enum in module.DESCRIPTOR.enum_types_by_name.values():
            zero = enum.values_by_number[0].name
            assert zero.endswith("_UNSPECIFIED"), zero


@pytest.mark.parametrize("name", list(PRESETS))
def test_views_actions_events_and_rules_round_trip(name):
    rules = preset(name)
    assert codec.rules_from_pb(codec.rules_to_pb(rules)) == rules
    rng = random.Random(3)
    game = GameState(rules, 11)
    feed = EventFeed(game)
    checked = 0
    while not game.over:
        seat = game.turn
        view = seat_view(game, seat)
        assert codec.view_from_pb(codec.view_to_pb(view), rules) == view.__class__(
            **{**{f: getattr(view, f) for f in view.__slots__}, "legal_actions": ()}
        )
        for event in feed.take(seat):
            assert codec.event_from_pb(codec.event_to_pb(event)) == event or \
                type(event).__name__ == "TrickCompleted"
        action = rng.choice(view.legal_actions)
        assert codec.action_from_pb(codec.action_to_pb(action)) is action
        feed.apply(action)
        checked += 1
    assert checked > 20


def test_malformed_actions_are_refused():
    bad = types_pb2.Action(kind=types_pb2.ACTION_KIND_PLAY)
    with pytest.raises(codec.MalformedMessage, match="without a card"):
        codec.action_from_pb(bad)
    bad.card.rank = 99
    bad.card.suit = types_pb2.SUIT_HEARTS
    with pytest.raises(codec.MalformedMessage, match="rank"):
        codec.action_from_pb(bad)
    with pytest.raises(codec.MalformedMessage, match="kind"):
        codec.action_from_pb(types_pb2.Action(kind=42))
    with pytest.raises(codec.MalformedMessage, match="suit"):
        codec.action_from_pb(types_pb2.Action(kind=types_pb2.ACTION_KIND_NAME_TRUMP))
    joker_with_suit = types_pb2.Card(rank=types_pb2.RANK_JOKER, suit=types_pb2.SUIT_CLUBS)
    with pytest.raises(codec.MalformedMessage, match="joker"):
        codec.card_from_pb(joker_with_suit)


class _HangingBot(bot_pb2_grpc.EuchreBotServiceServicer):
    def __init__(self):
        self.cancelled = threading.Event()
        self.release = threading.Event()
        self.time_remaining = None

    def Decide(self, request, context):
        self.time_remaining = context.time_remaining()
        context.add_callback(self.cancelled.set)
        self.release.wait(10)
        return bot_pb2.DecideResponse(action=codec.action_to_pb(A.PASS))


def test_a_trio_cancel_reaches_the_bot_and_the_deadline_becomes_the_grpc_timeout(tmp_path):
    servicer = _HangingBot()
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=2))
    bot_pb2_grpc.add_EuchreBotServiceServicer_to_server(servicer, server)
    address = f"unix:{tmp_path}/bot.sock"
    server.add_insecure_port(address)
    server.start()
    game = GameState(preset("standard"), 1)
    view = seat_view(game, game.turn)
    try:
        async def cancelled_by_trio():
            client = BotClient(address)
            try:
                with trio.move_on_after(1.0) as scope:
                    await client.decide("g", 0, view, [], 5.0, 10.0)
            except BotFault as e:
                # gRPC's copy of the same deadline may fire a moment before trio's.
                assert e.kind is FaultKind.TIMEOUT, e
                return True
            finally:
                client.close()
            return scope.cancelled_caught

        assert trio.run(cancelled_by_trio)
        assert servicer.cancelled.wait(3), "the bot never saw the cancel"

        # trio's deadline (1 s, not the 5 s the bot is told it may think) reached the bot
        # as the call's gRPC deadline; without it gRPC would have none (None)
        assert servicer.time_remaining is not None
        assert 0 < servicer.time_remaining <= 1.01
    finally:
        servicer.release.set()
        server.stop(0)
