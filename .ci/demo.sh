#!/usr/bin/env bash
# README command 1: installs what is missing, builds the benchmark program optimized, runs it.
# Extra arguments go to the benchmark (try --help).
set -euo pipefail
cd "$(dirname "$0")/.."
bash .ci/install-deps.sh
cmake -S . -B build/release -DCMAKE_BUILD_TYPE=Release -DBOOST_FORK_JOIN_BUILD_TESTS=OFF \
      -DBOOST_FORK_JOIN_BUILD_EXAMPLES=OFF >/dev/null
cmake --build build/release -j"$(nproc)" --target fork_join_bench
exec build/release/libs/fork_join/bench/fork_join_bench "$@"
