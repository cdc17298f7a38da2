#!/usr/bin/env bash
# gst-cuda-vision. Copyright (C) 2026 The gst-cuda-vision authors.
# SPDX-License-Identifier: LGPL-2.1-or-later (GNU Lesser General Public
# License 2.1 or later, COPYING).
# Concurrent NVDEC streams into cudafoveate: aggregate frames per second and
# host CPU seconds for decoding alone (frames stay in CUDA memory), for
# decoding into the element zero-copy, with and without nvcodec's download
# to the host after it, and for the host round trip that was the only way
# before the elements took memory:CUDAMemory. Each stream is its own
# gst-launch-1.0 process, start-up included; with INTEROP_BENCH_PROCESSES=one
# the streams are branches of one pipeline in one process instead, so that
# they share one CUDA context. The peer is nvcodec's own CUDA filter,
# cudaconvert (NV12 to I420, the same bytes), between decoder and download.
# INTEROP_BENCH_REPEAT=N runs every row N times, the modes interleaved, and
# prints the means; INTEROP_BENCH_MODES names the modes to run (all of
# those below by default); INTEROP_BENCH_4K=no leaves out the 4K row.
# Needs nvcodec's nvh264dec and x264enc, and cudaconvert for the peer's
# column (left out, with a message, without it). Prints a markdown table.
# Usage: interop-bench.sh [frames] [streams...]   (default 3000; 1 4 8)
set -eu

frames="${1:-3000}"
shift || true
counts=("$@")
[ "${#counts[@]}" -gt 0 ] || counts=(1 4 8)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Moving colour bars at a fixed bit rate: every frame costs the decoder.
make_stream() {
  gst-launch-1.0 -q videotestsrc num-buffers="$frames" pattern=smpte \
    horizontal-speed=4 ! \
    "video/x-raw,format=I420,width=$1,height=$2,framerate=60/1" ! \
    x264enc speed-preset=ultrafast bitrate=$3 key-int-max=120 ! h264parse ! \
    video/x-h264,stream-format=byte-stream ! filesink location="$work/$1.h264"
}

# The modes, and where the frames end: decoding alone and into the element
# with the frames left in CUDA memory, and each with a download to the
# host by nvcodec's cudadownload; nvcodec's own filter in the element's
# place; the host round trip.
read -r -a modes <<<"${INTEROP_BENCH_MODES:-decode foveate-in-cuda download \
zero-copy nvcodec-filter host-round-trip}"
declare -A labels=() tails=()
# define_mode MODE LABEL TAIL: the table's column and where the frames go
define_mode() { labels[$1]="$2"; tails[$1]="$3"; }
define_mode decode "decode alone" "fakesink"
define_mode foveate-in-cuda "decode ! cudafoveate" "cudafoveate ! fakesink"
define_mode download "decode ! cudadownload" "cudadownload ! fakesink"
define_mode zero-copy "decode ! cudafoveate ! cudadownload (zero-copy)" \
  "cudafoveate ! cudadownload ! fakesink"
define_mode nvcodec-filter \
  "decode ! cudaconvert ! cudadownload (nvcodec's filter)" \
  "cudaconvert ! video/x-raw(memory:CUDAMemory),format=I420 ! cudadownload ! fakesink"
define_mode host-round-trip "host round trip" \
  "cudadownload ! cudavisionupload ! cudafoveate ! cudavisiondownload ! fakesink"

# run STREAM_FILE COUNT TAIL: prints "fps cpu_seconds"
run() {
  local file="$1" count="$2" tail="$3" start end
  local branch="filesrc location=$file ! h264parse ! nvh264dec ! $tail sync=false"
  start=$(date +%s.%N)
  if ! (
    failed=0
    if [ "${INTEROP_BENCH_PROCESSES:-}" = one ]; then
      # shellcheck disable=SC2046
      timeout 300 gst-launch-1.0 -q $(for _ in $(seq "$count"); do
        echo "$branch"; done) >/dev/null || failed=1
    else
      pids=()
      for _ in $(seq "$count"); do
        # shellcheck disable=SC2086
        timeout 300 gst-launch-1.0 -q $branch >/dev/null &
        pids+=($!)
      done
      for pid in "${pids[@]}"; do wait "$pid" || failed=1; done
    fi
    # the second line: the processes this subshell waited for
    times >"$work/times"
    exit "$failed"
  ); then
    echo "interop-bench: a pipeline failed: $branch" >&2
    exit 1
  fi
  end=$(date +%s.%N)
  # children's user and system time, as "0m1.234s 0m0.567s"
  awk -v n="$count" -v f="$frames" -v s="$start" -v e="$end" 'NR == 2 {
    split($1, u, /[ms]/); split($2, y, /[ms]/);
    printf "%.0f %.2f\n", n * f / (e - s), u[1] * 60 + u[2] + y[1] * 60 + y[2]
  }' "$work/times"
}

for element in nvh264dec x264enc; do
  gst-inspect-1.0 "$element" >/dev/null 2>&1 ||
    { echo "interop-bench: no element $element here" >&2; exit 2; }
done
if [[ " ${modes[*]} " == *" nvcodec-filter "* ]] &&
  ! gst-inspect-1.0 cudaconvert >/dev/null 2>&1; then
  echo "interop-bench: no cudaconvert here (nvcodec 1.22 registers it only" \
    "with an NVRTC that offers compute_52: name one in" \
    "GST_CUDA_NVRTC_LIBNAME); leaving out nvcodec-filter" >&2
  read -r -a modes <<<"${modes[*]/nvcodec-filter/}"
fi
header="| streams | size |"
rule="|---|---|"
for mode in "${modes[@]}"; do
  [ -n "${tails[$mode]:-}" ] ||
    { echo "interop-bench: unknown mode $mode" >&2; exit 2; }
  header="$header ${labels[$mode]} |"
  rule="$rule---|"
done
make_stream 1920 1080 8000
echo "$header"
echo "$rule"
# add A B: their sum, in floating point
add() { awk -v a="$1" -v b="$2" 'BEGIN { print a + b }'; }
row() {
  local count="$1" size="$2" line="| $1 | $2 |" repeat mode result
  local -A fps_sum=() cpu_sum=()
  repeat="${INTEROP_BENCH_REPEAT:-1}"
  for _ in $(seq "$repeat"); do
    for mode in "${modes[@]}"; do
      result=$(run "$work/${size%x*}.h264" "$count" "${tails[$mode]}") ||
        exit 1
      read -r fps cpu <<<"$result"
      fps_sum[$mode]=$(add "${fps_sum[$mode]:-0}" "$fps")
      cpu_sum[$mode]=$(add "${cpu_sum[$mode]:-0}" "$cpu")
    done
  done
  for mode in "${modes[@]}"; do
    line="$line $(awk -v f="${fps_sum[$mode]}" -v c="${cpu_sum[$mode]}" \
      -v n="$repeat" 'BEGIN { printf "%.0f fps, %.2f CPU s", f / n, c / n }') |"
  done
  echo "$line"
}
for count in "${counts[@]}"; do
  row "$count" 1920x1080
done
[ "${INTEROP_BENCH_4K:-yes}" = no ] && exit 0
make_stream 3840 2160 30000
row 1 3840x2160
