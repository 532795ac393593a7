#!/usr/bin/env bash
# README command 2: installs what is missing, then builds and runs the tests.
#   bash .ci/test.sh          the quick run, for users and day-to-day work: one optimized
#                             build and its tests (step 1 below without the spin model checks
#                             and the benchmark's smoke build, the slowest parts of step 1),
#                             in build/quick; from a fresh clone (70 tests) 6:16 on 2 idle
#                             cores of a fast host (7:11 to 7:33 before most run tests were
#                             built as four programs: test/CMakeLists.txt), 13:38 on a slow
#                             one (before that change).
#   bash .ci/test.sh --full   what CI runs (.ci/run): the five steps below (see the end of
#                             this comment for their times).
# Every CMake build is RelWithDebInfo with its flags replaced: assertions stay on (no NDEBUG),
# and the sanitizer builds use -g1 (line tables: enough for their reports), which halves the
# compile time of full -g; step 1 has no reports to symbolize and builds with -g0.
#  1. optimized with assertions (CMake + CTest): tests, examples, header and compile-fail
#     tests, the documentation's programs, fragments and links (test/doc), the spin model
#     checks, the benchmark's own smoke tests (the benchmark built at -O0, with a precompiled
#     header: they check that it runs; its speed is .ci/demo.sh's) and the find_package
#     consumer test; the examples and the documentation's code with
#     BOOST_FORK_JOIN_STRICT_WARNINGS (-Wall -Wextra -Wpedantic -Wshadow -Wconversion
#     -Wsign-conversion -Werror: what a user's strict build meets);
#  2. the tests and examples that run code, under ThreadSanitizer (the compile-only header,
#     compile-fail and consumer tests are not repeated: they would check nothing new);
#  3. the same under AddressSanitizer + UndefinedBehaviorSanitizer, built with clang++-14 and
#     the newest upstream Boost.Thread headers first on the include path (.ci/matrix.sh's
#     `upstream` cell, here under the sanitizers) and the rest of the system Boost: g++ takes
#     twice as long to compile UBSan's checks (45 s against 29 s for one test file), and steps 1
#     and 2 already build with g++. At -O0: the optimizer removes no check, and clang compiles a
#     test file three times faster than at -O1 (11 s against 32 s). (ThreadSanitizer stays at
#     -O1: built at -O0, GCC 12's run-time crashed (SEGV in its StackDepot, storing a stack
#     trace) in several tests, and the tests ran longer than the compile saved.)
#  4. b2: every target of the Jamfiles resolved (`b2 -n -a test`, nothing built), and the
#     examples built and run through them with the upstream headers (`b2 example`); the whole
#     suite through b2 is `bash .ci/matrix.sh b2` (7:26 on a host where this step takes 0:30);
#  5. one more compiler and Boost cell (.ci/matrix.sh, quick: the suite's own tests, -O0, the
#     smaller loop counts): Boost 1.81 with clang++ in C++20, in the public-API-only mode
#     (BOOST_THREAD_FJ_PUBLIC_API_ONLY); `bash .ci/matrix.sh` runs the other cells.
# Each step prints its time. On a host where the whole script took 58 minutes at 2c206aa (its
# steps then: 20:06, 10:20, 9:23, 7:26 and 10:48, with b2 building the whole suite and two
# cells that also ran the documentation's tests and the configuration variants), steps 4 and 5
# now save about 14 minutes; later that day the same host ran steps 1 and 2 in 21:27 and 13:31
# (the whole script: 47 minutes). A faster host ran the steps in 10:29, 5:52, 3:42, 0:15 and 1:20
# (22 minutes), and in 9:34, 5:10, 3:49, 0:21 and 1:24 (20:18) once most run tests were built as
# four programs: each step is bound by compiling on 2 cores, and compiles go at the host's speed.
set -euo pipefail
cd "$(dirname "$0")/.."
case "${1:-}" in
  "") mode=quick ;;
  --full) mode=full ;;
  *) echo "usage: bash .ci/test.sh [--full]" >&2; exit 2 ;;
esac
jobs=$(nproc)
# Options of step 1 that both runs share.
step1_options=(-DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -g0"
               -DBOOST_FORK_JOIN_STRICT_WARNINGS=ON)

if [ "$mode" = quick ]; then
  bash .ci/install-deps.sh
  SECONDS=0
  echo "== quick: CMake, RelWithDebInfo (no model checks, no benchmark; bash .ci/test.sh --full has them)"
  cmake -S . -B build/quick "${step1_options[@]}" -DBOOST_FORK_JOIN_MODEL_CHECK=OFF -DBOOST_FORK_JOIN_BUILD_BENCH=OFF >/dev/null
  cmake --build build/quick -j"$jobs"
  ctest --test-dir build/quick -j"$jobs" --output-on-failure
  printf '== quick took %d:%02d\n' $((SECONDS / 60)) $((SECONDS % 60))
  exit 0
fi

# libtbb-dev: the benchmark smoke test also checks the oneTBB peers; clang-14 and
# libclang-rt-14-dev (its sanitizer run-times): step 3
bash .ci/install-deps.sh libtbb-dev clang-14 libclang-rt-14-dev
log=$(mktemp -d)
trap 'rm -rf "$log"' EXIT
passed=0
# Prints a step's heading, and how long the step before it took (minutes:seconds).
SECONDS=0
step() {
  if [ -n "${step_name:-}" ]; then
    printf '== %s took %d:%02d\n' "$step_name" $((SECONDS / 60)) $((SECONDS % 60))
  fi
  step_name=$1
  SECONDS=0
  if [ "$1" != end ]; then
    echo "== $1"
  fi
}
# Runs ctest on a build tree and adds its test count to `passed` (a failure stops the script).
run_ctest() {
  ctest --test-dir "$1" -j"$jobs" --output-on-failure 2>&1 | tee "$log/ctest"
  passed=$((passed + $(sed -n 's/^100% tests passed, 0 tests failed out of \([0-9]*\)$/\1/p' "$log/ctest")))
}

step "1/5 CMake, RelWithDebInfo"
cmake -S . -B build/test "${step1_options[@]}" -DBOOST_FORK_JOIN_BENCH_COMPILE_OPTIONS=-O0 >/dev/null
cmake --build build/test -j"$jobs"
run_ctest build/test

step "2/5 CMake, ThreadSanitizer"
cmake -S . -B build/tsan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DBOOST_FORK_JOIN_BUILD_BENCH=OFF \
      -DCMAKE_CXX_FLAGS="-fsanitize=thread" -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1" -DBOOST_THREAD_FJ_SANITIZER=thread >/dev/null
cmake --build build/tsan -j"$jobs"
TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1 suppressions=$PWD/test/tsan_suppressions.txt" run_ctest build/tsan

step "3/5 CMake, AddressSanitizer + UndefinedBehaviorSanitizer (clang++-14), the newest upstream Boost.Thread headers"
up=$(bash .ci/matrix.sh --upstream-include)
cmake -S . -B build/asan -DCMAKE_CXX_COMPILER=clang++-14 -DCMAKE_BUILD_TYPE=RelWithDebInfo -DBOOST_FORK_JOIN_BUILD_BENCH=OFF \
      -DCMAKE_CXX_FLAGS="-isystem $up -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer" \
      -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O0 -g1" \
      -DBOOST_THREAD_FJ_SANITIZER=address >/dev/null
cmake --build build/asan -j"$jobs"
ASAN_OPTIONS="detect_leaks=1" UBSAN_OPTIONS="print_stacktrace=1" run_ctest build/asan

step "4/5 b2: every target of the Jamfiles, and the examples built and run"
b2 -n -a --build-dir=build/b2 debug-symbols=off test >"$log/b2n" 2>&1 || { cat "$log/b2n"; exit 1; }
grep '^\.\.\.updated [0-9]* targets' "$log/b2n"
b2 -j"$jobs" --build-dir=build/b2 debug-symbols=off include="$up" example 2>&1 | tee "$log/b2"
passed=$((passed + $(grep -c '^\*\*passed\*\*' "$log/b2")))

step "5/5 a compiler and Boost cell"
FJ_MATRIX_QUICK=1 bash .ci/matrix.sh boost-1.81-public-api-clang-cxx20 2>&1 | tee "$log/matrix"
passed=$((passed + $(sed -n 's/^100% tests passed, 0 tests failed out of \([0-9]*\)$/\1/p' "$log/matrix" | awk '{s += $1} END {print s + 0}')))

step end
echo "summary: $passed passed, 0 failed"
