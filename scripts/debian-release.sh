#!/usr/bin/env bash
# gst-cuda-vision. Copyright (C) 2026 The gst-cuda-vision authors.
# SPDX-License-Identifier: LGPL-2.1-or-later (GNU Lesser General Public
# License 2.1 or later, COPYING).
# gst-cuda-vision: builds the project in another Debian release and runs
# its CPU tests there.
#
#   bullseye  Debian 11, GStreamer 1.18 and GLib 2.66, the oldest the
#             plugin supports, with meson 0.61 (Ubuntu 22.04's) from PyPI;
#             the CUDA backend compiled (sm_75) with this machine's
#             toolkit at /usr/local/cuda where there is one
#   trixie    Debian 13, GStreamer 1.26, whose CUDA library carries a CUDA
#             stream on its memory (the code built for 1.24 and newer), and
#             Debian's own CUDA toolkit 12.4, the oldest nvcc the project
#             is compiled with (-Dcuda-arch=87, a Jetson Orin's)
#
# It makes the system in a folder (scripts/lib/debian-chroot.sh), installs
# the build dependencies there, copies the working tree's tracked files
# in, builds and tests them.
# Usage: bash scripts/debian-release.sh bullseye|trixie [folder]
#        (default folder: debian-RELEASE)
set -euo pipefail
cd "$(dirname "$0")/.."

suite="${1:-}"
case "$suite" in
  bullseye | trixie) ;;
  *)
    echo "usage: bash scripts/debian-release.sh bullseye|trixie [folder]" >&2
    exit 2
    ;;
esac
root="$(realpath -m "${2:-debian-$suite}")"
toolkit=/usr/local/cuda
. scripts/lib/debian-chroot.sh

packages=(ninja-build pkg-config gcc g++ libc6-dev libglib2.0-dev
  libgstreamer1.0-dev libgstreamer-plugins-base1.0-dev gstreamer1.0-tools
  gstreamer1.0-plugins-base gstreamer1.0-plugins-good)
setup_args=()
components=main
case "$suite" in
  bullseye)
    # Debian 11's meson (0.56) is older than the project's minimum
    packages+=(python3-pip)
    if [ -x "$toolkit/bin/nvcc" ]; then
      setup_args+=(-Dcuda=enabled -Dcuda-arch=75)
    else
      setup_args+=(-Dcuda=disabled)
    fi
    ;;
  trixie)
    # the CUDA library and its headers (which need GL's), and Debian's
    # CUDA toolkit from non-free
    packages+=(meson libgstreamer-plugins-bad1.0-dev libgl-dev
      gstreamer1.0-plugins-bad nvidia-cuda-toolkit)
    setup_args+=(-Dcuda=enabled -Dgst-cuda=enabled -Dcuda-arch=87)
    components="main contrib non-free"
    ;;
esac

chroot_make "$root" "$suite" "$components"
if [ "$suite" = bullseye ] && [ -x "$toolkit/bin/nvcc" ]; then
  chroot_bind "$toolkit" "$root$toolkit"
fi
echo "== installing the build dependencies in $root"
chroot_install "$root" "${packages[@]}"
if [ "$suite" = bullseye ]; then
  # fetched here, where pip is set up for this machine's network
  rm -rf "$root/tmp/wheels"
  python3 -m pip download -q --no-deps -d "$root/tmp/wheels" 'meson==0.61.*'
  chroot "$root" sh -c 'pip3 install -q --no-index /tmp/wheels/meson-*.whl'
fi

echo "== building and testing against GStreamer" \
  "$(chroot "$root" pkg-config --modversion gstreamer-1.0)"
chroot_copy_tree "$root"
# Python's bindings are not installed there: the python suite stays out
chroot_run "$root" env PATH="$toolkit/bin:/usr/local/bin:/usr/bin:/bin" bash -c '
  set -e
  cd /src
  meson setup build "$@"
  meson compile -C build
  grep HAVE_GST_CUDA build/config.h ||
    echo "== built without GStreamer'"'"'s CUDA library"
  meson test -C build --suite cpu --no-suite python --print-errorlogs \
    --num-processes 2' setup "${setup_args[@]}"
