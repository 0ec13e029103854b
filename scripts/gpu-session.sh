#!/usr/bin/env bash
# Everything GemmScope needs from one GPU-machine call, in one go (device time is scarce):
# GPU tests, the benchmark, compute-sanitizer on every stage, hardware counters for the mapping
# model, SASS of the ladder, and a GUI screenshot. Run on the GPU machine from the repo root:
#   source .device/env.sh && scripts/gpu-session.sh [steps...]
# Steps (default: all): info tests bench sanitizer counters sass screenshot. Results go to $OUT.
set -uo pipefail
out=${OUT:-/tmp/gemmscope-out}
mkdir -p "$out"
build=${BUILD:-build}
runner=$build/app/runner/gemmscope-runner
steps=("$@")
[ ${#steps[@]} -gt 0 ] || steps=(info tests bench sanitizer counters sass screenshot)
export GEMMSCOPE_CACHE_DIR=/tmp/gemmscope-cache

presets_jobs() { # size -> one run job per preset (small timing), for the sanitizer and counters
  "$build/app/runner/gemmscope-bench" --list-jobs --size "$1" --budget-ms 1 --min-reps 1 --warmup 0
}

for step in "${steps[@]}"; do
  echo "=== $step $(date -u +%H:%M:%S)"
  case $step in
  info)
    nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,memory.total --format=csv | tee "$out/info.txt"
    ;;
  tests)
    ctest --test-dir "$build" --output-on-failure -L gpu --timeout 500 2>&1 | tee "$out/gpu-tests.log"
    ;;
  bench)
    "$build/app/runner/gemmscope-bench" --json "$out/bench.json" 2>&1 | tee "$out/bench.txt"
    ;;
  sanitizer)
    presets_jobs 1000x777x333 > /tmp/sanitizer-jobs.jsonl
    compute-sanitizer --tool memcheck --print-limit 20 "$runner" < /tmp/sanitizer-jobs.jsonl \
      > "$out/sanitizer-events.jsonl" 2> "$out/sanitizer.txt"
    tail -5 "$out/sanitizer.txt"; grep -c '"event":"result"' "$out/sanitizer-events.jsonl"
    ;;
  counters)
    presets_jobs 1536x1536x1536 > /tmp/counter-jobs.jsonl
    ncu --clock-control none --kernel-name regex:gemmscope --launch-count 40 --csv --metrics \
l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,\
l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum,\
l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,\
l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,\
smsp__inst_executed_op_shared_ld.sum,smsp__inst_executed_op_shared_st.sum,dram__bytes_read.sum,dram__bytes_write.sum \
      "$runner" < /tmp/counter-jobs.jsonl > "$out/ncu.csv" 2> "$out/ncu.err"
    tail -3 "$out/ncu.err"; wc -l "$out/ncu.csv"
    "$build/kernels/gemmscope-model" 1536x1536x1536 > "$out/model.csv"
    python3 scripts/compare-counters.py "$out/model.csv" "$out/ncu.csv" | tee "$out/counters.md"
    ;;
  sass)
    for f in "$GEMMSCOPE_CACHE_DIR"/*.cubin; do
      [ -f "$f" ] || continue
      echo "### $f"; cuobjdump -sass "$f" | grep -E 'Function|LDG|STG|LDS|STS|LDL|STL|FFMA' | sort | uniq -c | sort -rn | head -12
    done > "$out/sass-summary.txt" 2>&1
    wc -l "$out/sass-summary.txt"
    ;;
  screenshot)
    GEMMSCOPE_SCREENSHOT_DIR="$out" ctest --test-dir "$build" --output-on-failure -R tst_main_window_gpu 2>&1 | tail -5
    ;;
  esac
done
ls -la "$out"
