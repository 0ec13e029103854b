#!/usr/bin/env bash
# Profiles on the GPU machine: GemmScope's `profile` of worklog-2/3/8, fp32-tuned, tf32-wgmma-tma
# and both cuBLAS baselines at 4096^3 (one runner, JSON lines), then Nsight Compute's reading of
# the same limiter metrics for worklog-8, fp32-tuned and tf32-wgmma-tma, one launch each.
# usage: scripts/gpu-profile-check.sh OUTDIR   (run from the repository root, after
#        `source .device/env.sh`; needs build/app/runner/gemmscope-runner and ncu)
set -euo pipefail
out=${1:?output folder}
mkdir -p "$out"
runner=build/app/runner/gemmscope-runner
# The presets' stages and parameters as `gemmscope-bench --list-jobs` gives them, ids = preset names.
requests=$(dirname "$0")/data/profile-requests-4096.jsonl
{ time "$runner" < "$requests" > "$out/profiles.jsonl"; } 2> "$out/profiles-time.txt"

metrics=$(python3 - <<'PY'
import re
text = open('app/runner/profile_limiters.cpp').read()
block = text[text.index('limiterMetrics()'):]
print(','.join(m for m in re.findall(r'"([a-z0-9_]+__[a-z0-9_.]+)"', block[:block.index('};')]) ))
PY
)
for stage in worklog-8 fp32-tuned tf32-wgmma-tma; do
  grep "\"id\":\"$stage\"" "$requests" | python3 -c '
import json, sys
r = json.loads(sys.stdin.readline())
run = {"type": "run", "id": r["id"], "stage": r["stage"], "params": r.get("params", {}), "size": r["size"],
       "verify": False, "timing": {"warmup": 0, "budget_ms": 0, "min_reps": 1, "max_reps": 1}}
print(json.dumps(run))' > "$out/run-$stage.jsonl"
  ncu --clock-control none --metrics "$metrics" -k regex:'final_kernel|pipelined|wgmma_tma' -c 1 \
      --csv --page raw --print-units base "$runner" < "$out/run-$stage.jsonl" > "$out/ncu-$stage.csv" 2> "$out/ncu-$stage.log" || true
done
python3 "$(dirname "$0")/compare-profile-ncu.py" "$out" > "$out/profile-vs-ncu.md"
cat "$out/profile-vs-ncu.md"
