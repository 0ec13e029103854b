#!/usr/bin/env bash
# The TMA stage against cuBLAS TF32 alone (no other stage before them in the runner session), at
# 4096^3 and 8192x4096x6144: one bench run per size. Run from the repo root on the GPU machine with
# .device and build/app/runner carried.
set -uo pipefail
out=${OUT:-/tmp/gemmscope-out}; mkdir -p "$out"
source .device/env.sh
export GEMMSCOPE_CACHE_DIR=/tmp/gemmscope-ratio GEMMSCOPE_RUNNER=$PWD/build/app/runner/gemmscope-runner
for size in 4096x4096x4096 8192x4096x6144; do
  build/app/runner/gemmscope-bench --size $size --stages cublas_tf32,tf32-wgmma-tma --json "$out/ratio-$size.json" 2>&1 |
    grep -E "tf32"
done
