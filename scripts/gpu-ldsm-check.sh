#!/usr/bin/env bash
# Why the shared-load instruction counter reads more than mma_tf32's LDSM + LDS: the counter test,
# then the SASS of the kernel it ran, counted by class inside the k loop (cuobjdump of the runner's
# cached CUBIN). Run from the repo root on the GPU machine with .device, build/app/runner and
# build/tests/tst_runner_counters carried.
set -uo pipefail
out=${OUT:-/tmp/gemmscope-out}; mkdir -p "$out"
source .device/env.sh
export GEMMSCOPE_CACHE_DIR=/tmp/gemmscope-ldsm GEMMSCOPE_RUNNER=$PWD/build/app/runner/gemmscope-runner
build/tests/tst_runner_counters tensorCoreSharedMemoryMatchesTheModel 2>&1 | grep -E "QINFO|FAIL|Totals"
for f in "$GEMMSCOPE_CACHE_DIR"/cubin/*; do
  sass=$(cuobjdump -sass "$f" 2>/dev/null) || continue
  name=$(echo "$sass" | grep -m1 -o 'Function : [^ ]*')
  case "$name" in
    *mma_tf32*) echo "$sass" > "$out/mma_tf32.sass"
      echo "$name: $(echo "$sass" | grep -oE '\b(LDSM|LDS|LDS\.64|LDS\.128|LDS\.U\.64|HMMA)[A-Z0-9._]*' | sort | uniq -c | tr '\n' ' ')" ;;
    *wgmma_tma*) echo "$sass" > "$out/wgmma_tma.sass" ;;
  esac
done
