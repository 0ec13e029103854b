#!/usr/bin/env bash
# Configures and builds GemmScope into ./build (Release; the CUDA Toolkit at /usr/local/cuda is
# used when present). Usage: scripts/build.sh [extra cmake args]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
gen=()
command -v ninja >/dev/null && gen=(-G Ninja)
[ -f build/CMakeCache.txt ] && gen=()
cmake -S . -B build "${gen[@]}" -DCMAKE_BUILD_TYPE=Release "$@"
cmake --build build --parallel "$(nproc)"
