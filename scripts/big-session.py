#!/usr/bin/env python3
"""Writes a session of N runs (default 10,000: a sweep's worth) by repeating the recorded runs of
a session under new ids, for measuring the window at scale:
    scripts/big-session.py tests/data/recorded/h200-full-ladder-4096.json 10000 /tmp/big.json
    build/app/gui/gemmscope --measure-ui-stall --preload /tmp/big.json --size 1024
"""
import json
import sys

source, count, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
with open(source) as f:
    session = json.load(f)
runs = session["runs"]
big = []
for i in range(count):
    run = dict(runs[i % len(runs)])
    run["run_id"] = f"big{i}"
    big.append(run)
session["runs"] = big
session["title"] = f"{count} runs repeated from {source}"
with open(out, "w") as f:
    json.dump(session, f)
print(f"wrote {count} runs to {out}")
