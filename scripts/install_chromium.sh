#!/bin/sh
# Installs Debian's chromium (run headless by tests/views/test_replay_html.py, which checks the
# HTML replay viewer in a real browser). Idempotent: does nothing when /usr/bin/chromium
# is already there. Run as root; CI runs it before the tests.
set -eu

if [ -x /usr/bin/chromium ]; then
    exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
    echo "install_chromium.sh: must run as root (e.g. sudo $0)" >&2
    exit 1
fi

export DEBIAN_FRONTEND=noninteractive
log=$(mktemp)
trap 'rm -f "$log"' EXIT

# Quiet unless something goes wrong: then apt's own output says what.
if ! apt-get update -qq >"$log" 2>&1 \
    || ! apt-get install -y -qq --no-install-recommends chromium >>"$log" 2>&1; then
    cat "$log" >&2
    echo "install_chromium.sh: installing chromium failed" >&2
    exit 1
fi

if [ ! -x /usr/bin/chromium ]; then
    echo "install_chromium.sh: apt-get succeeded but /usr/bin/chromium is missing" >&2
    exit 1
fi
echo "install_chromium.sh: installed $(/usr/bin/chromium --version 2>/dev/null)"
