"""A bot of the protocol's first revision, for the arena's tests: `python bot.py GEN_DIR`.

Its code is generated from proto/ as it was in the first revision (this folder's proto/,
copied from the repository's history), into GEN_DIR, so it knows nothing added since:
no Hello features, no Action.seat, no Card.copy, no later phases. Like an author's bot
written then, it builds each answer from the fields it knows (kind, suit, card, alone)
instead of copying the legal action whole: seated at a table of a later revision it
would answer wrongly, which is what the arena must never let happen.
"""

import os
import random
import signal
import sys
from concurrent import futures

sys.path.insert(0, sys.argv[1])

import grpc
from euchre.v1 import bot_pb2, bot_pb2_grpc, types_pb2


class Servicer(bot_pb2_grpc.EuchreBotServiceServicer):
    def Hello(self, request, context):
        return bot_pb2.HelloResponse(name="rev1", version="1", author="tests",
                                     protocol_version=1)

    def StartGame(self, request, context):
        return bot_pb2.StartGameResponse()

    def Decide(self, request, context):
        pick = random.Random(f"{request.game_id}:{request.decision_number}")
        chosen = pick.choice(request.legal_actions)
        action = types_pb2.Action(kind=chosen.kind, suit=chosen.suit, alone=chosen.alone)
        if chosen.HasField("card"):
            action.card.suit, action.card.rank = chosen.card.suit, chosen.card.rank
        return bot_pb2.DecideResponse(action=action)

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
