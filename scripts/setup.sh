#!/usr/bin/env bash
# Installs everything GemmScope needs from Debian's packages. Safe to run any number of times:
# apt-get skips what is already there. The CUDA Toolkit is not in Debian's archive; it is
# found at /usr/local/cuda when present, and without it GemmScope builds in model-only mode.
set -euo pipefail
packages=(
  build-essential cmake ninja-build pkg-config clang-format
  qt6-base-dev qt6-base-dev-tools qt6-svg-dev libqt6svg6 qt6-qpa-plugins
  libqcustomplot-dev libqcustomplot2.1-qt6
  libqscintilla2-qt6-dev # the kernel editor (widgets/kernel_editor.h)
  libgl-dev xvfb xauth imagemagick fonts-dejavu-core
  libjemalloc-dev # the application's allocator: a large session's read (app/gui/CMakeLists.txt)
  python3 # the scripted stand-in runner in tst_runner_client, scripts/compare-counters.py
  openssh-server openssh-client # tst_sweep_ssh: a sweep through `ssh {host} ...` to a test sshd
  slurmctld slurmd slurm-client munge # tst_sweep_slurm: a one-node Slurm cluster (scripts/slurm-local.sh)
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  sudo_cmd=""
  [ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq --no-install-recommends "${missing[@]}"
else
  echo "setup: all packages present"
fi
if [ -x /usr/local/cuda/bin/nvcc ] || [ -f /usr/local/cuda/include/nvrtc.h ]; then
  echo "setup: CUDA Toolkit found at /usr/local/cuda"
else
  echo "setup: no CUDA Toolkit at /usr/local/cuda: GemmScope will build in model-only mode"
fi
