#!/usr/bin/env bash
# Packs Debian's Slurm and MUNGE for a machine without a package registry (the GPU machine):
# their .deb files unpacked, the libraries they need beyond glibc, and an install.sh that puts
# them in place there. Used by scripts/gpu-slurm-sweep.sh.
#
#   scripts/slurm-bundle.sh OUT.tar.xz
set -euo pipefail
out=$(realpath -m "${1:?usage: $0 OUT.tar.xz}")
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/slurmbundle/tree/deps" "$stage/debs"
(cd "$stage/debs" && apt-get download slurmctld slurmd slurm-client slurm-wlm-basic-plugins munge libmunge2 >/dev/null)
for deb in "$stage"/debs/*.deb; do dpkg -x "$deb" "$stage/slurmbundle/tree"; done
# What the daemons, tools and plugins link beyond glibc, found by ldd here.
(cd "$stage/slurmbundle/tree" &&
  find . -type f \( -name '*.so*' -o -perm -u+x \) -exec ldd {} \; 2>/dev/null |
  awk '/=>/ && $3 ~ /^\// {print $3}' | sort -u |
  grep -v -E '/(libc|libm|libdl|librt|libpthread|libresolv|ld-linux[^/]*)\.so|slurm-wlm|libmunge' |
  while read -r lib; do cp -L "$lib" deps/; done)
cat >"$stage/slurmbundle/install.sh" <<'INSTALL'
#!/usr/bin/env bash
# Installs the unpacked packages beside this script; the libraries in tree/deps are found after
# the machine's own (ld.so.conf.d/zz-*), so a library it has wins.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cp -a "$here"/tree/usr/lib/x86_64-linux-gnu/. /usr/lib/x86_64-linux-gnu/
cp -a "$here"/tree/usr/sbin/. /usr/sbin/
cp -a "$here"/tree/usr/bin/. /usr/bin/
for d in slurmctld slurmd slurmstepd; do ln -sf "$d-wlm" "/usr/sbin/$d"; done
mkdir -p /usr/local/lib/slurm-deps
cp -n "$here"/tree/deps/* /usr/local/lib/slurm-deps/
echo /usr/local/lib/slurm-deps >/etc/ld.so.conf.d/zz-slurm-deps.conf
ldconfig
INSTALL
chmod +x "$stage/slurmbundle/install.sh"
tar -C "$stage" -cJf "$out" slurmbundle
echo "wrote $out ($(du -h "$out" | cut -f1))"
