#!/usr/bin/env bash
# The access model of the FP32 stages past the worklog against Nsight Compute (release build, one
# run each at 1536^3, where every tile divides), and the tuned preset's stall reasons at 4096^3.
# Run on the GPU machine: source .device/env.sh && scripts/probes/fp32-counters.sh; results in $OUT.
set -uo pipefail
out=${OUT:-/tmp/gemmscope-out}
mkdir -p "$out"
export GEMMSCOPE_CACHE_DIR=${GEMMSCOPE_CACHE_DIR:-/tmp/gemmscope-cache}
b=${BUILD:-build}/app/runner
dir=$(mktemp -d)
stages=worklog-8,fp32-vectorized,fp32-warptiled,fp32-pipelined,fp32-async,fp32-tuned
"${BUILD:-build}/kernels/gemmscope-model" 1536x1536x1536 > "$dir/model.csv"
"$b/gemmscope-bench" --list-jobs --stages "$stages" --size 1536x1536x1536 --budget-ms 1 --min-reps 1 --warmup 0 \
  > "$dir/jobs.jsonl"
ncu --clock-control none --kernel-name-base mangled --kernel-name regex:9gemmscope --launch-count 30 --csv --metrics \
l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,\
l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum,\
l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,\
l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,\
smsp__inst_executed_op_shared_ld.sum,smsp__inst_executed_op_shared_st.sum,\
smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum,\
smsp__sass_inst_executed_op_shared_ld.sum,smsp__sass_inst_executed_op_shared_st.sum,\
l1tex__t_requests_pipe_lsu_mem_global_op_ldgsts.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ldgsts.sum \
  "$b/gemmscope-runner" < "$dir/jobs.jsonl" > "$out/ncu-fp32.csv" 2> "$dir/ncu.err"
tail -2 "$dir/ncu.err"
cp "$dir/model.csv" "$out/model-fp32.csv"
python3 scripts/compare-counters.py "$dir/model.csv" "$out/ncu-fp32.csv" | tee "$out/counters-fp32.md"
# Stall reasons and instruction statistics of the tuned kernel at 4096^3.
"$b/gemmscope-bench" --list-jobs --stages fp32-tuned --size 4096x4096x4096 --budget-ms 1 --min-reps 1 --warmup 0 \
  > "$dir/tuned.jsonl"
ncu --clock-control none --kernel-name-base mangled --kernel-name regex:9gemmscope --launch-count 1 \
  --section WarpStateStats --section InstructionStats --section Occupancy --section SpeedOfLight --csv --page details \
  "$b/gemmscope-runner" < "$dir/tuned.jsonl" > "$out/ncu-tuned-stalls.csv" 2> /dev/null
grep -iE 'Stall|Warp Cycles|Issue|Occupancy|Throughput' "$out/ncu-tuned-stalls.csv" | cut -c1-220 | tail -30
