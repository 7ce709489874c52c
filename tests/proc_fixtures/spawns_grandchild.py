"""A bot that ignores SIGTERM and starts a helper that ignores it too.

It writes the helper's pid to $FIXTURE_PIDFILE (atomically) before it listens. With
$FIXTURE_EXIT_AFTER it exits by itself (code 4) after that many seconds, leaving the helper.
"""

import os
import signal
import subprocess
import sys
from pathlib import Path

from _common import listen, serve_forever

signal.signal(signal.SIGTERM, signal.SIG_IGN)
helper = subprocess.Popen([sys.executable, str(Path(__file__).with_name("grandchild.py"))])
pidfile = Path(os.environ["FIXTURE_PIDFILE"])
tmp = pidfile.with_suffix(".tmp")
tmp.write_text(str(helper.pid))
tmp.rename(pidfile)
exit_after = os.environ.get("FIXTURE_EXIT_AFTER")
serve_forever(listen(), float(exit_after) if exit_after else None)
