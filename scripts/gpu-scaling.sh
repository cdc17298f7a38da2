#!/usr/bin/env bash
# gst-cuda-vision. Copyright (C) 2026 The gst-cuda-vision authors.
# SPDX-License-Identifier: LGPL-2.1-or-later (GNU Lesser General Public
# License 2.1 or later, COPYING).
# gst-cuda-vision: throughput of separate processes spread over the GPUs of
# one host. Each process is `cudavision-bench gpus --device D --pipelines
# P --case CASE`: P pipelines of 1080p RGBA from recycled pageable frames,
# transfer-bound (upload ! queue ! cudafoveate ! queue ! download) or
# compute-bound (four dense 31x31 cudaconvolve). The processes set up,
# then start timing together (--start-at), so that start-up does not count;
# their rates are summed. Prints a markdown table: for each process count,
# all on GPU 0 and spread over 2..N GPUs.
# Usage: gpu-scaling.sh [frames] [processes...]   (default 3000; 2 4 8)
# Env: CUDAVISION_BENCH (default build/tests/bench/cudavision-bench),
# GPU_SCALING_CASES (default "transfer compute"), GPU_SCALING_GPUS (the
# GPU counts to spread over, default 2 and every power of two up to
# nvidia-smi's count).
set -eu

frames="${1:-3000}"
shift || true
counts=("$@")
[ "${#counts[@]}" -gt 0 ] || counts=(2 4 8)
bench="${CUDAVISION_BENCH:-build/tests/bench/cudavision-bench}"
read -r -a cases <<<"${GPU_SCALING_CASES:-transfer compute}"
if [ -z "${GPU_SCALING_GPUS:-}" ]; then
  available=$(nvidia-smi -L | wc -l)
  GPU_SCALING_GPUS=""
  for ((n = 2; n <= available; n *= 2)); do GPU_SCALING_GPUS+="$n "; done
fi
read -r -a spreads <<<"1 $GPU_SCALING_GPUS"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# run CASE PROCESSES GPUS: prints the summed frames per second
run() {
  local case="$1" processes="$2" gpus="$3" start p
  rm -f "$work"/*.out
  # set-up (context, pools, kernels, first frame) takes up to a few seconds
  # a process; a late one would time itself alone and overstate the sum
  start=$(($(date +%s%6N) + 6000000 + processes * 500000))
  for ((p = 0; p < processes; p++)); do
    "$bench" gpus --device "$((p % gpus))" --pipelines 1 --case "$case" \
      --frames "$frames" --start-at "$start" >"$work/$p.out" 2>&1 &
  done
  if ! wait; then
    cat "$work"/*.out >&2
    return 1
  fi
  cat "$work"/*.out | awk '/^fps/ {sum += $2} END {printf "%.0f", sum}'
}

echo "| case | processes | GPUs | fps | against one GPU |"
echo "|---|---|---|---|---|"
for case in "${cases[@]}"; do
  for processes in "${counts[@]}"; do
    one=""
    for gpus in "${spreads[@]}"; do
      [ "$gpus" -le "$processes" ] || continue
      fps=$(run "$case" "$processes" "$gpus")
      [ -n "$one" ] || one="$fps"
      ratio=$(awk -v a="$fps" -v b="$one" 'BEGIN {printf "%.2f", a / b}')
      echo "| $case | $processes | $gpus | $fps | $ratio |"
    done
  done
done
