#!/usr/bin/env bash
# On the GPU machine: the throughput sweep of scripts/gpu-sweeps.sh on a local runner and through a
# one-node Slurm cluster that has the GPU as a gres, twice each, alternating. Run from the repo root
# after `source .device/env.sh`, with the bundle of scripts/slurm-bundle.sh:
#   scripts/gpu-slurm-sweep.sh SLURM_BUNDLE.tar.xz BENCH RUNNER        results under $OUT
# ROUNDS=N (default 2): how many Slurm/local pairs.
set -uo pipefail
bundle=${1:?bundle}; bench=$(realpath "${2:?bench}"); export GEMMSCOPE_RUNNER=$(realpath "${3:?runner}")
out=${OUT:-/tmp/gemmscope-out}; mkdir -p "$out"
command -v slurmd >/dev/null || { tar -xJf "$bundle" -C /tmp && /tmp/slurmbundle/install.sh; }
nvidia-smi -L | tee "$out/info.txt"
sweep=(--sweep --stage final -x BM -y BN --x-values 64,128 --y-values 64,128 --rest best
       --size 4096x4096x4096 --budget-ms 30)
cluster=$(mktemp -d)/slurm
scripts/slurm-local.sh up "$cluster" --gpus 1 >"$out/slurm-up.txt" 2>&1 || { cat "$out/slurm-up.txt"; exit 1; }
export SLURM_CONF=$cluster/slurm.conf
timeout 30 srun --gres=gpu:1 -n1 bash -c 'echo "a step sees CUDA_VISIBLE_DEVICES=$CUDA_VISIBLE_DEVICES"' | tee -a "$out/slurm-up.txt"
# Each sweep from a cold compile cache and a journal of its own (an old journal would resume).
sweep_once() { # NAME [bench options...]
  local name=$1; shift
  GEMMSCOPE_CACHE_DIR=$(mktemp -d) timeout 300 "$bench" "${sweep[@]}" "$@" --journal "$(mktemp -u).gsweep" \
    --json "$out/sweep-$name.json" >"$out/sweep-$name.txt" 2>&1
  echo "$name: $(grep -E '^Wall' "$out/sweep-$name.txt")"
}
for i in $(seq "${ROUNDS:-2}"); do
  sweep_once "slurm$i" --slurm --gpus-per-runner 1 --runners 1
  sweep_once "local$i"
done
squeue | tee -a "$out/slurm-up.txt"
scripts/slurm-local.sh down "$cluster" >>"$out/slurm-up.txt" 2>&1
