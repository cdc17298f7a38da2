#!/usr/bin/env bash
# gst-cuda-vision. Copyright (C) 2026 The gst-cuda-vision authors.
# SPDX-License-Identifier: LGPL-2.1-or-later (GNU Lesser General Public
# License 2.1 or later, COPYING).
# The elements between gst-plugins-bad's nvcodec elements, in
# memory:CUDAMemory: NVDEC decoders feeding them zero-copy, nvcodec's
# cudaupload and cudadownload around them, and whichever side makes the
# CUDA context first. Every check runs a pipeline that stays in CUDA memory
# and the same frames through system memory, and compares the two outputs
# byte for byte.
#
# Needs a CUDA device, nvcodec's nvh264dec and the x264enc encoder that
# makes the streams, and exits 77 (skipped) without them; the Main10 check
# also needs nvh265dec and x265enc. Usage: nvcodec-interop.sh [picture]
set -u

picture="${1:-$(dirname "$0")/../../docs/tonemap-night.jpg}"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
passed=0
failed=0

have() { gst-inspect-1.0 "$1" >/dev/null 2>&1; }

if [ "${GST_CUDAVISION_BACKEND:-cuda}" != cuda ]; then
  echo "skip: the CUDA backend is not selected"; exit 77
fi
for e in nvh264dec x264enc cudavisionupload; do
  have "$e" || { echo "skip: no element $e here"; exit 77; }
done
# the Main10 check needs these two
main10=true
have nvh265dec && have x265enc || main10=false

# A natural picture at a size that no pitch divides, a second of video.
source_pipeline() {
  echo "filesrc location=$picture ! jpegdec ! videoconvert ! videoscale !" \
    "video/x-raw,width=642,height=362 ! imagefreeze num-buffers=${2:-24} !" \
    "videoconvert ! video/x-raw,format=$1"
}

make_streams() {
  gst-launch-1.0 -q $(source_pipeline I420) ! x264enc ! h264parse ! \
    video/x-h264,stream-format=byte-stream ! \
    filesink location="$work/natural.h264" &&
  { ! $main10 || gst-launch-1.0 -q $(source_pipeline I420_10LE,colorimetry=bt2100-pq) ! \
    x265enc ! video/x-h265,profile=main-10 ! h265parse ! \
    video/x-h265,stream-format=byte-stream ! \
    filesink location="$work/natural-main10.h265"; }
}

# check NAME ZERO_COPY REFERENCE: both pipeline descriptions end in a
# format caps filter; their outputs must be equal and non-empty.
check() {
  local name="$1" a="$work/$1.a" b="$work/$1.b"

  if ! gst-launch-1.0 -q $2 ! filesink location="$a" >"$work/log" 2>&1; then
    echo "FAIL $name: zero-copy pipeline: $(tail -n 3 "$work/log")"
    failed=$((failed + 1)); return
  fi
  if ! gst-launch-1.0 -q $3 ! filesink location="$b" >"$work/log" 2>&1; then
    echo "FAIL $name: reference pipeline: $(tail -n 3 "$work/log")"
    failed=$((failed + 1)); return
  fi
  if [ ! -s "$a" ] || ! cmp -s "$a" "$b"; then
    echo "FAIL $name: outputs differ ($(stat -c %s "$a") and" \
      "$(stat -c %s "$b") bytes)"
    failed=$((failed + 1)); return
  fi
  echo "ok   $name ($(stat -c %s "$a") bytes equal)"
  passed=$((passed + 1))
}

make_streams || { echo "FAIL: cannot make the test streams"; exit 1; }

h264="filesrc location=$work/natural.h264 ! h264parse ! nvh264dec"
h265="filesrc location=$work/natural-main10.h265 ! h265parse ! nvh265dec"
to_host="cudadownload ! video/x-raw"
via_host="$to_host ! cudavisionupload"

# NVDEC straight into each element, out through nvcodec's cudadownload,
# against the decoded frames taken through system memory first.
for element in "cudafoveate strength=2" "cudaconvolve preset=sharpen" \
    "cudaphasecorr draw=true"; do
  check "nvh264dec-${element%% *}" \
    "$h264 ! $element ! $to_host,format=NV12" \
    "$h264 ! $via_host ! $element ! cudavisiondownload ! video/x-raw,format=NV12"
done
# an output format the CUDA allocator has no layout for leaves through ours
check nvh264dec-cudagabor \
  "$h264 ! cudagabor sigma=3 wavelength=8 gain=4 ! cudavisiondownload ! video/x-raw,format=GRAY8" \
  "$h264 ! $via_host ! cudagabor sigma=3 wavelength=8 gain=4 ! cudavisiondownload ! video/x-raw,format=GRAY8"
if $main10; then
  check nvh265dec-main10-cudatonemap \
    "$h265 ! cudatonemap ! $to_host,format=RGBA" \
    "$h265 ! $via_host ! cudatonemap ! cudavisiondownload ! video/x-raw,format=RGBA"
else
  echo "skip nvh265dec-main10-cudatonemap: no nvh265dec or x265enc"
fi
# two of ours in a row after the decoder
check nvh264dec-two-elements \
  "$h264 ! cudaconvolve preset=gaussian5 ! cudafoveate ! $to_host,format=NV12" \
  "$h264 ! $via_host ! cudaconvolve preset=gaussian5 ! cudafoveate ! cudavisiondownload ! video/x-raw,format=NV12"

# nvcodec's cudaupload and cudadownload around each element, against ours.
# Here our downstream element starts first, makes the context, and
# nvcodec's cudaupload adopts it; in the checks above the decoder made it.
rgba="videotestsrc num-buffers=12 pattern=smpte ! video/x-raw,format=RGBA,width=333,height=207"
for element in "cudafoveate strength=2" "cudaconvolve preset=sharpen" \
    "cudaclt operation=shift shift-x=0.5 shift-y=-0.25" \
    "cudagabor sigma=3 wavelength=8" "cudatonemap" "cudaphasecorr draw=true"; do
  check "nvcodec-transfer-${element%% *}" \
    "$rgba ! cudaupload ! $element ! cudadownload ! video/x-raw,format=RGBA" \
    "$rgba ! cudavisionupload ! $element ! cudavisiondownload ! video/x-raw,format=RGBA"
done
# ours upload into nvcodec's memory, theirs downloads
check ours-upload-nvcodec-download \
  "$rgba ! cudavisionupload ! video/x-raw(memory:CUDAMemory) ! cudafoveate ! cudadownload ! video/x-raw,format=RGBA" \
  "$rgba ! cudavisionupload ! cudafoveate ! cudavisiondownload ! video/x-raw,format=RGBA"
# CUDAMemory into our download, and from one memory into the other
check nvcodec-upload-ours-download \
  "$rgba ! cudaupload ! cudaconvolve preset=sharpen ! video/x-raw(memory:CUDAMemory) ! cudavisiondownload ! video/x-raw,format=RGBA" \
  "$rgba ! cudavisionupload ! cudaconvolve preset=sharpen ! cudavisiondownload ! video/x-raw,format=RGBA"
check memory-to-memory \
  "$rgba ! cudaupload ! cudavisionupload ! video/x-raw(memory:CUDAVisionMemory) ! cudavisiondownload ! video/x-raw(memory:CUDAMemory) ! cudadownload ! video/x-raw,format=RGBA" \
  "$rgba"

# Two GPUs: NVDEC on the second into our elements there, with device-id set
# and automatic (-1: the decoder's device, no second setting), and the
# decoded frames copied to the first GPU by a peer copy.
if have nvh264device1dec; then
  h264_second="filesrc location=$work/natural.h264 ! h264parse ! nvh264device1dec"
  for setting in "device-id=1" "device-id=-1"; do
    check "nvh264device1dec-cudafoveate-$setting" \
      "$h264_second ! cudafoveate strength=2 $setting ! cudavisiondownload $setting ! video/x-raw,format=NV12" \
      "$h264 ! $via_host ! cudafoveate strength=2 ! cudavisiondownload ! video/x-raw,format=NV12"
  done
  check nvh264device1dec-to-device-0 \
    "$h264_second ! cudafoveate strength=2 device-id=0 ! cudavisiondownload device-id=0 ! video/x-raw,format=NV12" \
    "$h264 ! $via_host ! cudafoveate strength=2 ! cudavisiondownload ! video/x-raw,format=NV12"
  check nvh264dec-tee-two-devices \
    "$h264 ! tee name=t ! queue ! cudafoveate strength=2 device-id=1 ! cudavisiondownload device-id=1 ! video/x-raw,format=NV12 ! fakesink t. ! queue ! cudaconvolve preset=sharpen ! cudavisiondownload ! video/x-raw,format=NV12" \
    "$h264 ! $via_host ! cudaconvolve preset=sharpen ! cudavisiondownload ! video/x-raw,format=NV12"
else
  echo "skip the second GPU's checks: no nvh264device1dec (one GPU)"
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
