"""The arena's side of the wire: a gRPC client for one bot, driven from trio.

grpcio's async API runs only on asyncio, and the arena runs on trio. Each call uses the
sync stub's ``.future()`` and waits for it with arena.threads.bridges.wait_future: its
done-callback wakes trio through its token, which beats ``trio.to_thread`` and cancels
cleanly, since cancelling the future cancels the RPC and the bot sees it, where an
abandoned thread would keep it waiting. The time left in trio's deadline is passed to gRPC
as ``timeout=``: the caller owns timeouts, this module only honours them.

The time a call took is stamped in that callback, on gRPC's thread, the moment the answer
arrives, so trio's scheduling delays (other games, other bots) are never charged to a bot;
and an answer that arrived before a cancel (trio's thread busy at the deadline) is kept.
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from typing import Any

import grpc
import trio

from arena.core.actions import Action
from arena.core.events import Event
from arena.core.rules import RuleSet
from arena.core.view import SeatView
from arena.settings.faults import BotFault, FaultKind
from arena.settings.spec import TimeControl
from arena.threads.bridges import wait_future
from arena.wire import codec
from arena.wire.gen.euchre.v1 import bot_pb2, bot_pb2_grpc
from arena.wire.protocol import CHANNEL_OPTIONS, PROTOCOL_VERSION, BotIdentity

__all__ = ["BotClient", "BotIdentity"]


def _timeout_from_deadline() -> float | None:
    deadline = trio.current_effective_deadline()
    if math.isinf(deadline):
        return None
    return max(0.0, deadline - trio.current_time())


_STATUS_KINDS = {
    grpc.StatusCode.DEADLINE_EXCEEDED: FaultKind.TIMEOUT,
    grpc.StatusCode.UNKNOWN: FaultKind.BOT_ERROR,  # the bot's handler raised an error
    grpc.StatusCode.UNAVAILABLE: FaultKind.DISCONNECTED,
    grpc.StatusCode.CANCELLED: FaultKind.DISCONNECTED,
    grpc.StatusCode.RESOURCE_EXHAUSTED: FaultKind.MALFORMED,
    grpc.StatusCode.INTERNAL: FaultKind.BOT_ERROR,
    grpc.StatusCode.UNIMPLEMENTED: FaultKind.MALFORMED,
}


def _fault_from_rpc_error(method: str, err: grpc.RpcError) -> BotFault:
    code = err.code() if hasattr(err, "code") else grpc.StatusCode.UNKNOWN
    details = err.details() if hasattr(err, "details") else str(err)
    # Any other status is one the bot's server chose to return (INVALID_ARGUMENT,
    # FAILED_PRECONDITION, ...): the bot's error, said in no language's words.
    kind = _STATUS_KINDS.get(code, FaultKind.BOT_ERROR)
    if code is grpc.StatusCode.UNKNOWN:
        details = f"the bot's {method} handler failed: {details}"
    return BotFault(kind, f"{method}: {code.name if code else 'UNKNOWN'}: {details}")


class BotClient:
    """One connection from the arena to one bot process. Methods speak domain types."""

    def __init__(self, address: str) -> None:
        self.address = address
        self._channel = grpc.insecure_channel(address, options=CHANNEL_OPTIONS)
        self._stub = bot_pb2_grpc.EuchreBotServiceStub(self._channel)

    def close(self) -> None:
        self._channel.close()

    async def _call(self, name: str, request: Any) -> tuple[Any, float]:
        """Returns the response and the seconds from sending to the answer's arrival."""
        method = getattr(self._stub, name)
        sent = time.monotonic()
        future = method.future(request, timeout=_timeout_from_deadline())
        arrived = await wait_future(future, cancel=True)  # a cancel: the bot sees it
        try:
            response = future.result()
        except grpc.RpcError as e:
            raise _fault_from_rpc_error(name, e) from None
        except grpc.FutureCancelledError:
            raise BotFault(FaultKind.DISCONNECTED, f"{name}: call cancelled") from None
        return response, arrived - sent

    async def hello(self, rules: RuleSet, arena_version: str) -> BotIdentity:
        req = bot_pb2.HelloRequest(protocol_version=PROTOCOL_VERSION, arena_version=arena_version)
        codec.rules_to_pb(rules, req.rules)
        resp, _ = await self._call("Hello", req)
        if resp.protocol_version not in (0, PROTOCOL_VERSION):
            return BotIdentity(
                resp.name, resp.version, resp.author,
                f"speaks protocol version {resp.protocol_version}, the arena {PROTOCOL_VERSION}",
            )
        refusal = (resp.refusal_reason or "no reason given") if resp.refuse_rules else None
        return BotIdentity(resp.name or "?", resp.version, resp.author, refusal, resp.sdk,
                           codec.features_from_pb(resp.features))

    async def start_game(
        self,
        game_id: str,
        seat: int,
        rules: RuleSet,
        seat_bots: Sequence[str],
        time_control: TimeControl,
    ) -> None:
        req = bot_pb2.StartGameRequest(game_id=game_id, seat=seat, seat_bots=list(seat_bots))
        codec.rules_to_pb(rules, req.rules)
        req.time_control.per_decision_ms = round(time_control.per_decision * 1000)
        req.time_control.bank_ms = round(time_control.bank * 1000)
        await self._call("StartGame", req)

    async def decide(
        self,
        game_id: str,
        decision_number: int,
        view: SeatView,
        events: Sequence[Event],
        decision_time: float,
        bank_time: float,
    ) -> tuple[Action, float]:
        """The bot's action (decoded, not yet judged) and the seconds the call took."""
        req = bot_pb2.DecideRequest(game_id=game_id, decision_number=decision_number)
        codec.view_to_pb(view, req.view)
        for a in view.legal_actions:
            codec.action_to_pb(a, req.legal_actions.add())
        for e in events:
            codec.event_to_pb(e, req.events.add())
        req.time_left.decision_ms = max(0, round(decision_time * 1000))
        req.time_left.bank_ms = max(0, round(bank_time * 1000))
        resp, elapsed = await self._call("Decide", req)
        answer = resp.WhichOneof("answer")
        if answer == "action_index":
            # By position: the legal action itself, so nothing a bot copies can be wrong.
            legal = view.legal_actions
            if resp.action_index >= len(legal):
                raise BotFault(FaultKind.MALFORMED, f"Decide: action_index {resp.action_index} "
                               f"is past the end of legal_actions (0 to {len(legal) - 1})")
            return legal[resp.action_index], elapsed
        if answer != "action":
            raise BotFault(FaultKind.MALFORMED,
                           "Decide: the response holds neither action nor action_index")
        try:
            return codec.action_from_pb(resp.action), elapsed
        except codec.MalformedMessage as e:
            raise BotFault(FaultKind.MALFORMED, f"Decide: {e}") from None

    async def end_game(self, game_id: str, events: Sequence[Event]) -> None:
        req = bot_pb2.EndGameRequest(game_id=game_id)
        for e in events:
            codec.event_to_pb(e, req.events.add())
        await self._call("EndGame", req)
