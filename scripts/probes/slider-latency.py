#!/usr/bin/env python3
"""Time from a run request to its first number (the preliminary median in a `timing` progress
event) and to its final result, through gemmscope-runner's protocol, as a slider move does it:
the CUBIN is compiled once first, so every measured request is a cache hit.

    scripts/probes/slider-latency.py build/app/runner/gemmscope-runner [budget_ms ...]

Prints one JSON line per request and a summary per budget (medians of the repetitions)."""
import json
import statistics
import subprocess
import sys
import time

runner = sys.argv[1]
budgets = [float(b) for b in sys.argv[2:]] or [1000.0, 100.0]
presets = [("coalesced", {"BM": 64, "BN": 64, "BK": 8, "TM": 4, "TN": 4}),
           ("pipelined", {"BM": 128, "BN": 256, "BK": 16, "TM": 8, "TN": 16, "SWIZZLE": 1})]
size = {"m": 4096, "n": 4096, "k": 4096}
proc = subprocess.Popen([runner], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)


def events_until_done(job_id):
    while True:
        line = proc.stdout.readline()
        if not line:
            raise SystemExit("the runner ended")
        event = json.loads(line)
        yield time.monotonic(), event
        if event.get("id") == job_id and event.get("event") in ("result", "error"):
            return


def run(job_id, stage, params, budget):
    request = {"type": "run", "id": job_id, "stage": stage, "params": params, "size": size,
               "timing": {"budget_ms": budget}}
    sent = time.monotonic()
    proc.stdin.write(json.dumps(request) + "\n")
    first = final = None
    for at, event in events_until_done(job_id):
        if event.get("id") != job_id:
            continue
        if first is None and event.get("event") == "progress" and "preliminary_median_ms" in event:
            first = at - sent
        if event.get("event") in ("result", "error"):
            final = at - sent
    return first, final


assert json.loads(proc.stdout.readline())["event"] == "ready"
n = 0
for stage, params in presets:
    n += 1
    run(f"warm{n}", stage, params, 50)  # compile and cache; inputs prepared
    for budget in budgets:
        firsts, finals = [], []
        for rep in range(5):
            n += 1
            first, final = run(f"r{n}", stage, params, budget)
            print(json.dumps({"stage": stage, "budget_ms": budget, "first_s": first, "final_s": final}))
            if first is not None:
                firsts.append(first)
            finals.append(final)
        print(json.dumps({"summary": stage, "budget_ms": budget,
                          "median_first_s": statistics.median(firsts) if firsts else None,
                          "median_final_s": statistics.median(finals)}))
proc.stdin.write(json.dumps({"type": "quit"}) + "\n")
proc.wait(timeout=30)
