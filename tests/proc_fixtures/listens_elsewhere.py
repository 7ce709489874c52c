"""A bot that listens, but not where it was told: on a TCP port and an abstract unix
socket of its own choosing. It says what it was told and where it listens."""

import os
import socket
import time

tcp = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
tcp.bind(("127.0.0.1", 0))
tcp.listen()
named = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
named.bind(f"\0elsewhere-{os.getpid()}")
named.listen()
print(f"told {os.environ['EUCHRE_BOT_ADDRESS']}", flush=True)
print(f"listening on 127.0.0.1:{tcp.getsockname()[1]} and unix-abstract:elsewhere-{os.getpid()}",
      flush=True)
while True:
    time.sleep(1)
