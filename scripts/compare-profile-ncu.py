#!/usr/bin/env python3
"""GemmScope's profile limiters beside Nsight Compute's reading of the same metrics.

usage: compare-profile-ncu.py OUTDIR  (holding profiles.jsonl and ncu-<stage>.csv, as written by
scripts/gpu-profile-check.sh); prints a Markdown table: metric, GemmScope, ncu, difference."""
import csv
import json
import sys
from pathlib import Path

out = Path(sys.argv[1])
profiles = {}
for line in (out / "profiles.jsonl").read_text().splitlines():
    event = json.loads(line)
    if event.get("event") == "profile":
        profiles[event["id"]] = event

print("| stage | metric | GemmScope | Nsight Compute | difference |")
print("|---|---|---|---|---|")
for csv_path in sorted(out.glob("ncu-*.csv")):
    stage = csv_path.stem[len("ncu-"):]
    rows = [r for r in csv.reader(l for l in csv_path.read_text().splitlines() if l.startswith('"'))]
    if len(rows) < 2 or stage not in profiles:
        print(f"| {stage} | (no ncu reading or no profile) | | | |")
        continue
    header, values = rows[0], rows[-1]
    ncu = dict(zip(header, values))
    for metric, ours in sorted(profiles[stage].get("limiters", {}).items()):
        theirs = ncu.get(metric)
        try:
            theirs = float(theirs.replace(",", ""))
        except (AttributeError, ValueError):
            print(f"| {stage} | `{metric}` | {ours:.4g} | — | |")
            continue
        diff = "" if theirs == 0 else f"{100 * (ours - theirs) / theirs:+.1f} %"
        print(f"| {stage} | `{metric}` | {ours:.4g} | {theirs:.4g} | {diff} |")
