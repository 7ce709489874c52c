"""A bot that writes 50 MB to stderr before it listens: it must not block on the pipe."""

import os

from _common import listen, serve_forever

chunk = (b"x" * 1023 + b"\n") * 64  # 64 KiB
for _ in range(50 * 1024 * 1024 // len(chunk)):
    os.write(2, chunk)
serve_forever(listen())
