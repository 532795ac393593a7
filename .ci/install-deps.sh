#!/usr/bin/env bash
# Installs, with apt, whatever of the build's dependencies is missing (Debian 12 or later).
# Usage: bash .ci/install-deps.sh [extra-package ...]
# (spin: the model check of test/model, which the plain CMake build runs as a test; python3:
# the documentation's tests, test/doc.)
# (demo.sh adds the benchmark's: libtbb-dev for the oneTBB peers, gnuplot-nox for its chart,
# ca-certificates for fetch-libfork.sh's download.)
set -euo pipefail
packages=(g++ cmake make python3 libboost-thread-dev libboost-chrono-dev libboost-context-dev libboost-test-dev libboost-tools-dev spin "$@")
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi
sudo=""
if [ "$(id -u)" != 0 ]; then sudo="sudo"; fi
echo "installing: ${missing[*]}"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
