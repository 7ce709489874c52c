"""The bot's side of the wire: a gRPC server that turns each call into a plain domain call
on a `BotHandler` (what the SDK implements).

It imports no trio, so a bot starts without loading the arena's event loop: the SDK's
import time is most of a Python bot's start, which every game of a ladder pays for each
seat it starts.
"""

from __future__ import annotations

import signal
import sys
import threading
import traceback
from collections import OrderedDict
from collections.abc import Callable, Sequence
from concurrent import futures
from dataclasses import dataclass, replace
from typing import NoReturn, Protocol

import grpc

from arena.core.actions import Action
from arena.core.events import Event
from arena.core.rules import RuleSet
from arena.core.view import SeatView
from arena.wire import codec
from arena.wire.gen.euchre.v1 import bot_pb2, bot_pb2_grpc
from arena.wire.protocol import CHANNEL_OPTIONS, PROTOCOL_VERSION, BotIdentity

__all__ = ["BotHandler", "BotIdentity", "Decision", "GameStart", "serve"]


@dataclass(frozen=True, slots=True)
class GameStart:
    """All that a StartGame says."""

    game_id: str
    seat: int
    rules: RuleSet
    seat_bots: tuple[str, ...]
    per_decision: float
    """Seconds one decision may take (0 when the arena did not say)."""
    bank: float
    """Seconds for all of this seat's decisions in the game (0 when the arena did not say)."""


@dataclass(frozen=True, slots=True)
class Decision:
    """All that a Decide says."""

    game_id: str
    decision_number: int
    """Counts this seat's decisions in the game, from 0."""
    view: SeatView
    """With legal_actions filled in."""
    events: tuple[Event, ...]
    """What happened since this seat's previous request, in order."""
    time_left: float
    """Seconds this decision may take."""
    bank_left: float
    """Seconds left in this seat's bank for the game."""


class BotHandler:
    """What the SDK implements: plain domain calls, one per RPC.

    The server calls them from several threads at once, for several games at once (a bot
    given by address plays every game it is sent, partners' seats included), so a
    handler keeps its state per game. handle_start_game() and handle_decide() get all a
    request says; by default they pass on to start_game() and decide(), which is enough
    for a handler that needs neither the rules, the time control nor the bank."""

    def hello(self, rules: RuleSet) -> BotIdentity:  # pragma: no cover - interface
        raise NotImplementedError

    def start_game(self, game_id: str, seat: int, seat_bots: Sequence[str]) -> None:
        raise NotImplementedError  # pragma: no cover - interface

    def decide(
        self, game_id: str, view: SeatView, events: Sequence[Event], time_left: float
    ) -> Action:
        raise NotImplementedError  # pragma: no cover - interface

    def end_game(self, game_id: str, events: Sequence[Event]) -> None:
        raise NotImplementedError  # pragma: no cover - interface

    def handle_start_game(self, start: GameStart) -> None:
        self.start_game(start.game_id, start.seat, start.seat_bots)

    def handle_decide(self, decision: Decision) -> Action:
        return self.decide(decision.game_id, decision.view, decision.events, decision.time_left)


_SUMMARY_CHARS = 300


def _report_error(context: _Context, method: str) -> NoReturn:
    """A handler raised: the whole traceback to stderr (the bot's log, where its author
    reads it), a one-line summary to the arena in the call's status."""
    kind, error, _ = sys.exc_info()
    traceback.print_exc(file=sys.stderr)
    sys.stderr.flush()
    name = kind.__name__ if kind is not None else "error"
    summary = f"{name} in {method}: {error}"[:_SUMMARY_CHARS]
    context.abort(grpc.StatusCode.UNKNOWN, summary)


_RULES_KEPT = 1024
"""Games whose rules the server remembers (for decoding their views); a game that was
never ended (its seat was ruled out) is forgotten after this many newer ones."""


class _Context(Protocol):
    """What the servicer uses of grpc.ServicerContext (grpcio ships no types): abort
    raises, so the code after it runs only when the call goes on."""

    def abort(self, code: grpc.StatusCode, details: str) -> NoReturn: ...


# The ignore below: the generated servicer base class (its default UNIMPLEMENTED answers)
# is untyped, since grpcio's generator emits no annotations and mypy skips arena.wire.gen,
# so the base is Any and mypy refuses to subclass it.
class _Servicer(bot_pb2_grpc.EuchreBotServiceServicer):  # type: ignore[misc]  # untyped generated base
    def __init__(self, handler: BotHandler) -> None:
        self._handler = handler
        self._lock = threading.Lock()
        self._rules: RuleSet | None = None
        """The latest rules heard, for a Decide of a game whose StartGame was not."""
        self._game_rules: OrderedDict[str, RuleSet] = OrderedDict()
        """Each game's own rules, by game id: games of different rules may run at once."""

    def Hello(self, request: bot_pb2.HelloRequest, context: _Context) -> bot_pb2.HelloResponse:
        try:
            rules = codec.rules_from_pb(request.rules)
        except (ValueError, codec.MalformedMessage) as e:
            return bot_pb2.HelloResponse(
                protocol_version=PROTOCOL_VERSION, refuse_rules=True,
                refusal_reason=f"cannot read the rules: {e}",
            )
        with self._lock:
            self._rules = rules
        try:
            ident = self._handler.hello(rules)
        except MemoryError:
            raise
        except Exception:
            _report_error(context, "hello")
        return bot_pb2.HelloResponse(
            name=ident.name, version=ident.version, author=ident.author,
            protocol_version=PROTOCOL_VERSION,
            refuse_rules=ident.refusal is not None, refusal_reason=ident.refusal or "",
            sdk=ident.sdk, features=codec.features_to_pb(ident.features),
        )

    def StartGame(
        self, request: bot_pb2.StartGameRequest, context: _Context
    ) -> bot_pb2.StartGameResponse:
        rules = codec.rules_from_pb(request.rules)
        with self._lock:
            self._rules = rules
            self._game_rules[request.game_id] = rules
            self._game_rules.move_to_end(request.game_id)
            while len(self._game_rules) > _RULES_KEPT:
                self._game_rules.popitem(last=False)
        tc = request.time_control
        try:
            self._handler.handle_start_game(GameStart(
                request.game_id, request.seat, rules, tuple(request.seat_bots),
                tc.per_decision_ms / 1000, tc.bank_ms / 1000,
            ))
        except MemoryError:
            raise
        except Exception:
            _report_error(context, "start_game")
        return bot_pb2.StartGameResponse()

    def Decide(self, request: bot_pb2.DecideRequest, context: _Context) -> bot_pb2.DecideResponse:
        with self._lock:
            rules = self._game_rules.get(request.game_id, self._rules)
        if rules is None:
            context.abort(grpc.StatusCode.FAILED_PRECONDITION, "Decide before Hello/StartGame")
        view = codec.view_from_pb(request.view, rules)
        legal = tuple(codec.action_from_pb(a) for a in request.legal_actions)
        view = replace(view, legal_actions=legal)
        events = tuple(codec.event_from_pb(e) for e in request.events)
        try:
            action = self._handler.handle_decide(Decision(
                request.game_id, request.decision_number, view, events,
                request.time_left.decision_ms / 1000, request.time_left.bank_ms / 1000,
            ))
        except MemoryError:
            raise
        except Exception:
            _report_error(context, "decide")
        return bot_pb2.DecideResponse(action=codec.action_to_pb(action))

    def EndGame(self, request: bot_pb2.EndGameRequest, context: _Context) -> bot_pb2.EndGameResponse:
        with self._lock:
            self._game_rules.pop(request.game_id, None)
        try:
            self._handler.end_game(
                request.game_id, [codec.event_from_pb(e) for e in request.events]
            )
        except MemoryError:
            raise
        except Exception:
            _report_error(context, "end_game")
        return bot_pb2.EndGameResponse()


def serve(
    handler: BotHandler,
    address: str,
    *,
    on_started: Callable[[], None] | None = None,
    stop: threading.Event | None = None,
) -> None:
    """Serves the bot until SIGTERM or SIGINT (then stops within a second), or, when
    `stop` is given (say, serving from a thread other than the main one, where signals
    cannot be caught), until it is set.

    Four threads answer calls, so calls of different games run at once."""
    if stop is None:
        stop = threading.Event()
        for sig in (signal.SIGTERM, signal.SIGINT):
            signal.signal(sig, lambda *_: stop.set())
    server = grpc.server(
        futures.ThreadPoolExecutor(max_workers=4),
        options=CHANNEL_OPTIONS,
    )
    bot_pb2_grpc.add_EuchreBotServiceServicer_to_server(_Servicer(handler), server)
    if server.add_insecure_port(address) == 0 and not address.startswith("unix:"):
        raise OSError(f"cannot listen on {address}")
    server.start()
    if on_started is not None:
        on_started()
    while not stop.wait(0.5):
        pass
    server.stop(grace=0.5).wait()
