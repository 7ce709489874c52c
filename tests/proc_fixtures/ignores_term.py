"""A bot that ignores SIGTERM: only SIGKILL ends it."""

import signal

from _common import listen, serve_forever

signal.signal(signal.SIGTERM, signal.SIG_IGN)
serve_forever(listen())
