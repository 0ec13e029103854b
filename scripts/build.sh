#!/usr/bin/env bash
# Configures and builds GemmScope into ./build (Release; the CUDA Toolkit at /usr/local/cuda is
# used when present). Usage: scripts/build.sh [--gui] [extra cmake args]
#   --gui  builds only what the window needs — gemmscope, gemmscope-runner (it starts one) and
#          gemmscope-bench — not the tests: the first start of scripts/run-gui.sh.
# ccache is used when it is installed (a rebuild after a pull then recompiles what changed).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
targets=()
if [ "${1:-}" = "--gui" ]; then
  shift
  targets=(--target gemmscope gemmscope-bench)
fi
gen=()
command -v ninja >/dev/null && gen=(-G Ninja)
[ -f build/CMakeCache.txt ] && gen=()
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
cmake -S . -B build "${gen[@]}" -DCMAKE_BUILD_TYPE=Release "${launcher[@]}" "$@"
cmake --build build --parallel "$(nproc)" "${targets[@]}"
