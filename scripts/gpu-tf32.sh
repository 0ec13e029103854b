#!/usr/bin/env bash
# The tensor-core stages on the GPU machine in one call: GPU tests, the benchmark at both sizes
# beside cuBLAS TF32, compute-sanitizer (memcheck, racecheck) at an awkward size, and the SASS
# instruction counts (HMMA / HGMMA). Run from the repo root after `source .device/env.sh`:
#   scripts/gpu-tf32.sh          results under $OUT
set -uo pipefail
out=${OUT:-/tmp/gemmscope-out}
mkdir -p "$out"
build=${BUILD:-build}
runner=$build/app/runner/gemmscope-runner
bench=$build/app/runner/gemmscope-bench
export GEMMSCOPE_CACHE_DIR=/tmp/gemmscope-cache GEMMSCOPE_RUNNER=$PWD/$runner
nvidia-smi --query-gpu=name,driver_version,clocks.sm,power.draw --format=csv | tee "$out/info.txt"
echo "=== tests $(date -u +%T)"
for t in tst_runner_gpu tst_owner_trace_gpu tst_runner_counters tst_runner_faults_gpu tst_main_window_gpu; do
  QT_QPA_PLATFORM=offscreen "$build/tests/$t" 2>&1 | grep -E "FAIL|QINFO|tma|Totals" | tee -a "$out/gpu-tests.log"
done
echo "=== bench $(date -u +%T)"
for size in 8192x4096x6144 4096x4096x4096; do
  "$bench" --size "$size" --stages fp32-tuned,cublas_tf32,tf32-mma,tf32-wgmma,tf32-wgmma-tma \
    --json "$out/bench-tf32-$size.json" 2>&1 | tee "$out/bench-tf32-$size.txt" | tail -7
done
echo "=== sanitizer $(date -u +%T)"
"$bench" --list-jobs --stages tf32-mma,tf32-wgmma,tf32-wgmma-tma --size 1000x777x333 --budget-ms 1 --min-reps 1 --warmup 0 \
  > /tmp/tf32-jobs.jsonl
for tool in memcheck racecheck; do
  compute-sanitizer --tool "$tool" --log-file "/tmp/san-$tool.txt" "$runner" < /tmp/tf32-jobs.jsonl \
    > "/tmp/san-$tool-events.jsonl" 2>/dev/null
  { echo "## $tool: $(grep -c '"event":"result"' /tmp/san-$tool-events.jsonl) results," \
         "$(grep -c '"event":"error"' /tmp/san-$tool-events.jsonl) errors"
    grep '"event":"error"' "/tmp/san-$tool-events.jsonl"; tail -5 "/tmp/san-$tool.txt"; } | tee -a "$out/sanitizer.txt"
done
echo "=== sass $(date -u +%T)"
for f in "$GEMMSCOPE_CACHE_DIR"/cubin/*; do
  sass=$(cuobjdump -sass "$f" 2>/dev/null) || continue
  name=$(echo "$sass" | grep -m1 -o 'Function : [^ ]*')
  echo "$name HMMA=$(echo "$sass" | grep -c HMMA) HGMMA=$(echo "$sass" | grep -c HGMMA) LDSM=$(echo "$sass" | grep -c LDSM) UTMALDG=$(echo "$sass" | grep -c UTMALDG)"
  case "$name" in *wgmma_tma_tf32*) echo "$sass" > "$out/wgmma_tma.sass" ;; esac
done | grep -E "mma|wgmma" | sort -u | tee "$out/sass-counts.txt"
