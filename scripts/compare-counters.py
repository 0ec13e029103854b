#!/usr/bin/env python3
"""Compares the access model's predictions (gemmscope-model CSV) with Nsight Compute counters
(ncu --csv, from scripts/gpu-session.sh's `counters` step) and prints a Markdown table.

    scripts/compare-counters.py model.csv ncu.csv [--tolerance 0.05]

Per kernel it compares global load and store sectors per request and shared-memory wavefronts
per request (ld and st). Exit status 1 when any ratio differs by more than the tolerance."""
import csv
import re
import sys
from collections import defaultdict

def load_model(path):
    rows = {}
    with open(path) as f:
        for r in csv.DictReader(f):
            # ncu prints template names without their namespace.
            rows[r["kernel"].replace(" ", "").replace("gemmscope::", "")] = r
    return rows

def load_ncu(path):
    sums = defaultdict(lambda: defaultdict(float))
    with open(path) as f:
        lines = [l for l in f if l.startswith('"')]  # skip ncu's own ==PROF== lines
    for r in csv.DictReader(lines):
        name = r["Kernel Name"]
        name = re.sub(r"^void\s+", "", name)
        name = re.sub(r"\(.*$", "", name).replace(" ", "")
        value = r["Metric Value"].replace(",", "")
        if r["Metric Name"] == "smsp__inst_executed_op_shared_st.sum":
            sums[name]["launches"] += 1  # one row of each metric per profiled launch
        try:
            sums[name][r["Metric Name"]] += float(value)
        except ValueError:
            pass
    return sums

def ratio(m, num, den):
    return m[num] / m[den] if m.get(den) else float("nan")

def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    tol = 0.05
    if "--tolerance" in sys.argv:
        tol = float(sys.argv[sys.argv.index("--tolerance") + 1])
    model, ncu = load_model(args[0]), load_ncu(args[1])
    checks = [
        ("global ld sectors/req", "global_ld_sectors_per_request",
         "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"),
        ("global st sectors/req", "global_st_sectors_per_request",
         "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum"),
        ("shared ld wavefronts/req", "shared_ld_wavefronts_per_request",
         "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", "smsp__inst_executed_op_shared_ld.sum"),
        ("shared st wavefronts/req", "shared_st_wavefronts_per_request",
         "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum", "smsp__inst_executed_op_shared_st.sum"),
        # The same two ratios from ncu's SASS-level counters, which count each executed shared
        # instruction's wavefronts from its own addresses (no other warp's traffic in them).
        ("shared ld wavefronts/inst (SASS)", "shared_ld_wavefronts_per_request",
         "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", "smsp__sass_inst_executed_op_shared_ld.sum"),
        ("shared st wavefronts/inst (SASS)", "shared_st_wavefronts_per_request",
         "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum", "smsp__sass_inst_executed_op_shared_st.sum"),
    ]
    print("| preset | kernel | " + " | ".join(f"{c[0]} model / ncu" for c in checks) + " | warps/SM achieved | shared memory config |")
    print("|---|---|" + "---|" * (len(checks) + 2))
    bad = 0
    for key, m in model.items():
        if key not in ncu:
            print(f"| {m['preset']} | `{m['kernel']}` | " + " | ".join("not profiled" for _ in checks) + " | | |")
            continue
        cells = []
        for label, col, num, den in checks:
            predicted = float(m[col])
            measured = ratio(ncu[key], num, den)
            if predicted == 0 and (measured != measured or measured == 0):
                cells.append("— / —")
                continue
            ok = measured == measured and abs(measured - predicted) <= tol * max(predicted, 1e-9)
            bad += 0 if ok else 1
            cells.append(f"{predicted:.2f} / {measured:.2f}{'' if ok else ' **differs**'}")
        # Informational: how many warps shared an SM (per launch, so averaged over the launches).
        launches = ncu[key].get("launches", 1)
        warps = ncu[key].get("sm__warps_active.avg.per_cycle_active")
        warps_cell = f"{warps / launches:.1f}" if warps is not None else "—"
        # The carve-out ncu reports per launch (summed here, so divided back); the rest is L1.
        config = ncu[key].get("launch__shared_mem_config_size")
        config = config / launches if config else None
        # ncu prints it in bytes or in Kbyte depending on its size.
        config_cell = "—" if not config else f"{config / 1024:.0f} KB" if config > 4096 else f"{config:.0f} KB"
        print(f"| {m['preset']} | `{m['kernel']}` | " + " | ".join(cells) + f" | {warps_cell} | {config_cell} |")
    print(f"\n{bad} cell(s) outside ±{tol:.0%}.")

    # Instruction counts of one launch: the model's are exact when the binary issues the source's
    # accesses; fewer shared reads mean the compiler merged them into wider loads (release build).
    counts = [("global ld requests", "global_ld_requests", "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"),
              ("global st requests", "global_st_requests", "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum"),
              ("shared ld instructions", "shared_ld_instructions", "smsp__inst_executed_op_shared_ld.sum"),
              ("shared st instructions", "shared_st_instructions", "smsp__inst_executed_op_shared_st.sum")]
    if all(c[1] in next(iter(model.values()), {}) for c in counts):
        print("\nInstructions per launch, model / ncu (issued as % of the model's):\n")
        print("| preset | " + " | ".join(c[0] for c in counts) + " |")
        print("|---|" + "---|" * len(counts))
        for key, m in model.items():
            if key not in ncu or not ncu[key].get("launches"):
                continue
            cells = []
            for label, col, metric in counts:
                predicted = float(m[col])
                measured = ncu[key].get(metric, 0.0) / ncu[key]["launches"]
                share = f" ({measured / predicted:.1%})" if predicted else ""
                cells.append(f"{predicted:,.0f} / {measured:,.0f}{share}")
            print(f"| {m['preset']} | " + " | ".join(cells) + " |")
    return 1 if bad else 0

if __name__ == "__main__":
    sys.exit(main())
