#!/usr/bin/env bash
# Compiler, standard and Boost cells beyond CI's main build: each builds the
# tests (and, unless FJ_MATRIX_QUICK=1, the examples) with -Wall -Wextra -Werror (CMake option
# BOOST_FORK_JOIN_WERROR) and runs them, for
#   gcc-cxx20             g++ 12, C++20, Boost 1.74 (CI's own build is g++ 12, C++17)
#   clang-cxx17           clang++ 14, C++17, Boost 1.74
#   clang-cxx20           clang++ 14, C++20, Boost 1.74
#   boost-1.81            g++ 12, C++17, Boost 1.81
#   boost-1.81-clang-cxx20  clang++ 14, C++20, Boost 1.81
#   upstream              g++ 12, C++17, the newest upstream Boost.Thread headers first on the
#                         include path (the folder in BOOST_THREAD_UPSTREAM_INCLUDE, else one
#                         that find_upstream below finds), the rest of Boost 1.74
#   public-api            g++ 12, C++17, Boost 1.74, BOOST_THREAD_FJ_PUBLIC_API_ONLY
#                         (boost_compat.hpp: no Boost internals used)
#   b2                    `b2 test`: the whole suite and the examples through the Jamfiles, with
#                         the newest upstream Boost.Thread headers first on the include path
#                         (as `upstream`), at b2's default debug variant (-O0) with the tests'
#                         loop counts divided by 10
#   boost-1.81-public-api-clang-cxx20
#                         clang++ 14, C++20, Boost 1.81, BOOST_THREAD_FJ_PUBLIC_API_ONLY: the
#                         cell CI's step 5 runs (not in the default list, whose cells have each
#                         of these apart)
# Usage: bash .ci/matrix.sh [name ...]   (default: all eight; about 40 minutes on 2 cores)
# FJ_MATRIX_QUICK=1 (what .ci/test.sh step 5 sets): the suite's own tests only
# (BOOST_FORK_JOIN_TEST_EXTRAS=OFF: no builds with other library macros, documentation tests or
# consumer project, which check no compiler or Boost version; nor examples, benchmark or spin
# model checks), at -O0, with the tests' loop counts divided by 10 as in the sanitizer builds.
# Installs what is missing with apt. Debian's Boost 1.81 packages conflict with 1.74's, so they
# are downloaded and unpacked into build/boost-1.81 instead of installed.
set -euo pipefail
cd "$(dirname "$0")/.."

boost181="$PWD/build/boost-1.81"
fetch_boost181() {
  if [ -f "$boost181/usr/lib/x86_64-linux-gnu/cmake/boost_context-1.81.0/boost_context-config.cmake" ]; then
    return
  fi
  mkdir -p "$boost181/debs"
  (cd "$boost181/debs" && apt-get download -qq \
     libboost1.81-dev libboost-thread1.81-dev libboost-thread1.81.0 \
     libboost-chrono1.81-dev libboost-chrono1.81.0 libboost-context1.81-dev libboost-context1.81.0 \
     libboost-atomic1.81-dev libboost-atomic1.81.0 \
     libboost-system1.81-dev libboost-system1.81.0 libboost-date-time1.81-dev libboost-date-time1.81.0 \
     libboost-test1.81-dev libboost-test1.81.0)
  for d in "$boost181"/debs/*.deb; do
    dpkg-deb -x "$d" "$boost181"
  done
}

# The newest upstream Boost.Thread headers: BOOST_THREAD_UPSTREAM_INCLUDE, else the shared
# folder next to this checkout (or next to /work/main, for a clone elsewhere on the machine).
find_upstream() {
  local d
  for d in "${BOOST_THREAD_UPSTREAM_INCLUDE:-}" "$PWD/../shared/boost-thread-upstream/include" \
           /work/shared/boost-thread-upstream/include; do
    if [ -n "$d" ] && [ -f "$d/boost/thread/future.hpp" ]; then
      (cd "$d" && pwd)
      return
    fi
  done
}

quick=()
optimize=-O2
if [ "${FJ_MATRIX_QUICK:-0}" = 1 ]; then
  # -O0: compiles in 40% of -O2's time (46 s against 119 s for the conformance test)
  optimize=-O0
  quick=(-DBOOST_FORK_JOIN_BUILD_EXAMPLES=OFF -DBOOST_FORK_JOIN_BUILD_BENCH=OFF -DBOOST_FORK_JOIN_TEST_EXTRAS=OFF
         -DBOOST_THREAD_FJ_TEST_SCALE=10 -DBOOST_FORK_JOIN_MODEL_CHECK=OFF)
fi

# Configures, builds and tests one cell; the arguments after the name go to cmake.
cell() {
  local name=$1
  shift
  echo "== $name"
  cmake -S . -B "build/matrix-$name" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="$optimize -g0" \
        -DBOOST_FORK_JOIN_WERROR=ON "$@" "${quick[@]}" >/dev/null
  cmake --build "build/matrix-$name" -j"$jobs"
  ctest --test-dir "build/matrix-$name" -j"$jobs" --output-on-failure
}

boost181_args() {
  fetch_boost181
  echo -DBoost_NO_SYSTEM_PATHS=ON -DBoost_DIR="$boost181/usr/lib/x86_64-linux-gnu/cmake/Boost-1.81.0" \
       -DCMAKE_PREFIX_PATH="$boost181/usr"
}

# require_upstream <cell>: prints find_upstream's folder, and on stderr that it is used; without
# one, stops the script with the reason.
require_upstream() {
  local up
  up=$(find_upstream)
  if [ -z "$up" ]; then
    echo "$1: the newest Boost.Thread headers were not found (set BOOST_THREAD_UPSTREAM_INCLUDE)" >&2
    exit 1
  fi
  echo "upstream Boost.Thread headers: $up" >&2
  echo "$up"
}

# `--upstream-include` prints that folder (for .ci/test.sh's sanitizer step) and exits.
if [ "${1:-}" = --upstream-include ]; then
  require_upstream --upstream-include
  exit 0
fi
bash .ci/install-deps.sh clang-14
jobs=$(nproc)

cells=("$@")
if [ ${#cells[@]} -eq 0 ]; then
  cells=(gcc-cxx20 clang-cxx17 clang-cxx20 boost-1.81 boost-1.81-clang-cxx20 upstream public-api b2)
fi
for c in "${cells[@]}"; do
  case "$c" in
    gcc-cxx20) cell "$c" -DCMAKE_CXX_COMPILER=g++ -DCMAKE_CXX_STANDARD=20 ;;
    clang-cxx17) cell "$c" -DCMAKE_CXX_COMPILER=clang++-14 -DCMAKE_CXX_STANDARD=17 ;;
    clang-cxx20) cell "$c" -DCMAKE_CXX_COMPILER=clang++-14 -DCMAKE_CXX_STANDARD=20 ;;
    boost-1.81)
      fetch_boost181
      # shellcheck disable=SC2046 # boost181_args's words are separate arguments, no spaces
      cell "$c" -DCMAKE_CXX_COMPILER=g++ $(boost181_args) ;;
    boost-1.81-clang-cxx20)
      fetch_boost181
      # shellcheck disable=SC2046
      cell "$c" -DCMAKE_CXX_COMPILER=clang++-14 -DCMAKE_CXX_STANDARD=20 $(boost181_args) ;;
    upstream)
      up=$(require_upstream "$c")
      cell "$c" -DCMAKE_CXX_COMPILER=g++ -DCMAKE_CXX_FLAGS="-isystem $up" ;;
    public-api) cell "$c" -DCMAKE_CXX_COMPILER=g++ -DBOOST_FORK_JOIN_PUBLIC_API_ONLY=ON ;;
    b2)
      up=$(require_upstream "$c")
      echo "== b2"
      b2 -j"$jobs" --build-dir=build/matrix-b2 debug-symbols=off include="$up" define=BOOST_THREAD_FJ_TEST_SCALE=10 test ;;
    boost-1.81-public-api-clang-cxx20)
      fetch_boost181
      # shellcheck disable=SC2046
      cell "$c" -DCMAKE_CXX_COMPILER=clang++-14 -DCMAKE_CXX_STANDARD=20 -DBOOST_FORK_JOIN_PUBLIC_API_ONLY=ON $(boost181_args) ;;
    *) echo "unknown cell: $c" >&2; exit 2 ;;
  esac
done
echo "matrix: ${cells[*]} passed"
