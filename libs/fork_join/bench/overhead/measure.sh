#!/usr/bin/env bash
# Counts the instructions, and the atomic read-modify-writes and fences (atomics.py), of each
# path of fork_join_overhead_bench with callgrind, for one or more source trees
# (doc/benchmark/README.md, "Cancellation's cost"):
#   bash libs/fork_join/bench/overhead/measure.sh TREE...
# builds this folder's sources against each TREE's headers (g++ -O2 -DNDEBUG, the system Boost)
# and prints, per path, what measured_<mode> executed: fib(18) by fork and join, by
# boost::async and join, by parallel_invoke and by a task block per call, and parallel_for over
# 2^16 elements; each cell is "instructions / atomics". An older tree needs only the API these
# sources use (main.cpp says which). The counts repeat exactly from run to run; valgrind, g++,
# objdump and python3 must be installed.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
[ $# -ge 1 ] || { echo "usage: measure.sh TREE..." >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
printf '%-12s %20s %20s %20s %20s %20s\n' tree "fork 18" "async 18" "invoke 18" "block 18" "for 65536"
for tree in "$@"; do
  tree=$(cd "$tree" && pwd)
  for f in main fork async invoke block for; do
    g++ -std=c++17 -O2 -DNDEBUG -DBOOST_THREAD_VERSION=5 -I"$tree" -c "$here/$f.cpp" -o "$work/$f.o"
  done
  g++ -o "$work/bench" "$work"/*.o -lboost_thread -lboost_chrono -lboost_context -pthread
  row=$(printf '%-12s' "$(git -C "$tree" rev-parse --short HEAD 2>/dev/null || echo "$tree")")
  for run in "fork 18" "async 18" "invoke 18" "block 18" "for 65536"; do
    # shellcheck disable=SC2086 # run is a mode and its n
    valgrind --tool=callgrind --toggle-collect='measured_*' --dump-instr=yes --compress-pos=no \
      --compress-strings=no --callgrind-out-file="$work/out" "$work/bench" $run >/dev/null 2>&1
    instructions=$(callgrind_annotate "$work/out" 2>/dev/null | awk '/PROGRAM TOTALS/ {print $1}')
    row+=$(printf ' %20s' "$instructions / $(python3 "$here/atomics.py" "$work/out")")
  done
  echo "$row"
done
