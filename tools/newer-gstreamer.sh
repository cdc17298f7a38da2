#!/usr/bin/env bash
# Builds the project against a newer GStreamer than Debian 12's 1.22 and
# runs its CPU tests there: Debian 13's GStreamer 1.26, whose CUDA library
# carries a CUDA stream on its memory, so that the code built only against
# 1.24 and newer (HAVE_GST_CUDA_STREAM) is compiled and tested too.
#
# It makes a Debian 13 system in a folder with debootstrap (once; later
# runs reuse it), installs the build dependencies there, copies the
# working tree's tracked files in and builds them with this machine's CUDA
# toolkit, mounted inside. Needs root (chroot, mount) and Debian's mirror.
# Usage: bash tools/newer-gstreamer.sh [folder]   (default newer-gstreamer)
set -euo pipefail
cd "$(dirname "$0")/.."

root="$(realpath -m "${1:-newer-gstreamer}")"
suite=trixie
toolkit=/usr/local/cuda

if [ "$(id -u)" -ne 0 ]; then
  echo "newer-gstreamer: needs root for debootstrap, mount and chroot" >&2
  exit 1
fi
if ! command -v debootstrap >/dev/null; then
  apt-get update -q
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q debootstrap
fi
if [ ! -f "$root/etc/debian_version" ]; then
  echo "== making a Debian 13 ($suite) system in $root"
  debootstrap --variant=minbase "$suite" "$root" http://deb.debian.org/debian
fi

mounts=()
cleanup() {
  for ((i = ${#mounts[@]} - 1; i >= 0; i--)); do
    umount "${mounts[$i]}" || true
  done
}
trap cleanup EXIT
bind() {
  mkdir -p "$2"
  mount --bind "$1" "$2"
  mounts+=("$2")
}
mount -t proc proc "$root/proc"
mounts+=("$root/proc")
bind /dev "$root/dev"
cuda=false
if [ -x "$toolkit/bin/nvcc" ]; then
  bind "$toolkit" "$root$toolkit"
  cuda=true
fi

packages=(meson ninja-build pkg-config gcc g++ libc6-dev libglib2.0-dev
  libgstreamer1.0-dev libgstreamer-plugins-base1.0-dev gstreamer1.0-tools
  gstreamer1.0-plugins-base gstreamer1.0-plugins-good)
# the CUDA library and its headers (which need GL's) with the toolkit
$cuda && packages+=(libgstreamer-plugins-bad1.0-dev libgl-dev
  gstreamer1.0-plugins-bad)
echo "== installing the build dependencies in $root"
chroot "$root" apt-get update -q
chroot "$root" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
  --no-install-recommends "${packages[@]}"

echo "== building and testing against $(chroot "$root" pkg-config --modversion gstreamer-1.0)"
rm -rf "$root/src"
mkdir -p "$root/src"
git ls-files -z | tar --null -T - -c | tar -x -C "$root/src"
# Python's bindings are not installed there: the python suite stays out
chroot "$root" env PATH="$toolkit/bin:/usr/sbin:/usr/bin:/sbin:/bin" bash -c '
  set -e
  cd /src
  meson setup build
  meson compile -C build
  grep HAVE_GST_CUDA build/config.h ||
    echo "== built without GStreamer'"'"'s CUDA library (no CUDA toolkit)"
  meson test -C build --suite cpu --no-suite python --print-errorlogs \
    --num-processes 2'
