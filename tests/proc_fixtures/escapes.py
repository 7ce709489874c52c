"""A bot that leaves a child in a session of its own (double fork, setsid), which a
process-group kill cannot reach, then listens."""

import os
import time

from _common import listen, serve_forever

if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        while True:
            time.sleep(1)
    os._exit(0)
os.wait()
serve_forever(listen())
