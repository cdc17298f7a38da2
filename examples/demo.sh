#!/usr/bin/env bash
# Demo pipeline: a test pattern goes to the GPU, is sharpened there, comes
# back and is written to a PNG. Expects the plugin on GST_PLUGIN_PATH
# (tools/quickstart.sh sets it).
# Usage: bash examples/demo.sh [out.png]
set -euo pipefail
out="${1:-demo.png}"

gst-launch-1.0 -q videotestsrc num-buffers=1 pattern=smpte ! \
  video/x-raw,format=RGBA,width=1280,height=720 ! \
  cudaupload ! cudaconvolve preset=sharpen ! cudadownload ! pngenc ! \
  filesink location="$out"
echo "wrote $out (backend: ${GST_CUDAVISION_BACKEND:-cuda})"
