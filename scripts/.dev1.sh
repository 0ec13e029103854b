#!/usr/bin/env bash
# One device call: GPU tests of the window and runner, then the UI-stall A/B (before/after) on
# the same host, then a screenshot of the window after a real ladder.
source .device/env.sh
set -x
B=$PWD/build-dev/bin
export GEMMSCOPE_CACHE_DIR=/tmp/gs-cache GEMMSCOPE_RUNNER=$B/gemmscope-runner QT_QPA_PLATFORM=offscreen
xz -dc build-dev/big10k.json.xz > /tmp/big10k.json
nvidia-smi --query-gpu=name,clocks.sm,temperature.gpu --format=csv > $OUT/gpu.txt 2>&1
lscpu | grep -E "Model name|^CPU\(s\)" >> $OUT/gpu.txt
( timeout 200 $B/tst_main_window_gpu 2>&1 | tail -15; timeout 200 $B/tst_runner_gpu 2>&1 | grep -E "FAIL|Totals|SKIP" | head -20 ) > $OUT/gpu-tests.txt 2>&1
for round in 1 2; do
  for bin in gemmscope-before gemmscope; do
    echo "== $bin 10k round $round"; timeout 120 $B/$bin --measure-ui-stall --size 4096 --preload /tmp/big10k.json 2>&1 | grep -v XDG
    echo "== $bin 23 round $round"; timeout 90 $B/$bin --measure-ui-stall --size 4096 2>&1 | grep -v XDG
  done
done > $OUT/ui-stall-ab.txt 2>&1
timeout 120 $B/gemmscope --measure-ui-stall --size 4096 --screenshot $OUT/main-window-h200.png --save $OUT/ladder-h200.json > $OUT/shot.txt 2>&1
ls -la $OUT
