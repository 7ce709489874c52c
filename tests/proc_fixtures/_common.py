"""Shared by the fixture bots: listen where the arena says, like a gRPC server would."""

import os
import socket
import sys
import time


def listen() -> socket.socket:
    address = os.environ["EUCHRE_BOT_ADDRESS"]
    if address.startswith("unix:"):
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        sock.bind(address.removeprefix("unix:"))
    else:
        host, _, port = address.rpartition(":")
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, int(port)))
    sock.listen(16)
    return sock


def serve_forever(sock: socket.socket, exit_after: float | None = None) -> None:
    """Accept and drop connections; optionally exit (code 4) after some seconds."""
    deadline = None if exit_after is None else time.monotonic() + exit_after
    sock.settimeout(0.05)
    while deadline is None or time.monotonic() < deadline:
        try:
            conn, _ = sock.accept()
        except TimeoutError:
            continue
        conn.close()
    sys.exit(4)
