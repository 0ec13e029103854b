#!/usr/bin/env bash
# Slurm's start-up costs as a sweep pays them (docs/slurm-scaling.md): prints, in seconds,
#   salloc --no-shell until granted (the one wait of a sweep's allocation),
#   one job step (srun --jobid ID -n1 --exact true) inside it: median and max of REPEATS,
#   STEPS steps started at once inside it (how a pool of runners starts),
#   one srun outside an allocation (a job of its own per runner: the alternative not taken).
# Uses the cluster SLURM_CONF names; without one it starts its own with scripts/slurm-local.sh in a
# temporary folder and stops it at the end.
#   scripts/slurm-step-startup.sh [REPEATS=20] [STEPS=8]
set -euo pipefail
repeats=${1:-20}
steps=${2:-8}
here=$(cd "$(dirname "$0")" && pwd)
if [ -z "${SLURM_CONF:-}" ]; then
    own=$(mktemp -d /tmp/gs-slurm-bench-XXXXXX)
    trap '"$here/slurm-local.sh" down "$own"; rm -rf "$own"' EXIT
    t0=$(date +%s.%N)
    "$here/slurm-local.sh" up "$own" >/dev/null
    printf 'cluster start (munged, slurmctld, slurmd until the node is idle): %.2f s\n' \
        "$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { print b - a }')"
    export SLURM_CONF=$own/slurm.conf
fi
now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { print b - a }'; }

t0=$(now)
job=$(salloc --no-shell --ntasks="$steps" --job-name=gs-startup 2>&1 | sed -n 's/.*Granted job allocation \([0-9]*\).*/\1/p')
[ -n "$job" ] || { echo "salloc was not granted" >&2; exit 1; }
printf 'salloc --no-shell, %d tasks, until granted: %.3f s (job %s)\n' "$steps" "$(since "$t0")" "$job"

times=()
for _ in $(seq "$repeats"); do
    t0=$(now)
    srun --jobid="$job" --ntasks=1 --exact --quiet true
    times+=("$(since "$t0")")
done
printf '%s\n' "${times[@]}" | sort -g | awk -v n="$repeats" '
    { v[NR] = $1 } END { printf "one step inside the allocation: median %.3f s, max %.3f s (%d steps)\n", v[int((n + 1) / 2)], v[n], n }'

t0=$(now)
for _ in $(seq "$steps"); do srun --jobid="$job" --ntasks=1 --exact --quiet true & done
wait
printf '%d steps at once inside the allocation: %.3f s until the last ended\n' "$steps" "$(since "$t0")"
scancel "$job"

t0=$(now)
srun --ntasks=1 --quiet --job-name=gs-startup true
printf 'one srun outside an allocation (a job per runner): %.3f s\n' "$(since "$t0")"
