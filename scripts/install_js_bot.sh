#!/bin/sh
# Installs the JavaScript sample bot's dependencies (sample_bots/js/node_modules: grpc-js
# and proto-loader, as its package-lock.json pins them) with `npm ci`. Quiet unless it
# fails, and a no-op when the installed tree is newer than the lock file. Where node is
# not installed it does nothing and says so: the bot's tests skip, naming the reason.
# Where node is but npm is not, or npm fails, it fails.
set -eu
cd "$(dirname "$0")/../sample_bots/js"

if ! command -v node >/dev/null 2>&1; then
    echo "install_js_bot.sh: node is not installed: the JavaScript sample bot's tests will skip" >&2
    exit 0
fi
if [ node_modules/.package-lock.json -nt package-lock.json ]; then
    exit 0
fi
if ! command -v npm >/dev/null 2>&1; then
    echo "install_js_bot.sh: node is installed but npm is not: install npm" >&2
    exit 1
fi
# --ignore-scripts: no package's install script runs; none of these needs one.
if ! npm ci --ignore-scripts --no-audit --no-fund --loglevel=error >/dev/null; then
    echo "install_js_bot.sh: npm ci failed in sample_bots/js (see npm's messages above)" >&2
    exit 1
fi
