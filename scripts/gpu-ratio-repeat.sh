#!/usr/bin/env bash
# A repeatability benchmark: three consecutive `gemmscope-bench` runs (nothing between) of
# fp32-tuned and the TF32 stages against their interleaved cuBLAS calls, per regime and size; the
# "%i" ratios of the three runs should agree within +-1.5 points. Writes OUT/b-REGIME-SIZE-N.json
# and OUT/bench.log; prints a summary table of the %i ratios at the end.
# Run from the repo root on the GPU machine: BIN=folder holding gemmscope-bench and gemmscope-runner.
set -uo pipefail
out=${OUT:-/tmp/gemmscope-out}; mkdir -p "$out"
bin=${BIN:-build/app/runner}
stages=${STAGES:-fp32-tuned,tf32-wgmma-tma,cublas_tf32}
regimes=${REGIMES:-burst sustained}
sizes=${SIZES:-8192x4096x6144 4096x4096x4096}
export GEMMSCOPE_RUNNER=${GEMMSCOPE_RUNNER:-$PWD/$bin/gemmscope-runner}
for regime in $regimes; do
  for size in $sizes; do
    for n in 1 2 3; do
      echo "=== $regime $size $n" >> "$out/bench.log"
      "$bin/gemmscope-bench" --size "$size" --stages "$stages" --regime "$regime" \
        --json "$out/b-$regime-$size-$n.json" >> "$out/bench.log" 2>&1
    done
  done
done
# The %i cells of each run, one line per regime, size and preset.
python3 - "$out" <<'PY'
import json, glob, os, re, sys, collections
rows = collections.defaultdict(list)
for path in sorted(glob.glob(os.path.join(sys.argv[1], "b-*.json"))):
    regime, size, n = re.match(r"b-(\w+)-([\dx]+)-(\d)\.json", os.path.basename(path)).groups()
    data = json.load(open(path))
    for row in data.get("rows", data if isinstance(data, list) else []):
        e = row.get("event", {})
        b = e.get("baseline")
        if not b or e.get("event") != "result":
            continue
        paired = b.get("paired_ratio", {}).get("median")
        medians = b["timing"]["median_ms"] / e["timing"]["median_ms"]
        rows[(regime, size, row.get("preset"))].append((paired, medians))
for (regime, size, preset), runs in sorted(rows.items()):
    paired = [r[0] * 100 for r in runs if r[0]]
    medians = [r[1] * 100 for r in runs]
    fmt = lambda xs: ", ".join("%.1f" % x for x in xs) + (" (spread %.1f)" % (max(xs) - min(xs)) if xs else "")
    print(f"{regime:9} {size:15} {preset:15} paired: {fmt(paired)}   medians: {fmt(medians)}")
PY
