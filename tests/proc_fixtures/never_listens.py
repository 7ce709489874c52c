"""A bot that starts but never listens."""

import time

print("thinking very hard", flush=True)
while True:
    time.sleep(1)
