#!/usr/bin/env bash
# One device call: GPU tests of the window, then the UI-stall A/B/C alternating on one host:
# 3d726c9 (before), 6e0ad95 (mid: lighter pieces), this build (now: one queue of later turns).
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
  for bin in gemmscope gemmscope-mid $([ $round = 2 ] && echo gemmscope-before); do
    echo "== $bin 10k round $round"; timeout 100 $B/$bin --measure-ui-stall --size 4096 --preload /tmp/big10k.json 2>&1 | grep -v XDG
  done
done > $OUT/ui-stall-abc.txt 2>&1
for bin in gemmscope gemmscope-mid; do
  echo "== $bin 23"; timeout 80 $B/$bin --measure-ui-stall --size 4096 2>&1 | grep -v XDG
done >> $OUT/ui-stall-abc.txt 2>&1
grep -h "^== \|ui-stall: runs" $OUT/ui-stall-abc.txt
