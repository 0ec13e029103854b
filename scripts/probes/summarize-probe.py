#!/usr/bin/env python3
"""Prints a Markdown table of shared-store wavefronts per instruction for each probe launch in an
ncu --csv file (scripts/probes/smem_store_probe.cu under scripts/gpu-session.sh's `probe` step):
the hardware L1 counter next to the SASS-level (address-derived) counter.

    scripts/probes/summarize-probe.py ncu-probe.csv probe-stdout.txt"""
import csv
import sys
from collections import defaultdict

PATTERNS = {"0": "stores alone", "1": "stores beside shared reads", "2": "stores beside global loads",
            "3": "stores of global loads (tile fill)"}

def main():
    rows = defaultdict(dict)
    order = []
    with open(sys.argv[1]) as f:
        lines = [l for l in f if l.startswith('"')]
    for r in csv.DictReader(lines):
        key = r["ID"]
        if key not in rows:
            order.append(key)
        rows[key]["name"] = r["Kernel Name"]
        rows[key]["block"] = r.get("Block Size", "")
        try:
            rows[key][r["Metric Name"]] = float(r["Metric Value"].replace(",", ""))
        except ValueError:
            pass
    launches = [l for l in open(sys.argv[2]) if l.startswith("probe<")]  # the program's own line per launch
    print("| pattern | threads/block | warps/SM | st wavefronts/inst: L1 hardware | SASS (by address) |"
          " ld wavefronts/inst: L1 hardware | SASS (by address) |")
    print("|---|---|---|---|---|---|---|")
    for i, key in enumerate(order):
        m = rows[key]
        info = launches[i].split() if i < len(launches) else []
        pattern = PATTERNS.get(m["name"].split("<")[1].split(",")[0], m["name"]) if "<" in m["name"] else m["name"]
        warps = info[info.index("warps/SM") + 1] if "warps/SM" in info else "?"
        def ratio(num, den):
            return f"{m[num] / m[den]:.3f}" if m.get(den) else "—"
        print(f"| {pattern} | {m['block']} | {warps} | "
              f"{ratio('l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum', 'smsp__inst_executed_op_shared_st.sum')} | "
              f"{ratio('smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum', 'smsp__sass_inst_executed_op_shared_st.sum')} | "
              f"{ratio('l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum', 'smsp__inst_executed_op_shared_ld.sum')} | "
              f"{ratio('smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum', 'smsp__sass_inst_executed_op_shared_ld.sum')} |")

if __name__ == "__main__":
    main()
