#!/usr/bin/env bash
# Installs everything, builds, and starts the GemmScope GUI. Without a GPU it opens on the
# embedded session of recorded results and says in the status bar why running is off.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/setup.sh"
"$root/scripts/build.sh" --gui
exec "$root/build/app/gui/gemmscope" "$@"
