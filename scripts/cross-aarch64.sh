#!/usr/bin/env bash
# gst-cuda-vision. Copyright (C) 2026 The gst-cuda-vision authors.
# SPDX-License-Identifier: LGPL-2.1-or-later (GNU Lesser General Public
# License 2.1 or later, COPYING).
# gst-cuda-vision: cross-compiles the plugin and its tools for 64-bit Arm
# (Jetson Orin, sm_87) and checks that they link: in a Debian 12 system
# made for it, with Debian's arm64 GStreamer development packages
# (multiarch) and aarch64-linux-gnu toolchain, this machine's nvcc, and
# NVIDIA's aarch64 CUDA runtime of nvcc's version from PyPI. Nothing runs:
# there is no Arm machine here.
# CROSS_CUDA_ARCH: the architectures (default 87).
# Usage: bash scripts/cross-aarch64.sh [folder]   (default cross-aarch64)
set -euo pipefail
cd "$(dirname "$0")/.."

work="$(realpath -m "${1:-cross-aarch64}")"
root="$work/bookworm"
toolkit=/usr/local/cuda
. scripts/lib/debian-chroot.sh

if [ ! -x "$toolkit/bin/nvcc" ]; then
  echo "cross-aarch64: needs the CUDA toolkit at $toolkit" >&2
  exit 1
fi
cuda_version="$("$toolkit/bin/nvcc" --version | sed -n 's/.*release \([0-9]*\.[0-9]*\).*/\1/p')"

chroot_make "$root" bookworm
chroot "$root" dpkg --add-architecture arm64
chroot "$root" apt-get update -q
chroot_install "$root" meson ninja-build pkg-config gcc-aarch64-linux-gnu \
  g++-aarch64-linux-gnu binutils-aarch64-linux-gnu libc6-dev:arm64 \
  libglib2.0-dev:arm64 libgstreamer1.0-dev:arm64 \
  libgstreamer-plugins-base1.0-dev:arm64

# The toolkit with an aarch64 target beside it: nvcc takes a target's
# headers and libraries from targets/NAME, and the project links the
# static runtime from lib64.
echo "== the CUDA $cuda_version toolkit with NVIDIA's aarch64 runtime"
cuda="$root/opt/cuda"
rm -rf "$cuda" "$work/wheels"
mkdir -p "$cuda/targets/sbsa-linux"
cp -a "$toolkit/bin" "$toolkit/nvvm" "$toolkit/include" "$cuda/"
cp -a "$toolkit/include" "$cuda/targets/sbsa-linux/include"
python3 -m pip download -q --no-deps --only-binary=:all: \
  --platform manylinux2014_aarch64 -d "$work/wheels" \
  "nvidia-cuda-runtime==$cuda_version.*"
python3 -m zipfile -e "$work"/wheels/nvidia_cuda_runtime-*.whl "$work/wheels/x"
cp -a "$work"/wheels/x/nvidia/cu*/lib "$cuda/targets/sbsa-linux/lib"
ln -s targets/sbsa-linux/lib "$cuda/lib64"

cat >"$root/tmp/aarch64.cross" <<CROSS
[binaries]
c = 'aarch64-linux-gnu-gcc'
cpp = 'aarch64-linux-gnu-g++'
cuda = ['/opt/cuda/bin/nvcc', '-ccbin', 'aarch64-linux-gnu-g++', '--target-directory', 'sbsa-linux']
ar = 'aarch64-linux-gnu-ar'
strip = 'aarch64-linux-gnu-strip'
pkgconfig = 'pkg-config'

[properties]
pkg_config_libdir = ['/usr/lib/aarch64-linux-gnu/pkgconfig', '/usr/share/pkgconfig']
needs_exe_wrapper = true

[host_machine]
system = 'linux'
cpu_family = 'aarch64'
cpu = 'aarch64'
endian = 'little'
CROSS

chroot_copy_tree "$root"
chroot_run "$root" bash -c '
  set -e
  cd /src
  meson setup build --cross-file /tmp/aarch64.cross -Dcuda=enabled \
    -Dcuda-arch="$1" -Dgst-cuda=disabled -Dtests=disabled
  meson compile -C build gstcudavision cudavision-devices \
    cudavision-clt-kernels
  for f in build/gst/libgstcudavision.so build/tools/cudavision-devices; do
    aarch64-linux-gnu-readelf -h "$f" | grep -q "Machine:.*AArch64"
  done
  # every symbol the plugin leaves to others is in a library it names: a
  # program linked with it fails on any that is not
  echo "int main (void) { return 0; }" >/tmp/main.c
  aarch64-linux-gnu-gcc -o /tmp/plugin-check /tmp/main.c \
    build/gst/libgstcudavision.so -Wl,--no-allow-shlib-undefined \
    -Wl,-rpath-link,/usr/lib/aarch64-linux-gnu
  aarch64-linux-gnu-readelf -d build/gst/libgstcudavision.so | grep NEEDED
  ls -l build/gst/libgstcudavision.so build/tools/cudavision-devices
  echo "== the plugin and tools link for aarch64, sm_$1"' cross \
  "${CROSS_CUDA_ARCH:-87}"
