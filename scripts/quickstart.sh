#!/usr/bin/env bash
# gst-cuda-vision. Copyright (C) 2026 The gst-cuda-vision authors.
# SPDX-License-Identifier: LGPL-2.1-or-later (GNU Lesser General Public
# License 2.1 or later, COPYING).
# Sets up a Debian 12 machine for gst-cuda-vision, builds it, and then
#   demo: runs the demo, which writes demo.png and demo.webm
#   test: runs the test suites (CPU backend everywhere, CUDA where a GPU is)
# Usage: bash scripts/quickstart.sh demo|test
set -euo pipefail

cd "$(dirname "$0")/.."
what="${1:-}"
case "$what" in
  demo|test) ;;
  *) echo "usage: bash scripts/quickstart.sh demo|test" >&2; exit 2 ;;
esac

packages=(
  meson ninja-build pkg-config gcc libc6-dev
  libglib2.0-dev libgstreamer1.0-dev libgstreamer-plugins-base1.0-dev
  gstreamer1.0-tools gstreamer1.0-plugins-base gstreamer1.0-plugins-good
)
# PyGObject with numpy for the Python examples and the demo, which run as
# tests too; the demo's photograph (python3-imageio), its labels
# (textoverlay, gstreamer1.0-x) and the streaming example's x264enc
# (gstreamer1.0-plugins-ugly); for the tests, valgrind and the formatters
# that scripts/format.sh checks with
packages+=(python3-gi gir1.2-gst-plugins-base-1.0 python3-numpy
  python3-imageio gstreamer1.0-x gstreamer1.0-plugins-ugly)
[ "$what" = test ] && packages+=(valgrind indent clang-format)
# The CUDA backend is built when the toolkit is there (nvcc 13 at
# /usr/local/cuda); without it only the CPU reference backend is. With it,
# gst-plugins-bad's CUDA library, for memory:CUDAMemory (its headers need
# the toolkit's cuda.h and GL's headers).
if ! command -v nvcc >/dev/null && [ -x /usr/local/cuda/bin/nvcc ]; then
  export PATH="/usr/local/cuda/bin:$PATH"
fi
if command -v nvcc >/dev/null; then
  packages+=(libgstreamer-plugins-bad1.0-dev libgl-dev gstreamer1.0-plugins-bad)
fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" \
    || missing+=("$p")
done
if [ "${#missing[@]}" -gt 0 ]; then
  echo "== installing: ${missing[*]}"
  sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  $sudo apt-get update -q
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

build="${BUILD_DIR:-build}"
if [ ! -f "$build/build.ninja" ]; then
  meson setup "$build" ${CUDA_ARCH:+-Dcuda-arch=$CUDA_ARCH}
fi
meson compile -C "$build"

if [ "$what" = test ]; then
  echo "== formatting"
  bash scripts/format.sh --check
  # Suite 'cpu' runs everywhere; suite 'gpu' skips itself without a device.
  meson test -C "$build" --print-errorlogs --num-processes 2
  echo "== valgrind, CPU backend"
  exec meson test -C "$build" --setup valgrind --suite cpu --no-suite bench \
    --no-suite python \
    --print-errorlogs --num-processes 2
fi

# The demo runs against the uninstalled plugin, on CUDA when a device opens.
export GST_PLUGIN_PATH="$PWD/$build/gst${GST_PLUGIN_PATH:+:$GST_PLUGIN_PATH}"
if [ -z "${GST_CUDAVISION_BACKEND:-}" ]; then
  if "$build/tools/cudavision-devices" --check >/dev/null 2>&1; then
    export GST_CUDAVISION_BACKEND=cuda
  else
    echo "== no usable CUDA device here: the demo uses the CPU reference backend"
    export GST_CUDAVISION_BACKEND=cpu
  fi
fi
exec bash examples/demo.sh demo.png
