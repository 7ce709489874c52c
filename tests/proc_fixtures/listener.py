"""A well-behaved bot: reports what it was given, then listens until SIGTERM."""

import ctypes
import os
import sys

from _common import listen, serve_forever

print(f"cwd={os.getcwd()}")
for key in ("EUCHRE_BOT_ADDRESS", "PYTHONUNBUFFERED", "FIXTURE_GREETING"):
    print(f"{key}={os.environ.get(key)}")
if sys.platform.startswith("linux"):
    deathsig = ctypes.c_int()
    ctypes.CDLL(None).prctl(2, ctypes.byref(deathsig), 0, 0, 0)  # PR_GET_PDEATHSIG
    print(f"pdeathsig={deathsig.value}")
print("listener on stderr", file=sys.stderr)
exit_after = os.environ.get("FIXTURE_EXIT_AFTER")
serve_forever(listen(), float(exit_after) if exit_after else None)
