#!/usr/bin/env bash
# The TMA stage studied on the GPU machine: a parameter sweep (best STAGES per BM x BN) at both
# sizes through gemmscope-bench, and Nsight Compute on the probe (the stage, the transpose, cuBLAS
# TF32) at 4096^3. Run from the repo root with .device, build/app/runner and build-probe carried.
set -uo pipefail
OUT=${OUT:-/tmp/gemmscope-out}; mkdir -p "$OUT"
source .device/env.sh
export GEMMSCOPE_CACHE_DIR=/tmp/gemmscope-cache GEMMSCOPE_RUNNER=$PWD/build/app/runner/gemmscope-runner
b=build/app/runner/gemmscope-bench
for size in 4096x4096x4096 8192x4096x6144; do
  $b --sweep --stage wgmma_tma_tf32 -x BM -y BN --rest best --size $size --budget-ms 100 --json $OUT/sweep-tma-$size.json 2>&1 | tail -14
done
PROBE_ONLY="wgmma_tma<256,128,4>" timeout 300 ncu --section SpeedOfLight --section WarpStateStats --section Occupancy --section ComputeWorkloadAnalysis --section MemoryWorkloadAnalysis -k regex:"wgmma_tma|xmma|cutlass|gemm|transpose" --launch-count 6 build-probe/tc_probe --big > $OUT/ncu-tma-4096.txt 2>&1; tail -3 $OUT/ncu-tma-4096.txt
grep -E "^  [a-z_0-9]|Duration|Compute \(SM\) Throughput|Memory Throughput|Registers Per|Achieved Occupancy|Issue Slots Busy|No Eligible|Stall" $OUT/ncu-tma-4096.txt | head -80
