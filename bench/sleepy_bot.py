"""The bot of bench/scale.py: sleeps a fixed time, then answers the first legal action,
decoding nothing. Many games share one process (it is given to the arena by address), so
the bots cost the machine little and the arena's own work is what is measured."""

import os
import threading
import time
from concurrent import futures

import grpc

from arena.wire.gen.euchre.v1 import bot_pb2, bot_pb2_grpc

SLEEP = float(os.environ.get("SLEEP_MS", "5")) / 1000


class Sleepy(bot_pb2_grpc.EuchreBotServiceServicer):
    def Hello(self, request, context):
        return bot_pb2.HelloResponse(name="sleepy", version="1", protocol_version=1)

    def StartGame(self, request, context):
        return bot_pb2.StartGameResponse()

    def Decide(self, request, context):
        time.sleep(SLEEP)
        return bot_pb2.DecideResponse(action=request.legal_actions[0])

    def EndGame(self, request, context):
        return bot_pb2.EndGameResponse()


if __name__ == "__main__":
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=128))
    bot_pb2_grpc.add_EuchreBotServiceServicer_to_server(Sleepy(), server)
    server.add_insecure_port(os.environ["EUCHRE_BOT_ADDRESS"])
    server.start()
    threading.Event().wait()
