#!/usr/bin/env python3
"""Prints a Markdown table of shared-memory wavefronts per instruction for each probe launch in an
ncu --csv file (scripts/probes/smem_store_probe.cu under scripts/gpu-session.sh's `probe` step):
the hardware L1 counter next to the SASS-level counter, which ncu derives from each instruction's
own addresses.

    scripts/probes/summarize-probe.py ncu-probe.csv probe-stdout.txt"""
import csv
import sys
from collections import defaultdict

PATTERNS = {"0": "stores alone", "1": "stores beside shared reads", "2": "stores beside global loads",
            "3": "stores of global loads (tile fill)", "4": "8 loads, then their 8 stores",
            "5": "8 loads, barrier once returned, 8 stores", "6": "stores of L1-bypassing loads (__ldcg)"}
RESIDENCY = {"one-block": "one block (padded: least L1)", "all-blocks": "all that fit",
             "all-blocks-small-L1": "all that fit, least L1", "one-block-default-L1": "one block (grid = SMs)"}

def main():
    rows = defaultdict(dict)
    order = []
    with open(sys.argv[1]) as f:
        lines = [l for l in f if l.startswith('"')]
    for r in csv.DictReader(lines):
        key = r["ID"]
        if key not in rows:
            order.append(key)
        try:
            rows[key][r["Metric Name"]] = float(r["Metric Value"].replace(",", ""))
        except ValueError:
            pass
    # The program prints one line per launch, in launch order: "probe<P, R> pattern P residency ..."
    launches = []
    for line in open(sys.argv[2]):
        if line.startswith("probe<"):
            words = line.split()[2:]
            launches.append(dict(zip(words[0::2], words[1::2])))
    print("| pattern | threads/block | blocks per SM | warps/SM | shared memory config | st wavefronts/inst: L1 hardware | SASS (by address) |"
          " ld wavefronts/inst: L1 hardware | SASS (by address) |")
    print("|---|---|---|---|---|---|---|---|---|")
    for key, info in zip(order, launches):
        m = rows[key]
        def ratio(num, den):
            return f"{m[num] / m[den]:.3f}" if m.get(den) else "—"
        # The SM's shared-memory carve-out for the launch; the rest of the 256 KB is L1 cache.
        size = m.get("launch__shared_mem_config_size")
        config = f"{size / 1024:.0f} KB" if size and size > 4096 else (f"{size:.0f} KB" if size else "—")
        print(f"| {PATTERNS.get(info['pattern'], info['pattern'])} | {info['threads']} | "
              f"{RESIDENCY.get(info['residency'], info['residency'])} | {info['warps/SM']} | {config} | "
              f"{ratio('l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum', 'smsp__inst_executed_op_shared_st.sum')} | "
              f"{ratio('smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum', 'smsp__sass_inst_executed_op_shared_st.sum')} | "
              f"{ratio('l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum', 'smsp__inst_executed_op_shared_ld.sum')} | "
              f"{ratio('smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum', 'smsp__sass_inst_executed_op_shared_ld.sum')} |")

if __name__ == "__main__":
    main()
