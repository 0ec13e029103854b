#!/usr/bin/env bash
# Installs everything, builds, and runs the whole test suite. Tests that need a GPU skip with
# their reason where there is none (they carry the CTest label `gpu`).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/setup.sh"
"$root/scripts/build.sh"
cd "$root"
# The tests run in parallel, one per core: each is its own process, with its own temp folders.
QT_QPA_PLATFORM=offscreen ctest --test-dir build --output-on-failure --timeout 900 --parallel "$(nproc)" "$@"
