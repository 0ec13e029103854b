#!/usr/bin/env bash
# The persistent row-major TF32 stage (wgmma_persistent_tf32, preset tf32-persistent) on the GPU
# machine, in about seven minutes:
#   1. correctness: the GPU tests of the TF32 stages (every TF32 preset at the awkward shapes, the
#      persistent stage's own shapes with and without clusters and its rounding check, the TMA
#      stage's shapes) and the sm_90a build checks (no spill, no serialised wgmma);
#   2. speed: gemmscope-bench at 8192x4096x6144 and 4096^3 with tf32-persistent (2-block clusters),
#      its twin without clusters (tf32-persistent-nocluster), tf32-wgmma-tma and cublas_tf32, three
#      runs each in the burst and the sustained regime; then once each with A rounded in shared
#      memory (tf32-persistent-smem) and with truncated inputs (what rounding costs);
#   3. the profile of the three TF32 steps and cuBLAS TF32 at 8192x4096x6144 (TF32_PROFILE=0 skips);
#   4. a table: % of cuBLAS TF32 (the paired ratio, and the medians' ratio) and the relative error
#      against cuBLAS FP32 of each row.
# Everything printed is also written under $OUT (bench JSON, logs, summary.txt).
# Run from the repo root: GEMMSCOPE_RUNNER and GEMMSCOPE_BENCH name the built binaries, build/
# holds the built tests (tst_runner_gpu, tst_nvrtc_compile).
set -uo pipefail
[ -f .device/env.sh ] && source .device/env.sh # the GPU machine's library paths, where it has them
out=${OUT:-/tmp/gemmscope-out}
mkdir -p "$out"
export GEMMSCOPE_RUNNER=${GEMMSCOPE_RUNNER:-$PWD/build/app/runner/gemmscope-runner}
bench=${GEMMSCOPE_BENCH:-$PWD/build/app/runner/gemmscope-bench}
export GEMMSCOPE_CACHE_DIR=${GEMMSCOPE_CACHE_DIR:-/tmp/gemmscope-persistent-cache}
export QT_QPA_PLATFORM=offscreen
log=$out/run.log
exec > >(tee -a "$log") 2>&1
echo "== $(date -u +%FT%TZ) $(nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader 2>/dev/null)"

# 1. Correctness. Data tags select the TF32 presets' rows of the every-preset test.
tf32_rows=()
for preset in tf32-persistent tf32-persistent-nocluster tf32-persistent-smem tf32-wgmma-tma; do
  for size in 512x384x256 1000x777x333 1x1x1; do
    tf32_rows+=("everyPresetMatchesCublas:$preset/$size")
  done
done
echo "== correctness (tst_runner_gpu)"
timeout 150 build/tests/tst_runner_gpu persistentShapesMatchCublas persistentStageRoundsLikeCublas \
  tmaShapesMatchCublas "${tf32_rows[@]}" 2>&1 | tee "$out/tst_runner_gpu.txt" | grep -E "^(PASS|FAIL|SKIP|QINFO|Totals)|Loc:|rel_error" 
echo "== sm_90a build (tst_nvrtc_compile)"
timeout 60 build/tests/tst_nvrtc_compile persistentStageKeepsItsPipeline 2>&1 | tee "$out/tst_nvrtc_compile.txt" |
  grep -E "^(PASS|FAIL|Totals)|Loc:"

# 2. Speed: three consecutive runs per regime and size, nothing between them.
for regime in burst sustained; do
  for size in 8192x4096x6144 4096x4096x4096; do
    for n in 1 2 3; do
      echo "== bench $regime $size run $n"
      timeout 90 "$bench" --size "$size" --stages tf32-persistent,tf32-persistent-nocluster,tf32-wgmma-tma,cublas_tf32 --regime "$regime" \
        --json "$out/b-$regime-$size-$n.json" > "$out/b-$regime-$size-$n.txt" 2>&1
      echo "   exit $? ($(grep -cE '^(tf32|cublas)' "$out/b-$regime-$size-$n.txt") table rows)"
    done
  done
done
# A rounded by the producer's warps in shared memory instead of the copy engine, and nothing rounded
# (TF32_VARIANTS=0 skips them).
[ "${TF32_VARIANTS:-1}" = 1 ] && for size in 8192x4096x6144 4096x4096x4096; do
  echo "== bench burst $size, A rounded in shared memory"
  timeout 90 "$bench" --size "$size" --stages tf32-persistent-smem \
    --json "$out/s-burst-$size-1.json" > "$out/s-burst-$size-1.txt" 2>&1
  echo "   exit $?"
  echo "== bench burst $size, truncated TF32 inputs"
  timeout 90 "$bench" --size "$size" --stages tf32-persistent --tf32-rounding truncate \
    --json "$out/t-burst-$size-1.json" > "$out/t-burst-$size-1.txt" 2>&1
  echo "   exit $?"
done

# 3. Why: the profile of each step of the TF32 ladder's top and of cuBLAS TF32 (stall samples per
#    line, the limiters), for the ladder's last chapter in docs/.
if [ "${TF32_PROFILE:-1}" = 1 ]; then
  echo "== profile 8192x4096x6144"
  timeout 300 "$bench" --size 8192x4096x6144 --profile \
    --stages tf32-wgmma-tma,tf32-persistent-nocluster,tf32-persistent \
    --json "$out/profile-8192x4096x6144.json" > "$out/profile-8192x4096x6144.txt" 2>&1
  echo "   exit $?"
fi

# 4. The table: one line per file and preset.
python3 - "$out" <<'PY' | tee "$out/summary.txt"
import glob, json, os, re, sys
print(f"{'run':34} {'preset':20} {'paired %':>9} {'medians %':>10} {'ms':>8} {'rel_error':>10}  rounding")
for path in sorted(glob.glob(os.path.join(sys.argv[1], "[bst]-*.json"))):
    try:
        data = json.load(open(path))
    except (OSError, ValueError) as e:
        print(f"{os.path.basename(path):34} unreadable: {e}")
        continue
    for row in data.get("rows", []):
        e = row.get("event", {})
        if e.get("event") != "result":
            print(f"{os.path.basename(path):34} {row.get('preset', '?'):20} {e.get('kind', '')}: {e.get('message', '')[:80]}")
            continue
        b = e.get("baseline") or {}
        paired = (b.get("paired_ratio") or {}).get("median")
        medians = b["timing"]["median_ms"] / e["timing"]["median_ms"] if b.get("timing") else None
        pct = lambda x: f"{100 * x:9.1f}" if x else f"{'-':>9}"
        err = (e.get("verify") or {}).get("rel_error")
        print(f"{os.path.basename(path):34} {row.get('preset', '?'):20} {pct(paired)} {pct(medians):>10} "
              f"{e['timing']['median_ms']:8.3f} {err if err is not None else float('nan'):10.3g}  {e.get('tf32_rounding', '')}")
PY
echo "== done $(date -u +%FT%TZ); files in $out"
