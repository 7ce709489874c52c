"""The trivial bot of bench/decisions.py: answers the first legal action, decoding nothing,
so that both the arena's path and the bare client's path meet the same cheap server."""

import os
import threading
from concurrent import futures

import grpc

from arena.wire.gen.euchre.v1 import bot_pb2, bot_pb2_grpc


class Trivial(bot_pb2_grpc.EuchreBotServiceServicer):
    def Hello(self, request, context):
        return bot_pb2.HelloResponse(name="trivial", version="1", protocol_version=1)

    def StartGame(self, request, context):
        return bot_pb2.StartGameResponse()

    def Decide(self, request, context):
        return bot_pb2.DecideResponse(action=request.legal_actions[0])

    def EndGame(self, request, context):
        return bot_pb2.EndGameResponse()


if __name__ == "__main__":
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=4))
    bot_pb2_grpc.add_EuchreBotServiceServicer_to_server(Trivial(), server)
    server.add_insecure_port(os.environ["EUCHRE_BOT_ADDRESS"])
    server.start()
    threading.Event().wait()
