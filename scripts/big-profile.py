#!/usr/bin/env python3
"""Writes oversized recorded profiles, for measuring how GemmScope bounds them (the limits are in
app/core/profile_limits.h). The instructions are the default session's recorded H200 profile of
`final`, repeated under new byte offsets.

A session whose one profile holds N instructions (optionally each on its own source line, and one
SASS text of S characters):
    scripts/big-profile.py session --instructions 1000000 [--distinct-lines] [--string-chars S] /tmp/p.json
    build/app/gui/gemmscope --measure-ui-stall --preload /tmp/p.json

A bench file with N small profiles (each of its own problem size), for `--import-bench`:
    scripts/big-profile.py bench --profiles 10000 /tmp/bench.json
    build/app/gui/gemmscope --import-bench /tmp/bench.json --save /tmp/imported.json
"""
import argparse
import json
import os

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def recorded_profile(stage="final"):
    with open(os.path.join(ROOT, "resources", "default_session.json")) as f:
        session = json.load(f)
    for entry in session["profiles"]:
        if entry["event"]["stage"] == stage:
            return session, entry
    raise SystemExit(f"no recorded profile of {stage} in the default session")


def repeated(instructions, count, distinct_lines):
    out = []
    for i in range(count):
        ins = dict(instructions[i % len(instructions)])
        ins["pc"] = 16 * i
        if distinct_lines:
            ins["line"] = i + 1
        out.append(ins)
    return out


def write_session(args):
    session, entry = recorded_profile()
    event = dict(entry["event"])
    event["instructions"] = repeated(event["instructions"], args.instructions, args.distinct_lines)
    if args.string_chars:
        event["instructions"][0]["sass"] = "X" * args.string_chars
    session["profiles"] = [{"origin": "recorded", "event": event}]
    session["title"] = f"one profile of {args.instructions} instructions"
    with open(args.out, "w") as f:
        json.dump(session, f)
    print(f"wrote a profile of {args.instructions} instructions to {args.out}")


def write_bench(args):
    _, entry = recorded_profile()
    template = dict(entry["event"])
    template["instructions"] = template["instructions"][: args.instructions]
    profiles = []
    for i in range(args.profiles):
        event = dict(template)
        event["id"] = f"p{i}"
        event["size"] = {"m": 64 + 64 * i, "n": 4096, "k": 4096}
        profiles.append(event)
    # One recorded bench's rows and envelope around the profiles.
    with open(os.path.join(ROOT, "tests", "data", "recorded", "bench-h200-2026-11-29-run1.json")) as f:
        bench = json.load(f)
    bench["profiles"] = profiles
    with open(args.out, "w") as f:
        json.dump(bench, f)
    print(f"wrote {args.profiles} profiles to {args.out}")


parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
modes = parser.add_subparsers(dest="mode", required=True)
s = modes.add_parser("session")
s.add_argument("--instructions", type=int, default=1000000)
s.add_argument("--distinct-lines", action="store_true")
s.add_argument("--string-chars", type=int, default=0)
s.add_argument("out")
s.set_defaults(run=write_session)
b = modes.add_parser("bench")
b.add_argument("--profiles", type=int, default=10000)
b.add_argument("--instructions", type=int, default=20, help="instructions per profile")
b.add_argument("out")
b.set_defaults(run=write_bench)
args = parser.parse_args()
args.run(args)
