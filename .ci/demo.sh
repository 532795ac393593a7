#!/usr/bin/env bash
# README command 1: installs what is missing (the build's dependencies, and for the benchmark
# oneTBB, gnuplot and CA certificates; OpenMP's libgomp comes with g++), builds the benchmark program optimized,
# runs the full benchmark (about 5 minutes on 2 cores, up to 10 with re-runs of noisy cells)
# and writes its results to doc/benchmark/results.json and doc/benchmark/results.png, the
# committed results. It also builds fork_join_trace_plot (build/release/libs/fork_join/bench/),
# which draws a trace (doc/index.md, "Seeing a run: traces").
# libfork, which Debian does not package, is fetched for its peers by .ci/fetch-libfork.sh (a
# pinned commit of its single header, into build/libfork/), unless LIBFORK_INCLUDE_DIR names a
# folder holding libfork.hpp; without either the benchmark runs without the libfork peers.
# Extra arguments go to the benchmark after those (try --help). With --quick (tiny problems)
# the results go to build/demo-quick/ instead, so that only a full run changes the committed
# ones; a later --json or --plot writes elsewhere, e.g. `--json /tmp/r.json --plot /tmp/r.png`.
set -euo pipefail
cd "$(dirname "$0")/.."
bash .ci/install-deps.sh libtbb-dev gnuplot-nox ca-certificates
if [ -z "${LIBFORK_INCLUDE_DIR:-}" ]; then
  LIBFORK_INCLUDE_DIR=$(bash .ci/fetch-libfork.sh) || LIBFORK_INCLUDE_DIR=""
fi
# Configure quietly, but show which peers were found and which skipped.
cmake -S . -B build/release -DCMAKE_BUILD_TYPE=Release -DBOOST_FORK_JOIN_BUILD_TESTS=OFF \
      -DBOOST_FORK_JOIN_BUILD_EXAMPLES=OFF -DLIBFORK_INCLUDE_DIR="$LIBFORK_INCLUDE_DIR" \
  | { grep 'fork_join_bench:' || true; }
cmake --build build/release -j"$(nproc)" --target fork_join_bench fork_join_shared_queue_bench fork_join_fork_cost_bench \
  fork_join_scaling_bench fork_join_trace_plot
out=doc/benchmark
for arg in "$@"; do
  if [ "$arg" = --quick ]; then out=build/demo-quick; fi
done
mkdir -p "$out"
exec build/release/libs/fork_join/bench/fork_join_bench \
     --json "$out/results.json" --plot "$out/results.png" "$@"
