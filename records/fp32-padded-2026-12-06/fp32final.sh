#!/usr/bin/env bash
# fp32-padded against cuBLAS SGEMM (3 burst, 3 sustained at 8192x4096x6144), the TF32 top's
# sustained 4096^3 cell three times, a profile of fp32-padded, and the runner's GPU tests.
set -uo pipefail
root=$PWD; start=$SECONDS
tar -xJf .gpucarry/bins-fp32.tar.xz; ln -sfn gpubuild build
export GEMMSCOPE_CACHE_DIR=/tmp/gs-cache QT_QPA_PLATFORM=offscreen GEMMSCOPE_RUNNER=$root/gpubuild/app/runner/gemmscope-runner GEMMSCOPE_BENCH=$root/gpubuild/app/runner/gemmscope-bench
o=$OUT/r; mkdir -p $o
nvidia-smi -L | tee $o/info.txt; date -u | tee -a $o/info.txt
bench=gpubuild/app/runner/gemmscope-bench
for regime in burst sustained; do for n in 1 2 3; do
  timeout 100 $bench --size 8192x4096x6144 --stages fp32-tuned,fp32-padded --regime $regime --json $o/f-$regime-$n.json > $o/f-$regime-$n.txt 2>&1
  echo "fp32 $regime $n exit $? at $((SECONDS-start)) s"; done; done
for n in 1 2 3; do
  timeout 100 $bench --size 4096x4096x4096 --stages tf32-persistent,cublas_tf32 --regime sustained --json $o/t-sustained-4096-$n.json > $o/t-sustained-4096-$n.txt 2>&1
  echo "tf32 sustained 4096 $n exit $? at $((SECONDS-start)) s"; done
timeout 150 $bench --size 8192x4096x6144 --profile --stages fp32-tuned,fp32-padded --json $o/profile-fp32.json > $o/profile-fp32.txt 2>&1
echo "profile exit $? at $((SECONDS-start)) s"
[ $((SECONDS-start)) -lt 480 ] && { timeout 100 build/tests/tst_runner_gpu > $o/tst_runner_gpu.log 2>&1; echo "tst_runner_gpu rc=$?"; grep -E "^(FAIL|Totals)|Loc:" $o/tst_runner_gpu.log | head; }
python3 - $o <<'PY'
import glob, json, os, sys
for path in sorted(glob.glob(os.path.join(sys.argv[1], "[ft]-*.json"))):
    try: d = json.load(open(path))
    except Exception as e: print(path, e); continue
    for row in d.get("rows", []):
        e = row.get("event", {})
        if e.get("event") != "result" or e.get("stage","").startswith("cublas"): continue
        pr = ((e.get("baseline") or {}).get("paired_ratio") or {}).get("median")
        print(f'{os.path.basename(path):26s} {row.get("preset",""):16s}', f"{100*pr:.1f}%" if pr else "-", round(e["timing"]["median_ms"],4), (e.get("verify") or {}).get("rel_error"), e.get("conditions",{}).get("verdict"))
PY
echo "all done at $((SECONDS-start)) s"
