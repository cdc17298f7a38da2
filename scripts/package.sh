#!/usr/bin/env bash
# gst-cuda-vision. Copyright (C) 2026 The gst-cuda-vision authors.
# SPDX-License-Identifier: LGPL-2.1-or-later (GNU Lesser General Public
# License 2.1 or later, COPYING).
# gst-cuda-vision: builds the Debian packages (debian/) with
# dpkg-buildpackage, installs them into a clean Debian 12 system made for
# the purpose, and runs the installed plugin there: gst-inspect-1.0 and a
# pipeline on the CPU backend, nothing from the build tree. Prints the
# packages and the stripped plugin's size.
#
# PACKAGE_CUDA_ARCH: the architectures (meson's cuda-arch) of a CUDA build
# (default: the project's); without nvcc the package has the CPU backend
# alone.
# Usage: bash scripts/package.sh [folder]   (default package-test)
set -euo pipefail
cd "$(dirname "$0")/.."

work="$(realpath -m "${1:-package-test}")"
root="$work/bookworm"
. scripts/lib/debian-chroot.sh

echo "== building the packages"
rm -rf "$work"
mkdir -p "$work/src"
git ls-files -z | tar --null -T - -c | tar -x -C "$work/src"
apt-get update -q
DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
  dpkg-dev debhelper
DEBIAN_FRONTEND=noninteractive apt-get build-dep -y -q "$work/src/"
(cd "$work/src" && DEB_BUILD_OPTIONS=nocheck \
  DEB_CUDA_ARCH="${PACKAGE_CUDA_ARCH:-}" dpkg-buildpackage -us -uc -b)
ls -l "$work"/*.deb
dpkg-deb -x "$work"/gstreamer1.0-cudavision_*.deb "$work/contents"
plugin="$(find "$work/contents" -name libgstcudavision.so)"
echo "== the plugin, stripped: $(stat -c %s "$plugin") bytes"

echo "== installing them into a clean Debian 12 system"
chroot_make "$root" bookworm
mkdir -p "$root/tmp/debs"
cp "$work"/*.deb "$root/tmp/debs/"
package="$(basename "$work"/gstreamer1.0-cudavision_*.deb)"
chroot_install "$root" "/tmp/debs/$package" gstreamer1.0-tools \
  gstreamer1.0-plugins-base
chroot_run "$root" env GST_CUDAVISION_BACKEND=cpu bash -c '
  set -e
  gst-inspect-1.0 cudavision
  gst-inspect-1.0 cudafoveate | grep -q "Filename .*/lib/.*/gstreamer-1.0/libgstcudavision.so"
  cudavision-devices
  gst-launch-1.0 videotestsrc num-buffers=30 ! \
    video/x-raw,format=NV12,width=320,height=240 ! cudavisionupload ! \
    cudafoveate strength=2 ! cudaconvolve preset=gaussian5 ! \
    cudavisiondownload ! fakesink
  gst-launch-1.0 videotestsrc num-buffers=3 ! video/x-raw,format=GRAY8,width=96,height=64 ! \
    cudavisionupload ! cudaphasecorr post-messages=true ! cudavisiondownload ! fakesink'
echo "== the installed plugin runs"
