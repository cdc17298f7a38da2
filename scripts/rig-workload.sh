#!/usr/bin/env bash
# gst-cuda-vision. Copyright (C) 2026 The gst-cuda-vision authors.
# SPDX-License-Identifier: LGPL-2.1-or-later (GNU Lesser General Public
# License 2.1 or later, COPYING).
# gst-cuda-vision: the tile processor's quad-camera workload in one
# pipeline. A photograph seen by the square quad as a plane at
# RIG_DISPARITY pixels per baseline (default 4: each view cropped from one
# frame, moved by the disparity times its camera's offset), made into four
# RGGB mosaics of the given size (default the seed's 2592x1936); each
# deconvolved by cudaclt with its own lens's kernel set (Gaussian blur
# growing towards the corners, a little more for each camera, per colour;
# made by cudavision-clt-kernels) to a grey picture of its green (what
# matching takes of RGB, and the cheaper grey); then the six pairs
# correlated and combined per tile by cudaphasecorr mode=rig. Prints the
# frames and the time the pipeline took, and the median of the frames'
# disparity (motion-dx), which should read the plane's.
#
# The four mosaics are made once on the host, into files that
# multifilesrc reads again for every frame; every frame is then uploaded,
# deconvolved and matched. A queue before each of the rig's pads lets a
# camera's thread read and upload its next frame while the rig matches.
# The time printed is the pipeline's alone.
# Needs the plugin on GST_PLUGIN_PATH and cudavision-clt-kernels on PATH
# or in CLT_KERNELS; GST_CUDAVISION_BACKEND=cpu runs it on the CPU
# reference (slowly: use a small size there).
# Usage: rig-workload.sh [WIDTHxHEIGHT] [frames] [photograph]
set -eu

size="${1:-2592x1936}"
frames="${2:-30}"
photo="${3:-$(dirname "$0")/../docs/tonemap-night.jpg}"
disparity="${RIG_DISPARITY:-4}"
kernels="${CLT_KERNELS:-cudavision-clt-kernels}"
width="${size%x*}"
height="${size#*x}"
case "$width$height$frames$disparity" in
  *[!0-9]*) echo "rig-workload: size WxH, frames and RIG_DISPARITY are" \
    "whole numbers" >&2; exit 2 ;;
esac
if [ "$width" -lt 64 ] || [ "$height" -lt 64 ] || [ "$width" -gt 8192 ] \
  || [ "$height" -gt 8192 ] || [ "$frames" -lt 1 ] \
  || [ "$disparity" -gt 64 ]; then
  echo "rig-workload: size 64 to 8192 each way, 1 frame or more," \
    "disparity up to 64" >&2
  exit 2
fi
[ -r "$photo" ] || { echo "rig-workload: cannot read $photo" >&2; exit 1; }
if ! gst-inspect-1.0 --exists rgb2bayer; then
  echo "rig-workload: needs rgb2bayer (gst-plugins-bad)" >&2
  exit 77
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# room around the views for their moves
margin=$((disparity + 8))
full_width=$((width + 2 * margin)) full_height=$((height + 2 * margin))
# the square quad: camera v at (v % 2, v / 2)
branches=""
for v in 0 1 2 3; do
  cx=$((v % 2)) cy=$((v / 2))
  # view v shows at q what view 0 shows at q + disparity * (cx, cy)
  left=$((disparity + cx * disparity)) top=$((disparity + cy * disparity))
  right=$((2 * margin - left)) bottom=$((2 * margin - top))
  "$kernels" --width "$width" --height "$height" \
    --gaussian "1.0,1.$((4 + v))" --colour-scales 1.1,1,0.9 \
    --output "$work/camera$v.kernels" >/dev/null
  # the camera's mosaic, made once
  gst-launch-1.0 -q filesrc location="$photo" ! decodebin ! videoconvert ! \
    videoscale ! \
    video/x-raw,format=ARGB,width=$full_width,height=$full_height ! \
    videocrop left=$left top=$top right=$right bottom=$bottom ! rgb2bayer ! \
    video/x-bayer,format=rggb ! filesink location="$work/camera$v.raw" \
    >"$work/log" 2>&1 || { tail -20 "$work/log" >&2; exit 1; }
  # a frame every 1/30 s of stream time: identity stamps each by its bytes
  rate=$(($(stat -c %s "$work/camera$v.raw") * 30))
  pad=$([ $v = 0 ] && echo sink || echo "sink_$v")
  branches="$branches multifilesrc location=$work/camera$v.raw loop=true \
    num-buffers=$frames caps=video/x-bayer,format=rggb,width=$width,\
height=$height,framerate=30/1 ! identity datarate=$rate ! \
    cudavisionupload ! cudaclt operation=deconvolve mosaic-grey=green \
    kernels-location=$work/camera$v.kernels ! \
    video/x-raw(memory:CUDAVisionMemory),format=GRAY8 ! \
    queue max-size-buffers=2 ! rig.$pad"
done
start=$(date +%s.%N)
# shellcheck disable=SC2086
gst-launch-1.0 -m $branches cudaphasecorr name=rig mode=rig min-disparity=0 \
  max-disparity=16 post-messages=true ! fakesink >"$work/log" 2>&1 || {
  tail -20 "$work/log" >&2
  exit 1
}
end=$(date +%s.%N)
grep -o 'motion-dx=(double)[-0-9.e]*' "$work/log" | sed 's/.*)//' |
  sort -g | awk -v frames="$frames" -v start="$start" -v end="$end" \
    -v size="$size" -v d="$disparity" '
  { v[NR] = $1 }
  END {
    if (NR != frames) {
      printf "rig-workload: %d frames matched of %d\n", NR, frames
      exit 1
    }
    printf "%d frames of four %s mosaics: %.2f s in all; median " \
      "disparity %.3f (the plane: %d)\n", NR, size, end - start,
      v[int ((NR + 1) / 2)], d
  }'
