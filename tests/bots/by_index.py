"""A bot that answers every decision by position, for the arena's tests:
`python by_index.py MODE`.

It serves today's protocol with the generated code and declares every feature, so it is
seated at every table; it never copies an action, only says which one (DecideResponse.
action_index). Modes:
  random    a legal action's index, chosen at random (seeded by the game and decision)
  past-end  the index one past the last legal action (a malformed answer)
"""

import os
import random
import signal
import sys
from concurrent import futures

import grpc

from arena.wire.gen.euchre.v1 import bot_pb2, bot_pb2_grpc

MODE = sys.argv[1]


class Servicer(bot_pb2_grpc.EuchreBotServiceServicer):
    def Hello(self, request, context):
        every = [v for v in bot_pb2.Feature.values() if v != bot_pb2.FEATURE_UNSPECIFIED]
        return bot_pb2.HelloResponse(name=f"by-index-{MODE}", version="1", author="tests",
                                     protocol_version=1, features=every)

    def StartGame(self, request, context):
        return bot_pb2.StartGameResponse()

    def Decide(self, request, context):
        n = len(request.legal_actions)
        if MODE == "past-end":
            return bot_pb2.DecideResponse(action_index=n)
        pick = random.Random(f"{request.game_id}:{request.decision_number}")
        return bot_pb2.DecideResponse(action_index=pick.randrange(n))

    def EndGame(self, request, context):
        return bot_pb2.EndGameResponse()


def main():
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=4))
    bot_pb2_grpc.add_EuchreBotServiceServicer_to_server(Servicer(), server)
    server.add_insecure_port(os.environ["EUCHRE_BOT_ADDRESS"])
    server.start()
    signal.signal(signal.SIGTERM, lambda *_: server.stop(0))
    server.wait_for_termination()


if __name__ == "__main__":
    main()
