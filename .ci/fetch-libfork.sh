#!/usr/bin/env bash
# For demo.sh: libfork (a C++20 library that Debian does not package) for the benchmark's libfork
# peers. Fetches its single header, libfork.hpp, at the commit doc/benchmark/README.md measured
# ("libfork in the same run"), into build/libfork/<commit>/ (once; nothing is vendored), checks
# that a libfork peer's file compiles with it and with this compiler (c++, or $CXX), and prints
# that folder. When the download or the check fails, it says why on stderr, prints nothing and exits
# with 1: the benchmark is then built without the libfork peers.
set -euo pipefail
cd "$(dirname "$0")/.."
commit=00c97bfecf644e912b743dce571a2df90df7e4d9
url="https://raw.githubusercontent.com/ConorWilliams/libfork/$commit/single_header/libfork.hpp"
dir="build/libfork/$commit"
mkdir -p "$dir"
if [ ! -f "$dir/libfork.hpp" ]; then
  if ! python3 - "$url" "$dir/libfork.hpp" <<'EOF'
import sys, urllib.request
url, out = sys.argv[1], sys.argv[2]
try:
    with urllib.request.urlopen(url, timeout=60) as r:
        data = r.read()
except Exception as e:
    sys.exit("fetch-libfork: %s" % e)
if b"LF_VERSION_MAJOR" not in data:
    sys.exit("fetch-libfork: the download is not libfork's single header")
open(out + ".part", "wb").write(data)
EOF
  then
    echo "fetch-libfork: could not download $url; building without the libfork peers" >&2
    exit 1
  fi
  mv "$dir/libfork.hpp.part" "$dir/libfork.hpp"
fi
# One peer's file, whose templates bind tasks as this compiler allows (libfork_peer.hpp); about
# two seconds, checked on every run, since the compiler may have changed.
if ! "${CXX:-c++}" -std=c++20 -fsyntax-only -isystem "$dir" libs/fork_join/bench/fib/libfork.cpp 2>"$dir/check.log"; then
  echo "fetch-libfork: libfork.hpp does not compile with ${CXX:-c++} -std=c++20 ($dir/check.log);" \
       "building without the libfork peers" >&2
  exit 1
fi
echo "$PWD/$dir"
