#!/usr/bin/env bash
# gst-cuda-vision. Copyright (C) 2026 The gst-cuda-vision authors.
# SPDX-License-Identifier: LGPL-2.1-or-later (GNU Lesser General Public
# License 2.1 or later, COPYING).
# An asymmetric retina with cudafoveate's blur-map: a horizontal visual
# streak, sharp along the horizon and blurring with height above or below
# it (and a little towards the sides), as hawks and kangaroos see. Writes
# the map as a PGM and runs a window whose fixation follows the mouse.
# Usage: bash examples/foveate-streak.sh [MAP.pgm] [--map-only]
set -euo pipefail

map="${1:-streak.pgm}"
width=256
height=128
{
  printf 'P5\n%d %d\n255\n' "$width" "$height"
  LC_ALL=C awk -v w="$width" -v h="$height" 'BEGIN {
    for (y = 0; y < h; y++)
      for (x = 0; x < w; x++) {
        dy = (y + 0.5 - h / 2) / (h / 2);   # -1 .. 1 from the horizon
        dx = (x + 0.5 - w / 2) / (w / 2);
        v = 255 * (0.9 * (dy < 0 ? -dy : dy) ^ 0.7 + 0.1 * dx * dx);
        printf "%c", (v > 255 ? 255 : int(v + 0.5));
      }
  }'
} > "$map"
echo "blur map: $map"
[ "${2:-}" = "--map-only" ] && exit 0

exec gst-launch-1.0 videotestsrc pattern=smpte ! \
  video/x-raw,format=RGBA,width=1280,height=720 ! cudaupload ! \
  cudafoveate blur-map="$map" follow-pointer=true fragment-size=16 ! \
  cudadownload ! videoconvert ! autovideosink
