"""A bot that reports what its sandbox lets it see, then listens; exits 0 on SIGTERM."""

import os
import signal
import sys

from _common import listen, serve_forever


def stop(signum, frame):
    print("got SIGTERM, exiting cleanly", flush=True)
    sys.exit(0)


signal.signal(signal.SIGTERM, stop)
print(f"uid={os.getuid()} pid={os.getpid()}")
print("env=" + ",".join(sorted(os.environ)))
print("pids=" + ",".join(sorted(p for p in os.listdir("/proc") if p.isdigit())))
for path in os.environ.get("FIXTURE_PROBE", "").split(":"):
    if path:
        try:
            if os.path.isdir(path):
                print(f"probe {path}: lists {','.join(sorted(os.listdir(path)))}")
            else:
                open(path, "rb").close()
                print(f"probe {path}: READABLE")
        except OSError as e:
            print(f"probe {path}: blocked ({e.strerror})")
try:
    open(os.path.join(os.getcwd(), "written-by-bot"), "w").close()
    print("own folder: WRITABLE")
except OSError as e:
    print(f"own folder: read-only ({e.strerror})")
print(f"home={os.environ.get('HOME')} tmp={sorted(os.listdir('/tmp'))}", flush=True)
serve_forever(listen())
