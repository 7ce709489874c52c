#!/bin/sh
# Installs what the C++ sample bot (sample_bots/cpp) is built with: a compiler, make,
# pkg-config, protoc with gRPC's C++ plugin, and the grpc++ and protobuf libraries, from
# Debian's packages. Idempotent: does nothing when all of it is there. Installs only as
# root where apt-get is; elsewhere it says in one line what is missing and exits 0, as
# it does when apt fails: the bot is optional, and its tests skip naming the reason.
set -eu

# A tool or library, and the Debian package that brings it.
missing=""
need_tool() { command -v "$1" >/dev/null 2>&1 || missing="$missing $2"; }
need_lib() { pkg-config --exists "$1" 2>/dev/null || missing="$missing $2"; }
need_tool g++ g++
need_tool make make
need_tool pkg-config pkg-config
need_tool protoc protobuf-compiler
need_tool grpc_cpp_plugin protobuf-compiler-grpc
need_lib grpc++ libgrpc++-dev
need_lib protobuf libprotobuf-dev
if [ -z "$missing" ]; then
    exit 0
fi

skip="the C++ sample bot's tests will skip"
if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null 2>&1; then
    echo "install_cpp_toolchain.sh: missing, to install as root: apt-get install$missing ($skip)" >&2
    exit 0
fi

export DEBIAN_FRONTEND=noninteractive
log=$(mktemp)
trap 'rm -f "$log"' EXIT
# Quiet unless something goes wrong: then apt's own output says what.
# shellcheck disable=SC2086 # $missing is a list of package names
if ! apt-get update -qq >"$log" 2>&1 \
    || ! apt-get install -y -qq --no-install-recommends $missing >>"$log" 2>&1; then
    cat "$log" >&2
    echo "install_cpp_toolchain.sh: apt-get install$missing failed, as apt says above ($skip)" >&2
    exit 0
fi
echo "install_cpp_toolchain.sh: installed$missing"
