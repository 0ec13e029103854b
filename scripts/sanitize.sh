#!/usr/bin/env bash
# Builds the tests (and the runner and bench they start) with AddressSanitizer and
# UndefinedBehaviorSanitizer into build-sanitize/ and runs every test that needs no GPU.
# Any report fails: UBSan halts on its first error, ASan on its first (leaks included, apart from
# the third-party suppressions in scripts/sanitize.supp). Usage: scripts/sanitize.sh [ctest args]
#
# -Wl,--as-needed: the sanitizer runtime makes the linker keep every library on the line,
# including the libcuda stub that CUDA::cupti drags in; an executable linked to the stub does not
# start on a machine without a driver. --as-needed drops it again (nothing calls libcuda directly).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
build=${SANITIZE_BUILD_DIR:-build-sanitize}
# -O1 -g1: a quarter less compile time than RelWithDebInfo on CI's two cores, stacks still readable.
flags="-O1 -g1 -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined"
gen=()
command -v ninja >/dev/null && gen=(-G Ninja)
[ -f "$build/CMakeCache.txt" ] && gen=()
cmake -S . -B "$build" "${gen[@]}" -DCMAKE_BUILD_TYPE=Sanitize \
  -DCMAKE_CXX_FLAGS="$flags" \
  -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined -Wl,--as-needed" \
  -DCMAKE_SHARED_LINKER_FLAGS="-fsanitize=address,undefined -Wl,--as-needed"
# Only what the tests need: the test executables (they depend on gemmscope-runner and
# gemmscope-bench), not the GUI executable itself.
targets=$(cmake --build "$build" --target help | sed -n 's/^\(tst_[A-Za-z0-9_]*\):.*/\1/p; s/^\.\.\. \(tst_[A-Za-z0-9_]*\).*/\1/p' | grep -v _gpu | sort -u)
# shellcheck disable=SC2086
cmake --build "$build" --parallel "$(nproc)" --target $targets

export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1:strict_string_checks=1:detect_stack_use_after_return=1:check_initialization_order=1"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1"
export LSAN_OPTIONS="suppressions=$root/scripts/sanitize.supp:print_suppressions=0"
export GEMMSCOPE_LONG_SESSION_RUNS=${GEMMSCOPE_LONG_SESSION_RUNS:-5000} # 10x slower under ASan
QT_QPA_PLATFORM=offscreen ctest --test-dir "$build" --output-on-failure --timeout 1800 -LE gpu "$@"
