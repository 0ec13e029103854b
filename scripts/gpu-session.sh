#!/usr/bin/env bash
# Everything GemmScope needs from one GPU-machine call, in one go (device time is scarce):
# GPU tests, the benchmark, compute-sanitizer on every stage, hardware counters for the mapping
# model, SASS of the ladder, and a GUI screenshot. Run on the GPU machine from the repo root:
#   source .device/env.sh && scripts/gpu-session.sh [steps...]
# Steps (default: all but screenshot, which the gpu tests already take): info tests bench sass
# stall sanitizer counters probe screenshot. Results go to $OUT.
set -uo pipefail
out=${OUT:-/tmp/gemmscope-out}
mkdir -p "$out"
build=${BUILD:-build}
runner=$build/app/runner/gemmscope-runner
steps=("$@")
[ ${#steps[@]} -gt 0 ] || steps=(info tests bench sass stall sanitizer counters probe)
export GEMMSCOPE_CACHE_DIR=/tmp/gemmscope-cache
export GEMMSCOPE_SCREENSHOT_DIR="$out" # tst_main_window_gpu saves the main window after its run

presets_jobs() { # size [bench options] -> one run job per preset (small timing), for the sanitizer and counters
  local all
  all=$(printf '%s,' worklog-0 worklog-1 worklog-2 worklog-3 worklog-4 worklog-5a worklog-5b worklog-6 \
    worklog-7 worklog-8 worklog-8-bk8 guide-32 guide-32-padded fp32-vectorized fp32-warptiled fp32-pipelined \
    fp32-async fp32-tuned cublas_fp32 cublas_tf32)
  local size=$1
  shift
  "$build/app/runner/gemmscope-bench" --list-jobs --stages "${all%,}" --size "$size" --budget-ms 1 --min-reps 1 \
    --warmup 0 "$@"
}

for step in "${steps[@]}"; do
  echo "=== $step $(date -u +%H:%M:%S)"
  case $step in
  info)
    nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,memory.total --format=csv | tee "$out/info.txt"
    ;;
  tests)
    ctest --test-dir "$build" --output-on-failure -V -L gpu --timeout 400 2>&1 | tee "$out/gpu-tests.log"
    ;;
  bench)
    # The whole ladder with counters at the worklog's size, then both sizes the FP32 stages past
    # the worklog are judged at (issue: >= 90 % of cuBLAS SGEMM), each in one runner session.
    "$build/app/runner/gemmscope-bench" --counters --json "$out/bench.json" 2>&1 | tee "$out/bench.txt"
    for size in 8192x4096x6144 4096x4096x4096; do
      "$build/app/runner/gemmscope-bench" --size "$size" \
        --stages worklog-8,fp32-vectorized,fp32-warptiled,fp32-pipelined,fp32-async,fp32-tuned,cublas_tf32 \
        --json "$out/bench-fp32-$size.json" 2>&1 | tee "$out/bench-fp32-$size.txt"
    done
    ;;
  sanitizer)
    # memcheck on every stage at an awkward size, then racecheck (shared-memory hazards: the
    # double-buffered kernel depends on its barriers). One report file, the runner's events aside.
    presets_jobs 1000x777x333 > /tmp/sanitizer-jobs.jsonl
    for tool in memcheck racecheck; do
      compute-sanitizer --tool "$tool" --log-file "/tmp/sanitizer-$tool.txt" "$runner" \
        < /tmp/sanitizer-jobs.jsonl > "/tmp/sanitizer-$tool-events.jsonl" 2>/dev/null
      { echo "## $tool: $(grep -c '"event":"result"' "/tmp/sanitizer-$tool-events.jsonl") results," \
             "$(grep -c '"event":"error"' "/tmp/sanitizer-$tool-events.jsonl") errors";
        grep -o '"kernel":"[^"]*"' "/tmp/sanitizer-$tool-events.jsonl" | sort -u
        grep '"event":"error"' "/tmp/sanitizer-$tool-events.jsonl"
        cat "/tmp/sanitizer-$tool.txt"; } >> "$out/sanitizer.txt"
    done
    grep -E '^## |ERROR SUMMARY|RACECHECK SUMMARY' "$out/sanitizer.txt"
    ;;
  counters)
    # Nsight Compute on every ladder kernel: the release build; the scalar-shared build (inner-loop
    # shared reads kept 4-byte, as the access model describes them); and that build again at one
    # block per SM and with the largest shared-memory carve-out (the conditions under which the
    # hardware counts extra store wavefronts change). One Markdown file with the comparisons, one
    # archive with the raw CSVs.
    dir=/tmp/counters; rm -rf "$dir"; mkdir -p "$dir"
    "$build/kernels/gemmscope-model" 1536x1536x1536 > "$dir/model.csv"
    : > "$out/counters.md"
    for variant in release scalar_shared scalar_shared_1_block scalar_shared_least_l1; do
      case $variant in
      scalar_shared_1_block) options=(--build scalar_shared --max-blocks-per-sm 1) ;;
      scalar_shared_least_l1) options=(--build scalar_shared --smem-carveout 100) ;;
      *) options=(--build "$variant") ;;
      esac
      presets_jobs 1536x1536x1536 "${options[@]}" > /tmp/counter-jobs.jsonl
      ncu --clock-control none --kernel-name-base mangled --kernel-name regex:9gemmscope --launch-count 60 --csv --metrics \
l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,\
l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum,\
l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,\
l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,\
smsp__inst_executed_op_shared_ld.sum,smsp__inst_executed_op_shared_st.sum,dram__bytes_read.sum,dram__bytes_write.sum,\
smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum,\
smsp__sass_inst_executed_op_shared_ld.sum,smsp__sass_inst_executed_op_shared_st.sum,\
sm__warps_active.avg.per_cycle_active,launch__shared_mem_config_size \
        "$runner" < /tmp/counter-jobs.jsonl > "$dir/ncu-$variant.csv" 2> /tmp/ncu.err
      tail -3 /tmp/ncu.err; wc -l "$dir/ncu-$variant.csv"
      { echo "## $variant (${options[*]})"; echo
        python3 scripts/compare-counters.py "$dir/model.csv" "$dir/ncu-$variant.csv"; echo; } | tee -a "$out/counters.md"
    done
    tar -C "$dir" -czf "$out/counters-raw.tar.gz" .
    ;;
  probe)
    # Where do the shared-store wavefronts beyond the addresses' count come from? Stores that cannot
    # conflict, beside different traffic and at one or many blocks per SM (scripts/probes/).
    "$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)" -O3 -arch=sm_90 -o /tmp/smem_store_probe scripts/probes/smem_store_probe.cu || exit 1
    /tmp/smem_store_probe > "$out/probe.txt" || exit 1
    ncu --clock-control none --csv --metrics \
l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,smsp__inst_executed_op_shared_st.sum,\
l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,smsp__inst_executed_op_shared_ld.sum,\
smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum,smsp__sass_inst_executed_op_shared_st.sum,\
smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,smsp__sass_inst_executed_op_shared_ld.sum,\
launch__shared_mem_config_size \
      /tmp/smem_store_probe > "$out/ncu-probe.csv" 2> /tmp/ncu-probe.err
    tail -3 /tmp/ncu-probe.err
    python3 scripts/probes/summarize-probe.py "$out/ncu-probe.csv" "$out/probe.txt" | tee "$out/probe.md"
    ;;
  sass)
    # Per cached kernel: its name, then how many of each memory and FMA instruction the SASS has.
    find "$GEMMSCOPE_CACHE_DIR" -name '*.cubin' | while read -r f; do
      echo "### $(cat "${f%.cubin}".name 2>/dev/null || basename "$f")"
      cuobjdump -sass "$f" | grep -oE '\b(LDG|STG|LDS|STS|LDL|STL|FFMA|BAR|LDGSTS)(\.[A-Z0-9.]+)?' | sort | uniq -c | sort -rn
    done > "$out/sass-summary.txt" 2>&1
    # Full SASS of every cached kernel, for reading the inner loops.
    find "$GEMMSCOPE_CACHE_DIR" -name '*.cubin' | while read -r f; do cuobjdump -sass "$f"; done | gzip > "$out/sass-full.txt.gz"
    wc -l "$out/sass-summary.txt"
    ;;
  stall)
    "$build/app/gui/gemmscope" --measure-ui-stall --size 4096 --screenshot "$out/main_window_ladder.png" \
      --save "$out/ladder_session.json" 2>&1 | tee "$out/ui-stall.txt"
    ;;
  screenshot)
    (cd "$build/tests" && GEMMSCOPE_RUNNER="$PWD/../app/runner/gemmscope-runner" ./tst_main_window_gpu 2>&1 | tail -8)
    ;;
  esac
done
ls -la "$out"
