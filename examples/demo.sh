#!/usr/bin/env bash
# gst-cuda-vision. Copyright (C) 2026 The gst-cuda-vision authors.
# SPDX-License-Identifier: LGPL-2.1-or-later (GNU Lesser General Public
# License 2.1 or later, COPYING).
# Demo: a camera pan across a photograph (scikit-image's and imageio's
# astronaut, from Debian's python3-imageio) through every element, written
# as a labelled mosaic (out.png, its last frame) and a WebM clip (out.webm).
# Expects the plugin on GST_PLUGIN_PATH (scripts/quickstart.sh sets it).
# Usage: bash examples/demo.sh [out.png]   (DEMO_PHOTO=... for another photo)
set -euo pipefail
out="${1:-demo.png}"
photo="${DEMO_PHOTO:-/usr/lib/python3/dist-packages/imageio/resources/images/astronaut.png}"
python=python3
[ -x /usr/bin/python3 ] && python=/usr/bin/python3

"$python" "$(dirname "$0")/demo.py" "$photo" --png "$out" \
  --video "${out%.png}.webm"
echo "backend: ${GST_CUDAVISION_BACKEND:-cuda}"
