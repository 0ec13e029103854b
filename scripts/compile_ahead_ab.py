#!/usr/bin/env python3
"""A/B of the runner's compile-ahead on a GPU machine.

Sends one `run` request per configuration of a stage at once (so they queue), cold CUBIN cache,
first with GEMMSCOPE_COMPILE_THREADS=0 (every NVRTC compile inside its job, the GPU waits) and then
with the default pool, and prints for each: wall time, valid configurations per minute, how long
the GPU worker waited for NVRTC (the sum of the `compiled` events' compile_wait_ms), how many
kernels were compiled ahead, and a GPU-busy estimate (1 - waiting / wall). Also checks that both
modes give the same valid set and medians within noise.

  python3 scripts/compile_ahead_ab.py build/app/runner/gemmscope-runner [--stage final] [--size 4096]
      [--budget-ms 30] [--limit N] [--threads N]

Standard library only; the runner is driven through docs/protocol.md on stdin/stdout.
"""
import argparse
import itertools
import json
import os
import statistics
import subprocess
import tempfile
import time


def configurations(limit):
    out = []
    for bm, bn, bk, tm, tn in itertools.product((64, 128, 192, 256), (64, 128, 192, 256), (8, 16, 32),
                                                (4, 8, 12, 16), (4, 8, 12, 16)):
        out.append({"BM": bm, "BN": bn, "BK": bk, "TM": tm, "TN": tn})
    return out[:limit] if limit else out


def sweep(runner, threads, stage, size, budget_ms, configs):
    env = dict(os.environ)
    env["GEMMSCOPE_COMPILE_THREADS"] = str(threads)
    with tempfile.TemporaryDirectory(prefix="gemmscope-ab-") as cache:
        env["GEMMSCOPE_CACHE_DIR"] = cache
        lines = []
        for i, params in enumerate(configs):
            lines.append(json.dumps({"type": "run", "id": f"c{i}", "stage": stage, "params": params,
                                     "size": {"m": size, "n": size, "k": size},
                                     "timing": {"warmup": 1, "budget_ms": budget_ms, "min_reps": 3}}))
        start = time.monotonic()
        proc = subprocess.Popen([runner], stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env, text=True)
        proc.stdin.write("\n".join(lines) + "\n")
        proc.stdin.close()  # EOF: the runner runs every queued job, then exits
        results, errors, waits, ahead = {}, {}, [], 0
        for line in proc.stdout:
            event = json.loads(line)
            kind = event.get("event")
            if kind == "compiled":
                waits.append(event.get("compile_wait_ms", 0.0))
                ahead += bool(event.get("compiled_ahead"))
            elif kind == "result":
                results[event["id"]] = event["timing"]["median_ms"]
            elif kind == "error":
                errors[event.get("kind")] = errors.get(event.get("kind"), 0) + 1
        proc.wait()
        wall = time.monotonic() - start
    waited = sum(waits) / 1000.0
    print(f"compile threads {threads if threads else '0 (off)'}: {len(configs)} configurations, "
          f"{len(results)} valid in {wall:.1f} s = {len(results) / wall * 60:.0f} valid/min; "
          f"GPU worker waited {waited:.1f} s for NVRTC ({ahead} of {len(waits)} kernels compiled ahead); "
          f"GPU busy <= {100 * max(0.0, 1 - waited / wall):.0f} %; errors {errors}")
    return results


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("runner")
    parser.add_argument("--stage", default="final")
    parser.add_argument("--size", type=int, default=4096)
    parser.add_argument("--budget-ms", type=float, default=30)
    parser.add_argument("--limit", type=int, default=0, help="first N configurations only")
    parser.add_argument("--threads", type=int, default=os.cpu_count(), help="the pool for the B run")
    args = parser.parse_args()
    configs = configurations(args.limit)
    off = sweep(args.runner, 0, args.stage, args.size, args.budget_ms, configs)
    on = sweep(args.runner, args.threads, args.stage, args.size, args.budget_ms, configs)
    if set(off) != set(on):
        print(f"DIFFERENT valid sets: only without pool {sorted(set(off) - set(on))}, "
              f"only with pool {sorted(set(on) - set(off))}")
    ratios = [on[k] / off[k] for k in off if k in on and off[k] > 0]
    if ratios:
        print(f"median time with pool / without, per configuration: median {statistics.median(ratios):.3f}, "
              f"min {min(ratios):.3f}, max {max(ratios):.3f} (1.0 = compiles ahead do not disturb timing)")


if __name__ == "__main__":
    main()
