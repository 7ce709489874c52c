"""Spawned by spawns_grandchild.py; ignores SIGTERM and sleeps forever."""

import signal
import time

signal.signal(signal.SIGTERM, signal.SIG_IGN)
while True:
    time.sleep(1)
