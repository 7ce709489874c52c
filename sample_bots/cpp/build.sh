#!/bin/sh
# Builds the C++ sample bot into build/cppbot (see Makefile), after checking that the
# tools are installed: on Debian or Ubuntu,
#   apt-get install g++ make pkg-config libgrpc++-dev protobuf-compiler-grpc libprotobuf-dev protobuf-compiler
# (scripts/install_cpp_toolchain.sh installs them). Extra arguments go to make, e.g.
# `sh build.sh clean`. PROTO=DIR builds from a copy of proto/ elsewhere.
set -eu
cd "$(dirname "$0")"

missing=""
for tool in "${CXX:-g++}" make pkg-config protoc grpc_cpp_plugin; do
    command -v "$tool" >/dev/null 2>&1 || missing="$missing $tool"
done
if command -v pkg-config >/dev/null 2>&1; then
    for lib in grpc++ protobuf; do
        pkg-config --exists "$lib" || missing="$missing $lib (pkg-config)"
    done
fi
if [ -n "$missing" ]; then
    echo "build.sh: not installed:$missing (see the top of $0)" >&2
    exit 1
fi

# Every core: the generated code and gRPC's headers take most of the time.
exec make -j "$(nproc 2>/dev/null || echo 2)" "$@"
