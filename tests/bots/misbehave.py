"""A bot that misbehaves on purpose, for the arena's tests: `python misbehave.py MODE`.

It serves the protocol with the generated code directly (not the SDK) so it can send
what the SDK never would. Where it plays legally it picks at random, seeded by the game and
the decision, so games end as soon as a random bot's do. Modes:
  good          plays a legal action (a control)
  never-listen  runs but never listens
  exit-at-once  exits at once with a message
  brackets      exits at once, its output full of [square brackets]
  hang          never answers its 3rd decision
  crash         exits mid-game (on its 5th decision)
  garbage       answers an action with a card that does not exist
  lacks-card    plays a card it does not hold
  wrong-phase   answers 'go alone' whatever is asked
  refuse        refuses the rules at the handshake
  flood         plays legally but writes 200 KB to stderr per decision
  slow          sleeps 0.3 s on each of its first 6 decisions (inside a 1 s limit)
  record        plays legally and writes every DecideRequest to stdout (its log), one
                line each: "REQUEST " and the message in base64
  ignore-term   plays legally but ignores SIGTERM
  slow-term     plays legally and takes 1 s to exit after SIGTERM (exit code 0)
  sleepy        takes 1 s over every decision
  raise         raises an error in its Decide handler
  never-call    passes whenever it may (never makes trump), else plays legally
  stall         takes 3 s over its 3rd decision (each process), as a bot stuck for a
                moment in one situation would
  status        answers Decide with gRPC status INTERNAL and details, as a C++ handler
                returning an error Status does (no exception, no traceback)
  precondition  as status, with FAILED_PRECONDITION: a status the arena has no rule for
  elsewhere     listens, but on a socket in $TMPDIR and not on the address it was told;
                prints "told ADDRESS" first, the address in its EUCHRE_BOT_ADDRESS
  once          serves as `good` in the first process started in its folder; every
                later one exits at once (its folder must be writable: unsealed only)
"""

import base64
import os
import random
import signal
import sys
import tempfile
import threading
import time
from concurrent import futures

import grpc

from arena.wire.gen.euchre.v1 import bot_pb2, bot_pb2_grpc, types_pb2

MODE = sys.argv[1]


class Servicer(bot_pb2_grpc.EuchreBotServiceServicer):
    def __init__(self):
        self.decisions = 0

    def Hello(self, request, context):
        return bot_pb2.HelloResponse(
            name=f"misbehave-{MODE}", version="1", author="tests", protocol_version=1,
            refuse_rules=MODE == "refuse", refusal_reason="I only play 32-card decks",
            features=[v for v in bot_pb2.Feature.values() if v != bot_pb2.FEATURE_UNSPECIFIED],
        )

    def StartGame(self, request, context):
        return bot_pb2.StartGameResponse()

    def Decide(self, request, context):
        self.decisions += 1
        action = types_pb2.Action()
        pick = random.Random(f"{request.game_id}:{self.decisions}")
        action.CopyFrom(pick.choice(request.legal_actions))
        if MODE == "record":
            print("REQUEST", base64.b64encode(request.SerializeToString()).decode(), flush=True)
        elif MODE == "hang" and self.decisions == 3:
            time.sleep(3600)
        elif MODE == "stall" and self.decisions == 3:
            time.sleep(3)
        elif MODE in ("status", "precondition"):
            context.set_code(grpc.StatusCode.INTERNAL if MODE == "status"
                             else grpc.StatusCode.FAILED_PRECONDITION)
            context.set_details("no table state for this game")
            return bot_pb2.DecideResponse()
        elif MODE == "crash" and self.decisions == 5:
            print("crashing on purpose", file=sys.stderr, flush=True)
            os._exit(3)
        elif MODE == "garbage":
            action = types_pb2.Action(kind=types_pb2.ACTION_KIND_PLAY)
            action.card.rank = 99
            action.card.suit = 9
        elif MODE == "lacks-card":
            held = {(c.suit, c.rank) for c in request.view.hand}
            for suit in range(1, 5):
                for rank in range(9, 15):
                    if (suit, rank) not in held:
                        action = types_pb2.Action(kind=types_pb2.ACTION_KIND_PLAY)
                        action.card.suit, action.card.rank = suit, rank
                        return bot_pb2.DecideResponse(action=action)
        elif MODE == "wrong-phase":
            action = types_pb2.Action(kind=types_pb2.ACTION_KIND_GO_ALONE)
        elif MODE == "flood":
            sys.stderr.write("x" * 200_000 + "\n")
        elif MODE == "sleepy":
            time.sleep(1.0)
        elif MODE == "raise":
            raise RuntimeError("a bug in the bot")
        elif MODE == "never-call":
            passes = [a for a in request.legal_actions if a.kind == types_pb2.ACTION_KIND_PASS]
            if passes:
                action.CopyFrom(passes[0])
        elif MODE == "slow" and self.decisions <= 6:
            time.sleep(0.3)
        return bot_pb2.DecideResponse(action=action)

    def EndGame(self, request, context):
        return bot_pb2.EndGameResponse()


def main():
    address = os.environ["EUCHRE_BOT_ADDRESS"]
    if MODE == "exit-at-once":
        sys.exit("misbehave: exiting at once on purpose")
    if MODE == "brackets":  # output that rich would read as markup
        print("[jsbot 123] starting", flush=True)
        sys.exit("cannot listen on [/tmp/x.sock] [bold]")
    if MODE == "never-listen":
        time.sleep(3600)
    if MODE == "once":
        try:
            open("started-once", "x").close()
        except FileExistsError:
            sys.exit("misbehave: started once already")
    if MODE == "ignore-term":
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
    if MODE == "slow-term":
        signal.signal(signal.SIGTERM, lambda *_: threading.Timer(1.0, os._exit, (0,)).start())
        print("slow-term: SIGTERM handled from now on", flush=True)
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=4))
    bot_pb2_grpc.add_EuchreBotServiceServicer_to_server(Servicer(), server)
    if MODE == "elsewhere":  # a path of its own choosing, as a hard-coded one would be
        print(f"told {address}", flush=True)
        address = f"unix:{tempfile.gettempdir()}/elsewhere-{os.getpid()}.sock"
        print(f"listening on {address}", flush=True)
    server.add_insecure_port(address)
    server.start()
    if MODE == "slow-term":
        # Woken often, as the SDK is: a signal taken by one of gRPC's threads runs the
        # handler only once the main thread runs again (a wait without end never does).
        while True:
            time.sleep(0.1)
    threading.Event().wait()


if __name__ == "__main__":
    main()
