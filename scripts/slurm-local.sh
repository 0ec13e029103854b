#!/usr/bin/env bash
# A one-node Slurm cluster on 127.0.0.1, started and stopped from the command line, without systemd:
# munged, slurmctld and slurmd run from a slurm.conf generated into a folder of their own. The
# tests' fixture (tests/support/slurm_cluster.h) starts its cluster with this very script, so a
# sweep tried by hand runs on the same configuration as the tests'.
#
#   scripts/slurm-local.sh up DIR [--gpus N] [--cpus N]   start (DIR is created, mode 0700)
#   scripts/slurm-local.sh down DIR                       stop: jobs cancelled, every daemon and
#                                                         leftover step of DIR's cluster killed
#   export SLURM_CONF=DIR/slurm.conf                      what srun/sbatch/squeue need
#
# --gpus N adds the GPUs as a gres (GresTypes=gpu, gres.conf with AutoDetect=off and
# /dev/nvidia0..N-1), so that `--gres=gpu:1` gives a step its own GPU and CUDA_VISIBLE_DEVICES.
# Ports are free ones picked now (SLURM_LOCAL_PORTS="CTLD SLURMD" picks them instead). Only the
# daemons named by DIR's pid files are ever stopped: another cluster on this machine is left alone.
# Needs root (slurmd starts steps as the submitting user) and the packages of scripts/setup.sh.
set -euo pipefail

usage() { echo "usage: $0 up DIR [--gpus N] [--cpus N] | down DIR" >&2; exit 2; }
[ $# -ge 2 ] || usage
action=$1
dir=$(realpath -m "$2")
shift 2

free_port() {
    python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'
}

# The last lines of a daemon's log that say what went wrong (error/fatal first), for the message of
# a start that failed.
log_tail() {
    local log=$1
    [ -f "$log" ] || { echo "($log was not written)"; return; }
    if grep -qiE 'error|fatal' "$log"; then grep -iE 'error|fatal' "$log" | tail -n 3; else tail -n 3 "$log"; fi
}

stop_pidfile() {
    local file=$1 pid
    [ -f "$file" ] || return 0
    pid=$(cat "$file" 2>/dev/null || true)
    [[ "$pid" =~ ^[0-9]+$ ]] || return 0
    kill -TERM "$pid" 2>/dev/null || return 0
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || return 0; sleep 0.1; done
    kill -KILL "$pid" 2>/dev/null || true
}

# Every descendant of the given pids (children first found by their parent's pid).
descendants() {
    local pids=" $* " changed=1 p ppid
    while [ $changed = 1 ]; do
        changed=0
        for stat in /proc/[0-9]*/stat; do
            p=${stat#/proc/}; p=${p%/stat}
            ppid=$(awk '{print $4}' "$stat" 2>/dev/null) || continue
            if [[ "$pids" == *" $ppid "* && "$pids" != *" $p "* ]]; then pids+="$p "; changed=1; fi
        done
    done
    echo $pids
}

down() {
    if [ -f "$dir/slurm.conf" ] && [ -f "$dir/run/slurmctld.pid" ]; then
        SLURM_CONF=$dir/slurm.conf timeout 10 scancel --user="$(id -un)" 2>/dev/null || true
    fi
    stop_pidfile "$dir/run/slurmd.pid"
    # Steps left behind: slurmstepd processes started by this cluster's slurmd carry its marker in
    # their environment; they and their tasks (the runners) are killed, nothing else.
    local steps=()
    for env in /proc/[0-9]*/environ; do
        p=${env#/proc/}; p=${p%/environ}
        [ "$(cat /proc/$p/comm 2>/dev/null)" = slurmstepd ] || continue
        if tr '\0' '\n' <"$env" 2>/dev/null | grep -qxF "GEMMSCOPE_SLURM_DIR=$dir"; then steps+=("$p"); fi
    done
    if [ ${#steps[@]} -gt 0 ]; then kill -KILL $(descendants "${steps[@]}") 2>/dev/null || true; fi
    stop_pidfile "$dir/run/slurmctld.pid"
    stop_pidfile "$dir/run/munged.pid"
}

up() {
    local gpus=0 cpus=16
    while [ $# -gt 0 ]; do
        case $1 in
        --gpus) gpus=$2; shift 2 ;;
        --cpus) cpus=$2; shift 2 ;;
        *) usage ;;
        esac
    done
    for tool in munged slurmctld slurmd sinfo; do
        command -v "$tool" >/dev/null ||
            { echo "$tool is missing: install slurmctld slurmd slurm-client munge (scripts/setup.sh)" >&2; exit 1; }
    done
    mkdir -p "$dir"/{run,log,state,spool}
    chmod 0700 "$dir" "$dir/run"
    local host ctld_port slurmd_port
    host=$(hostname -s)
    if [ -n "${SLURM_LOCAL_PORTS:-}" ]; then read -r ctld_port slurmd_port <<<"$SLURM_LOCAL_PORTS"
    else ctld_port=$(free_port); slurmd_port=$(free_port); fi
    if [ ! -f "$dir/munge.key" ]; then
        head -c 1024 /dev/urandom >"$dir/munge.key"
        chmod 0400 "$dir/munge.key"
    fi
    local gres="" node_gres=""
    if [ "$gpus" -gt 0 ]; then
        gres="GresTypes=gpu"
        node_gres="Gres=gpu:$gpus"
        {
            echo "AutoDetect=off"
            for i in $(seq 0 $((gpus - 1))); do echo "NodeName=$host Name=gpu File=/dev/nvidia$i"; done
        } >"$dir/gres.conf"
    fi
    # On a cgroup v2 host slurmd's cgroup/v2 plugin asks systemd (over dbus) for a scope of its own;
    # these daemons are not systemd's, so the plugin builds its hierarchy itself (without this,
    # slurmd stops with "cannot create cgroup context for cgroup/v2").
    if [ "$(stat -fc %T /sys/fs/cgroup 2>/dev/null)" = cgroup2fs ]; then
        printf 'CgroupPlugin=cgroup/v2\nIgnoreSystemd=yes\nCgroupAutomount=yes\n' >"$dir/cgroup.conf"
        # Without systemd there is no system.slice for that scope to go in (seen on the GPU
        # machine): made here, with the controllers the plugin enables below it.
        if [ ! -d /sys/fs/cgroup/system.slice ]; then
            # Read-only cgroups (a container): slurmd then fails and says so in its log.
            mkdir /sys/fs/cgroup/system.slice 2>/dev/null || true
            echo "+cpuset +cpu +memory" >/sys/fs/cgroup/cgroup.subtree_control 2>/dev/null || true
        fi
    fi
    cat >"$dir/slurm.conf" <<EOF
ClusterName=gs$(basename "$dir" | tr -cd 'a-z0-9' | tail -c 30)
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$dir/run/munge.socket
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/run/slurmctld.pid
SlurmdPidFile=$dir/run/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
MpiDefault=none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SlurmdParameters=config_overrides
ReturnToService=2
SchedulerType=sched/backfill
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
MessageTimeout=5
$gres
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=1000 $node_gres State=UNKNOWN
PartitionName=debug Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
    export GEMMSCOPE_SLURM_DIR=$dir # marks this cluster's daemons and steps for `down`
    munged --key-file="$dir/munge.key" --socket="$dir/run/munge.socket" --pid-file="$dir/run/munged.pid" \
        --log-file="$dir/log/munged.log" --seed-file="$dir/run/munge.seed" --force ||
        { echo "munged did not start: $(log_tail "$dir/log/munged.log")" >&2; exit 1; }
    slurmctld -f "$dir/slurm.conf" ||
        { echo "slurmctld did not start: $(log_tail "$dir/log/slurmctld.log")" >&2; exit 1; }
    slurmd -f "$dir/slurm.conf" ||
        { echo "slurmd did not start: $(log_tail "$dir/log/slurmd.log")" >&2; exit 1; }
    export SLURM_CONF=$dir/slurm.conf
    for _ in $(seq 300); do
        state=$(timeout 5 sinfo -h -n "$host" -o %T 2>/dev/null || true)
        [ "$state" = idle ] && { echo "SLURM_CONF=$dir/slurm.conf"; return 0; }
        sleep 0.1
    done
    echo "the one-node cluster in $dir did not come up (node state: ${state:-none})." >&2
    echo "slurmctld: $(log_tail "$dir/log/slurmctld.log")" >&2
    echo "slurmd: $(log_tail "$dir/log/slurmd.log")" >&2
    exit 1
}

case $action in
up) up "$@" ;;
down) down ;;
*) usage ;;
esac
