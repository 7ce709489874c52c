"""The trivial bot of the benches: answers the first legal action, decoding nothing, so
that the arena's path and a bare client's meet the same cheap server. SLEEP_MS makes it
wait that long first (bench/scale.py: a bot of fixed latency, many games in one process,
costing the machine little)."""

import os
import threading
import time
from concurrent import futures

import grpc

from arena.wire.gen.euchre.v1 import bot_pb2, bot_pb2_grpc

SLEEP = float(os.environ.get("SLEEP_MS", "0")) / 1000


class Trivial(bot_pb2_grpc.EuchreBotServiceServicer):
    def Hello(self, request, context):
        return bot_pb2.HelloResponse(name="trivial", version="1", protocol_version=1)

    def StartGame(self, request, context):
        return bot_pb2.StartGameResponse()

    def Decide(self, request, context):
        if SLEEP:
            time.sleep(SLEEP)
        return bot_pb2.DecideResponse(action=request.legal_actions[0])

    def EndGame(self, request, context):
        return bot_pb2.EndGameResponse()


if __name__ == "__main__":
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=128 if SLEEP else 4))
    bot_pb2_grpc.add_EuchreBotServiceServicer_to_server(Trivial(), server)
    server.add_insecure_port(os.environ["EUCHRE_BOT_ADDRESS"])
    server.start()
    threading.Event().wait()
