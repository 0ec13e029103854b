#!/usr/bin/env python3
"""Puts two recorded H200 sweeps into the embedded default session (resources/default_session.json),
so that the Sweep views show real data on a machine without a GPU.

Both come from the recorded runs in tests/data/recorded/sweeps-2026-11-30/ (gemmscope-bench on an NVIDIA H200,
host "vm"), copied run for run with the runner's verbatim event ("raw") left out:

- the parameter sweep is a TM x TN slice of sweep-1gpu.json (final stage, 4096^3, BM x BN with the
  best over the rest): the 14 recorded runs with BM=128 BN=128 BK=24 (the recorded sweep's best
  cell's tile), as a "fixed" sweep, plus the cuBLAS FP32 baseline of the same runner session.
  Every configuration of that slice the catalog accepts was run in the recorded sweep, so the
  embedded sweep is complete; the whole sweep (427 runs, 2 MB) is too large to embed.
- the size sweep is size-sweep-square.json whole (5 series x 11 square sizes, 55 runs).

Run from the repository root; it rewrites the session's "sweeps" and keeps everything else.
"""
import json
import sys

from embed_recorded_profiles import write_session  # profiles one per line, the rest indented

SESSION = "resources/default_session.json"
GRID = "tests/data/recorded/sweeps-2026-11-30/sweep-1gpu.json"
SIZES = "tests/data/recorded/sweeps-2026-11-30/size-sweep-square.json"
SLICE = {"BM": 128, "BN": 128, "BK": 24}
SLICE_VALUES = [1, 2, 4, 8, 16]  # TM and TN values of the recorded sweep


def stripped(run):
    return {k: v for k, v in run.items() if k != "raw"}


def main():
    with open(SESSION) as f:
        session = json.load(f)
    with open(GRID) as f:
        grid = json.load(f)
    with open(SIZES) as f:
        sizes = json.load(f)

    slice_runs = [stripped(r) for r in grid["runs"] if r["stage"] == "cublas_fp32"]
    slice_runs += [stripped(r) for r in grid["runs"]
                   if r["stage"] == "final" and all(r["params"][k] == v for k, v in SLICE.items())]
    spec = dict(grid["spec"])
    spec.update({"x": {"param": "TM", "values": SLICE_VALUES}, "y": {"param": "TN", "values": SLICE_VALUES},
                 "rest": "fixed", "fixed": SLICE})
    grid_sweep = {"id": "h200-20261130-final-tm-tn", "created": grid["date"], "spec": spec, "runs": slice_runs}
    size_sweep = {"id": "h200-20261130-sizes-square", "created": sizes["date"], "spec": sizes["spec"],
                  "runs": [stripped(r) for r in sizes["runs"]]}
    session["sweeps"] = [grid_sweep, size_sweep]
    note = (" Sweep tab: two sweeps recorded with gemmscope-bench on the same kind of GPU (NVIDIA H200, host "
            "\"vm\", 2026-11-30; raw files tests/data/recorded/sweeps-2026-11-30/): the final stage's TM x TN at BM=128 "
            "BN=128 BK=24, 4096x4096x4096 (a slice of sweep-1gpu.json, every accepted configuration of it "
            "recorded), and TFLOP/s against size for five series, 256 to 8192 (size-sweep-square.json).")
    if "Sweep tab:" not in session["description"]:
        session["description"] += note
    write_session(SESSION, session)
    print(f"{SESSION}: parameter sweep {len(slice_runs)} runs, size sweep {len(size_sweep['runs'])} runs",
          file=sys.stderr)


if __name__ == "__main__":
    main()
