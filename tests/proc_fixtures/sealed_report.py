"""A bot that reports what its sandbox lets it see, then listens; exits 0 on SIGTERM."""

import importlib.util
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
# What /tmp holds besides the way to the folders bound in read-only (this bot's own, the
# Python it runs and the arena's packages, when those live under /tmp): nothing.
bound = [os.path.realpath(p) for p in (os.getcwd(), sys.prefix, sys.base_prefix)]
for package in ("arena", "sample_bots"):
    spec = importlib.util.find_spec(package)
    if spec is not None and spec.origin:
        bound.append(os.path.realpath(spec.origin))
entries = [e for e in os.listdir("/tmp")
           if not any(b.startswith(os.path.join("/tmp", e) + os.sep) for b in bound)]
print(f"home={os.environ.get('HOME')} tmp={sorted(entries)}", flush=True)
serve_forever(listen())
