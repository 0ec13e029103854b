#!/usr/bin/env bash
# One GPU-machine call for the end of a session: every GPU test binary, the sweep throughput
# (4096^3, cold compile cache, budget 30 ms), and a kill -9 of the runner and of the
# bench mid-sweep followed by a resume. Run from the repo root after `source .device/env.sh`:
#   scripts/gpu-sweeps.sh [tests] [sweep] [resume] [two-gpu]     results under $OUT
# `two-gpu` (on a machine with two GPUs) runs the throughput sweep on one runner, then on one
# runner per GPU, for the <= 0.6x wall-time comparison.
set -uo pipefail
out=${OUT:-/tmp/gemmscope-out}
mkdir -p "$out"
build=${BUILD:-build}
runner=$PWD/$build/app/runner/gemmscope-runner
bench=$PWD/$build/app/runner/gemmscope-bench
export GEMMSCOPE_RUNNER=$runner QT_QPA_PLATFORM=offscreen GEMMSCOPE_SCREENSHOT_DIR=$out
steps=("$@")
[ ${#steps[@]} -gt 0 ] || steps=(tests sweep resume)
# The throughput sweep: stage final, BM x BN in {64,128}^2, best over BK, TM, TN (426 valid of 1536).
sweep=(--sweep --stage final -x BM -y BN --x-values 64,128 --y-values 64,128 --rest best
       --size 4096x4096x4096 --budget-ms 30)
nvidia-smi --query-gpu=index,name,clocks.sm,power.draw --format=csv | tee -a "$out/info.txt"
for step in "${steps[@]}"; do
  echo "=== $step $(date -u +%T)"
  case $step in
  tests)
    export GEMMSCOPE_CACHE_DIR=/tmp/gs-tests
    for t in tst_runner_gpu tst_owner_trace_gpu tst_runner_counters tst_runner_faults_gpu tst_main_window_gpu; do
      "$build/tests/$t" 2>&1 | grep -E "^(FAIL|SKIP|Totals)|Loc:" | sed "s/^/$t: /" | tee -a "$out/gpu-tests.log"
    done
    ;;
  sweep)
    GEMMSCOPE_CACHE_DIR=$(mktemp -d) "$bench" "${sweep[@]}" --journal /tmp/sweep1.gsweep \
      --json "$out/sweep-1gpu.json" > "$out/sweep-1gpu.txt" 2>&1
    tail -4 "$out/sweep-1gpu.txt"
    cp /tmp/sweep1.gsweep "$out/sweep-1gpu.gsweep"
    ;;
  resume)
    grid=(--sweep --stage final -x BM -y BN --fixed BK=16,TM=8,TN=8 --size 4096x4096x4096 --budget-ms 30)
    j=/tmp/resume.gsweep; rm -f "$j"; cache=$(mktemp -d)
    GEMMSCOPE_CACHE_DIR=$cache "$bench" "${grid[@]}" --journal "$j" > /tmp/resume1.txt 2>&1 &
    b=$!; sleep 6; pkill -9 -n -f gemmscope-runner; echo "runner killed after $(wc -l < "$j") journal lines"
    sleep 4; kill -9 "$b"; echo "bench killed after $(wc -l < "$j") journal lines"
    GEMMSCOPE_CACHE_DIR=$cache "$bench" "${grid[@]}" --journal "$j" > /tmp/resume2.txt 2>&1
    echo "exit $?"; { echo "--- first (killed)"; cat /tmp/resume1.txt; echo "--- resumed"; cat /tmp/resume2.txt; } > "$out/resume.txt"
    grep -iE "resum|runner_crashed|restart|valid configurations" "$out/resume.txt" | head
    ;;
  resume-bench)
    # kill -9 of the bench itself mid-sweep (the throughput sweep), then the same command resumes.
    j=/tmp/resume-bench.gsweep; rm -f "$j"; cache=$(mktemp -d)
    GEMMSCOPE_CACHE_DIR=$cache "$bench" "${sweep[@]}" --journal "$j" > /tmp/rb1.txt 2>&1 &
    b=$!; sleep 12; kill -9 "$b"; pkill -9 -f gemmscope-runner; echo "bench killed after $(wc -l < "$j") journal lines"
    GEMMSCOPE_CACHE_DIR=$cache "$bench" "${sweep[@]}" --journal "$j" --json "$out/sweep-resumed.json" > /tmp/rb2.txt 2>&1
    echo "exit $?"; { echo "--- first (killed)"; tail -3 /tmp/rb1.txt; echo "--- resumed"; grep -v "^\[" /tmp/rb2.txt; } > "$out/resume-bench.txt"
    grep -iE "resum|valid configurations" "$out/resume-bench.txt"
    ;;
  size)
    export GEMMSCOPE_CACHE_DIR=/tmp/gs-size
    "$bench" --size-sweep --stages tf32-wgmma,fp32-tuned,worklog-8,cublas_fp32,cublas_tf32 --sizes square \
      --size-range 256-8192 --budget-ms 30 --json "$out/size-sweep-square.json" > "$out/size-sweep-square.txt" 2>&1
    grep -v "^\[" "$out/size-sweep-square.txt" | tail -25
    ;;
  two-gpu)
    GEMMSCOPE_CACHE_DIR=$(mktemp -d) "$bench" "${sweep[@]}" --json "$out/sweep-2gpu-machine-1runner.json" \
      > "$out/sweep-2gpu-machine-1runner.txt" 2>&1
    tail -2 "$out/sweep-2gpu-machine-1runner.txt"
    GEMMSCOPE_CACHE_DIR=$(mktemp -d) "$bench" "${sweep[@]}" --runners 2 \
      --runner-template 'CUDA_VISIBLE_DEVICES={gpu} {runner}' --json "$out/sweep-2gpu-2runners.json" \
      > "$out/sweep-2gpu-2runners.txt" 2>&1
    tail -2 "$out/sweep-2gpu-2runners.txt"
    ;;
  esac
done
