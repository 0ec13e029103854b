#!/usr/bin/env bash
# The large-session benchmark (docs/benchmarks.md, "Opening a large session"): writes sessions of
# 10,000 and 100,000 runs (scripts/big-session.py, from the recorded H200 ladder) and opens each in
# the real window, offscreen, as the command line does (gemmscope --measure-open). Printed per
# round: when the worker's read was done (read_ms), the session shown (shown_ms), the results
# table's first paint (first_paint_ms), the open done (done_ms), every view fed (views_ms: a
# session of 20,000 runs or more reaches the views one view a turn), the UI thread's longest stall
# until then,
# each workspace switch (shown and painted, ms) and the peak RSS; then the whole process's wall
# and CPU time (user + sys, all threads: on a 2-core machine shared with other work the wall times
# follow its load, the CPU time much less).
#   scripts/big-session-bench.sh [gemmscope binary]
#   COUNTS="10000" ROUNDS=3 scripts/big-session-bench.sh build/app/gui/gemmscope
set -euo pipefail
cd "$(dirname "$0")/.."
binary=${1:-build/app/gui/gemmscope}
dir=${BIG_SESSION_DIR:-/tmp/gemmscope-big-sessions}
counts=${COUNTS:-10000 100000}
rounds=${ROUNDS:-1}
mkdir -p "$dir"
for count in $counts; do
    file="$dir/big$count.json"
    [[ -s "$file" ]] || python3 scripts/big-session.py tests/data/recorded/h200-full-ladder-4096.json "$count" "$file" >/dev/null
    for round in $(seq "$rounds"); do
        echo "== $count runs ($(du -m "$file" | cut -f1) MB), round $round, load $(cut -d' ' -f1-3 /proc/loadavg)"
        TIMEFORMAT="process: wall %R s, user %U s, sys %S s"
        time (QT_QPA_PLATFORM=offscreen "$binary" --measure-open "$file" 2>&1 | grep -E '^open: (\S+ runs|switch|peak|cpu)' || true)
    done
done
