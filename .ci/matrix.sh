#!/usr/bin/env bash
# The compilers, standards and Boost versions beyond CI's time budget (issue 11): builds the
# tests and examples with -Wall -Wextra -Werror (CMake option BOOST_FORK_JOIN_WERROR) and runs
# them, for
#   gcc-cxx20    g++ 12, C++20, Boost 1.74 (CI's own build is g++ 12, C++17)
#   clang-cxx17  clang++ 14, C++17, Boost 1.74
#   clang-cxx20  clang++ 14, C++20, Boost 1.74
#   boost-1.81   g++ 12, C++17, Boost 1.81
# Usage: bash .ci/matrix.sh [name ...]   (default: all four; about 17 minutes on 2 cores)
# Installs what is missing with apt. Debian's Boost 1.81 packages conflict with 1.74's, so they
# are downloaded and unpacked into build/boost-1.81 instead of installed.
set -euo pipefail
cd "$(dirname "$0")/.."
bash .ci/install-deps.sh clang-14
jobs=$(nproc)

boost181="$PWD/build/boost-1.81"
fetch_boost181() {
  if [ -f "$boost181/usr/include/boost/version.hpp" ]; then
    return
  fi
  mkdir -p "$boost181/debs"
  (cd "$boost181/debs" && apt-get download -qq \
     libboost1.81-dev libboost-thread1.81-dev libboost-thread1.81.0 \
     libboost-chrono1.81-dev libboost-chrono1.81.0 libboost-atomic1.81-dev libboost-atomic1.81.0 \
     libboost-system1.81-dev libboost-system1.81.0 libboost-date-time1.81-dev libboost-date-time1.81.0 \
     libboost-test1.81-dev libboost-test1.81.0)
  for d in "$boost181"/debs/*.deb; do
    dpkg-deb -x "$d" "$boost181"
  done
}

# Configures, builds and tests one cell; the arguments after the name go to cmake.
cell() {
  local name=$1
  shift
  echo "== $name"
  cmake -S . -B "build/matrix-$name" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -g0" \
        -DBOOST_FORK_JOIN_WERROR=ON "$@" >/dev/null
  cmake --build "build/matrix-$name" -j"$jobs"
  ctest --test-dir "build/matrix-$name" -j"$jobs" --output-on-failure
}

cells=("$@")
if [ ${#cells[@]} -eq 0 ]; then
  cells=(gcc-cxx20 clang-cxx17 clang-cxx20 boost-1.81)
fi
for c in "${cells[@]}"; do
  case "$c" in
    gcc-cxx20) cell "$c" -DCMAKE_CXX_COMPILER=g++ -DCMAKE_CXX_STANDARD=20 ;;
    clang-cxx17) cell "$c" -DCMAKE_CXX_COMPILER=clang++-14 -DCMAKE_CXX_STANDARD=17 ;;
    clang-cxx20) cell "$c" -DCMAKE_CXX_COMPILER=clang++-14 -DCMAKE_CXX_STANDARD=20 ;;
    boost-1.81)
      fetch_boost181
      cell "$c" -DCMAKE_CXX_COMPILER=g++ -DBoost_NO_SYSTEM_PATHS=ON \
           -DBoost_DIR="$boost181/usr/lib/x86_64-linux-gnu/cmake/Boost-1.81.0" \
           -DCMAKE_PREFIX_PATH="$boost181/usr" ;;
    *) echo "unknown cell: $c" >&2; exit 2 ;;
  esac
done
echo "matrix: ${cells[*]} passed"
