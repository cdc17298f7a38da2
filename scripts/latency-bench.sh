#!/usr/bin/env bash
# gst-cuda-vision. Copyright (C) 2026 The gst-cuda-vision authors.
# SPDX-License-Identifier: LGPL-2.1-or-later (GNU Lesser General Public
# License 2.1 or later, COPYING).
# gst-cuda-vision: latency of each element in a live pipeline, from the
# source's pad to the sink's (GStreamer's latency tracer):
#   videotestsrc is-live=true ! caps ! cudavisionupload ! ELEMENT !
#   cudavisiondownload ! fakesink sync=true
# at 1080p60 and 4K30, in RGBA and NV12, next to the same pipeline without
# the element (the copies up and down) in the same run. Prints a markdown
# table of the median and 99th percentile in milliseconds, the first
# LATENCY_BENCH_SKIP frames (default 30) left out, with the sink's default
# processing deadline (20 ms); LATENCY_BENCH_NO_DEADLINE=1 adds columns
# with none.
#
# Next to each row, the floor it is held to, from the same run: the
# elements' device time (the filters time each frame's work with events
# where their debug level is INFO, and log the median at stop) plus the
# copies, as the copies-alone row measured them and as `cudavision-bench
# copies` (CUDAVISION_BENCH, default on PATH; left out where missing)
# measured one pinned round trip per frame at the row's rate, as the
# waiting host sees it. The device time comes from a run of its own: the
# timing events and the per-frame accounts cost the streaming threads
# time, which the latency columns would count.
#
# The sink holds each frame until its time plus the pipeline's latency,
# which counts its processing deadline, in the thread that pushed it.
# Behind a thread boundary (a queue, say)
# the next frame waits for that thread, and the tracer counts the wait;
# in one thread the source waits instead, before the tracer starts
# counting. Frames reach the display at the same time either way: the
# columns with no deadline show what the elements themselves take. LATENCY_BENCH_STREAMS=N
# runs N such pipelines at once, each its own process (or, with
# LATENCY_BENCH_ONE_PROCESS=1, all in one gst-launch-1.0, sharing one CUDA
# context), and pools their frames; LATENCY_BENCH_ELEMENTS, a ';'-separated list, picks the elements
# (an empty item: the copies alone); LATENCY_BENCH_SOURCE adds properties
# to the source, such as "horizontal-speed=3" for a moving pattern. Needs the plugin on GST_PLUGIN_PATH and a usable GPU (or
# GST_CUDAVISION_BACKEND=cpu, at a size and rate the CPU keeps up with:
# LATENCY_BENCH_SIZES="160x120@2", where the CPU reference's phase
# correlation takes about 0.3 s a frame on two cores).
# Where nvcodec's nvh264dec and x264enc are there, a second table takes
# frames from NVDEC: a 1080p60 H.264 clip (no B-frames), a file per
# frame pushed by multifilesrc, decoded by
# nvh264dec into the element, then cudadownload, into fakesink sync=true:
# the file's pad to the sink's, and the element's own time (the tracer's
# element latency, its sink pad to its source pad); LATENCY_BENCH_NVDEC=0
# leaves it out.
# Usage: latency-bench.sh [frames]   (default 300)
set -eu

frames="${1:-300}"
skip="${LATENCY_BENCH_SKIP:-30}"
streams="${LATENCY_BENCH_STREAMS:-1}"
one_process="${LATENCY_BENCH_ONE_PROCESS:-0}"
no_deadline="${LATENCY_BENCH_NO_DEADLINE:-0}"
bench="${CUDAVISION_BENCH:-cudavision-bench}"
# videotestsrc's pattern stands still by default; a moving one
# ("horizontal-speed=3") gives cudaphasecorr motion to measure
read -r -a source_properties <<<"${LATENCY_BENCH_SOURCE:-}"
read -r -a sizes <<<"${LATENCY_BENCH_SIZES:-1920x1080@60 3840x2160@30}"
read -r -a formats <<<"${LATENCY_BENCH_FORMATS:-RGBA NV12}"
IFS=';' read -r -a elements <<<"${LATENCY_BENCH_ELEMENTS:-;cudafoveate;\
cudaconvolve preset=gaussian5;\
cudaconvolve preset=gaussian5 ! cudafoveate ! cudagabor;\
cudaclt operation=shift shift-x=0.5;cudaphasecorr;cudagabor}"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Median and 99th percentile, in ms, of the latencies (ns) on stdin.
summarise() {
  sort -n | awk '{a[NR] = $1} END {
    if (NR == 0) { print "- | -"; exit }
    printf "%.3f | %.3f\n", a[int((NR + 1) / 2)] / 1e6,
      a[int(NR * 0.99 + 0.999)] / 1e6 }'
}

# One row: the element's pipelines, their source-to-sink latencies pooled;
# with @5 set, the filters' device time is measured too and left in
# $work/device-ms (the sum of the elements' medians, per pipeline).
measure() {
  local size="$1" format="$2" element="$3" deadline="$4" timed="${5:-}"
  local w h rate chain debug=GST_TRACER:7 s launches=1 chains=1
  w="${size%%x*}"
  h="${size#*x}"
  h="${h%@*}"
  rate="${size#*@}"
  [ -z "$timed" ] || debug="$debug,cudavisionbasetransform:4"
  chain="videotestsrc is-live=true num-buffers=$frames ${source_properties[*]} !
    video/x-raw,format=$format,width=$w,height=$h,framerate=$rate/1 !
    cudavisionupload ! ${element:+$element !} cudavisiondownload !
    fakesink sync=true processing-deadline=$deadline"
  if [ "$one_process" = 1 ]; then
    chains="$streams"
  else
    launches="$streams"
  fi
  for ((s = 0; s < launches; s++)); do
    # word splitting of the chains is gst-launch-1.0's own syntax
    # shellcheck disable=SC2046
    GST_TRACERS=latency GST_DEBUG="$debug" GST_DEBUG_NO_COLOR=1 \
      gst-launch-1.0 -q $(for ((c = 0; c < chains; c++)); do echo "$chain"; done) \
      >"$work/$s.log" 2>&1 &
  done
  wait
  for ((s = 0; s < launches; s++)); do
    if ! grep -q "latency, src-element-id" "$work/$s.log"; then
      echo "latency-bench: '$element' at $size $format ran no frame:" >&2
      grep -E "ERROR|WARN" "$work/$s.log" | head -n 3 >&2
      return 1
    fi
  done
  if [ -n "$timed" ]; then
    sed -n 's/.*device time of [0-9]* frames: median \([0-9.]*\) ms.*/\1/p' \
      "$work/0.log" | awk -v chains="$chains" '{sum += $1}
        END {if (NR == 0) print "-"; else printf "%.4f\n", sum / chains}' \
      >"$work/device-ms"
  fi
  for ((s = 0; s < launches; s++)); do
    grep -o "latency, src-element-id.*sink-element=(string)fakesink.*" \
      "$work/$s.log" | sed -n 's/.*time=(guint64)\([0-9]*\).*/\1/p' |
      awk -v chains="$chains" -v skip="$skip" '++n > skip * chains'
  done | summarise
}

# The paced pinned round trip of one frame (the host's view, ms) at @1
# (WxH@rate) in format @2, from `cudavision-bench copies`; "-" where the
# program or the size is missing.
dma_floor() {
  local size="$1" format="$2" name
  case "${size%@*}" in
    1920x1080) name=1080p ;;
    3840x2160) name=4k ;;
    *) echo - ; return ;;
  esac
  if ! command -v "$bench" >/dev/null; then
    echo -
    return
  fi
  "$bench" copies --sizes "$name" --rate "${size#*@}" --frames 200 |
    awk -F'|' -v f="$format" '$3 ~ " " f " " {gsub(/ /, "", $7); print $7}'
}

# @1 / @2 to two decimals, or "-".
ratio() {
  awk -v a="$1" -v b="$2" 'BEGIN {
    if (a == "-" || b == "-" || b == 0) print "-"; else printf "%.2f\n", a / b }'
}

if [ "$one_process" = 1 ]; then
  echo "$streams pipeline(s) at once in one process, $frames frames each, the first $skip left out"
else
  echo "$streams pipeline(s) at once, $frames frames each, the first $skip left out"
fi
echo
header="| size | format | element | median ms | p99 ms | p99 / median | device ms | floor: copies alone + device ms | ratio | floor: pinned round trip + device ms | ratio |"
rule="|---|---|---|---|---|---|---|---|---|---|---|"
if [ "$no_deadline" = 1 ]; then
  header="$header no deadline: median ms | p99 ms |"
  rule="$rule---|---|"
fi
echo "$header"
echo "$rule"
for size in "${sizes[@]}"; do
  for format in "${formats[@]}"; do
    dma=$(dma_floor "$size" "$format")
    copies=-
    for element in "${elements[@]}"; do
      # "-" for an element that times no device work of its own
      # (cudaphasecorr): no floor for it
      device=0
      if [ -n "$element" ]; then
        device=-
        measure "$size" "$format" "$element" 20000000 timed >/dev/null || true
        [ ! -s "$work/device-ms" ] || device=$(cat "$work/device-ms")
        rm -f "$work/device-ms"
      fi
      row=$(measure "$size" "$format" "$element" 20000000) || row="- | -"
      bare=
      if [ "$no_deadline" = 1 ]; then
        bare=$(measure "$size" "$format" "$element" 0) || bare="- | -"
        bare=" $bare |"
      fi
      median="${row%% |*}"
      p99="${row##*| }"
      [ -n "$element" ] || copies="$median"
      floor=$(awk -v c="$copies" -v d="$device" 'BEGIN {
        if (c == "-" || d == "-") print "-"; else printf "%.3f\n", c + d }')
      dma_total=$(awk -v c="$dma" -v d="$device" 'BEGIN {
        if (c == "-" || d == "-") print "-"; else printf "%.3f\n", c + d }')
      echo "| $size | $format | ${element:-(copies alone)} | $row | $(ratio "$p99" "$median") | $device | $floor | $(ratio "$median" "$floor") | $dma_total | $(ratio "$median" "$dma_total") |$bare"
    done
  done
done

[ "${LATENCY_BENCH_NVDEC:-1}" = 1 ] || exit 0
gst-inspect-1.0 --exists nvh264dec && gst-inspect-1.0 --exists x264enc || exit 0

# Median and 99th percentile of the tracer's @1 records whose fields
# match @2, from @3.
records() {
  grep -o "$1, .*" "$3" | grep -E "$2" |
    sed -n 's/.*time=(guint64)\([0-9]*\).*/\1/p' | tail -n +"$((skip + 1))" |
    summarise
}

# One file per frame, which multifilesrc pushes one at a time: the tracer
# times from each push of a source, and a filesrc pushing blocks of the
# stream ahead leaves most frames without a record of their own.
mkdir "$work/clip"
gst-launch-1.0 -q videotestsrc num-buffers="$frames" pattern=ball ! \
  video/x-raw,format=I420,width=1920,height=1080,framerate=60/1 ! \
  x264enc tune=zerolatency speed-preset=ultrafast key-int-max=60 ! \
  video/x-h264,stream-format=byte-stream,alignment=au ! \
  multifilesink location="$work/clip/%05d.h264"
echo
echo "From NVDEC, 1920x1080@60 NV12: multifilesrc (a frame per file) ! h264parse ! nvh264dec !"
echo "ELEMENT ! cudadownload ! fakesink sync=true"
echo
echo "| element | file to sink: median ms | p99 ms | element alone: median ms | p99 ms |"
echo "|---|---|---|---|---|"
for element in "${elements[@]}"; do
  # single elements only: the tracer times one element
  [[ "$element" != *"!"* ]] || continue
  GST_TRACERS="latency(flags=pipeline+element)" GST_DEBUG=GST_TRACER:7 \
    GST_DEBUG_NO_COLOR=1 gst-launch-1.0 -q multifilesrc location="$work/clip/%05d.h264" \
    caps=video/x-h264,stream-format=byte-stream,alignment=au,framerate=60/1 ! \
    h264parse ! nvh264dec ! ${element:+$element name=measured !} cudadownload ! \
    fakesink sync=true >"$work/nvdec.log" 2>&1 || true
  echo "| ${element:-(decoder and download alone)} | $(records latency 'sink-element=\(string\)fakesink' \
    "$work/nvdec.log") | $(records element-latency \
    'element=\(string\)measured,' "$work/nvdec.log") |"
done
