#!/usr/bin/env bash
# One device call: GPU tests of the window, then the UI-stall A/B (3d726c9 = before, this build =
# now) alternating on the same host, then a screenshot of the window after a real ladder.
source .device/env.sh
set -x
B=$PWD/build-dev/bin
export GEMMSCOPE_CACHE_DIR=/tmp/gs-cache GEMMSCOPE_RUNNER=$B/gemmscope-runner QT_QPA_PLATFORM=offscreen
xz -dc build-dev/big10k.json.xz > /tmp/big10k.json
date -u > $OUT/host.txt
nvidia-smi --query-gpu=name,clocks.sm,temperature.gpu --format=csv >> $OUT/host.txt 2>&1
lscpu | grep -E "Model name|^CPU\(s\)" >> $OUT/host.txt
( timeout 200 $B/tst_main_window_gpu 2>&1 | tail -8 ) > $OUT/gpu-tests.txt 2>&1
for round in 1 2 3; do
  for bin in gemmscope-before gemmscope; do
    echo "== $bin 10k round $round"; timeout 120 $B/$bin --measure-ui-stall --size 4096 --preload /tmp/big10k.json 2>&1 | grep -v XDG
  done
done > $OUT/ui-stall-ab.txt 2>&1
for bin in gemmscope-before gemmscope; do
  echo "== $bin 23"; timeout 90 $B/$bin --measure-ui-stall --size 4096 2>&1 | grep -v XDG
done >> $OUT/ui-stall-ab.txt 2>&1
timeout 120 $B/gemmscope --measure-ui-stall --size 4096 --screenshot $OUT/main-window-h200.png > $OUT/shot.txt 2>&1
grep -h "ui-stall: runs" $OUT/ui-stall-ab.txt
