#!/usr/bin/env python3
# gst-cuda-vision. Copyright (C) 2026 The gst-cuda-vision authors.
# SPDX-License-Identifier: LGPL-2.1-or-later (GNU Lesser General Public
# License 2.1 or later, COPYING).
"""The convolution table with every peer measured in one run.

Runs `cudavision-bench convolve` (ours, NPP's nppiFilterBorder and the copy
floor), then times NVIDIA CV-CUDA's conv2d on the same device, frame
sizes, formats and taps (the bench's own, normalised by their sum, border
REPLICATE as ours clamps), and prints one table with the best peer of each
row against ours.

CV-CUDA is timed as the bench times its rows: the median of 21 samples,
each 20 runs queued back to back behind a wait on the device, so that
Python's cost of queueing a call does not count.

Needs PyTorch with CUDA and CV-CUDA (pip install cvcuda-cu12).

  python3 scripts/convolve-peers.py [--bench PATH] [--sizes 1080p,4k]
"""
import argparse
import os
import subprocess
import sys

import torch
import cvcuda

SIZES = {"1080p": (1920, 1080), "4k": (3840, 2160)}


def bench_taps(size, kind):
    """The taps of cudavision-bench's bench_taps(), row by row."""
    x = 99
    taps = []
    for j in range(size):
        for i in range(size):
            x = (x * 1664525 + 1013904223) & 0xFFFFFFFF
            if kind == "rank-1":
                taps.append(float(((i % 5) + 1) * ((j % 3) + 1)))
            elif kind == "dense":
                taps.append(float((x >> 28) + 1))
            else:
                taps.append((x >> 22) / 1000.0 + 0.01)
    return taps


def cycles_per_ms(stream):
    """The clock torch.cuda._sleep() counts, measured."""
    start = torch.cuda.Event(enable_timing=True)
    end = torch.cuda.Event(enable_timing=True)
    with torch.cuda.stream(stream):
        torch.cuda._sleep(1000)
        start.record()
        torch.cuda._sleep(20_000_000)
        end.record()
    end.synchronize()
    return 20_000_000 / start.elapsed_time(end)


def time_median_ms(stream, clock, work, reps=21, batch=20):
    """Median ms of one run of work(), as the bench's time_median_ms()."""
    start = torch.cuda.Event(enable_timing=True)
    end = torch.cuda.Event(enable_timing=True)
    hold_ms, times = 0.5, []
    while len(times) < reps + 2:
        with torch.cuda.stream(stream):
            torch.cuda._sleep(int(hold_ms * clock))
            start.record()
            for _ in range(batch):
                work()
            end.record()
        queued_in_time = not start.query()
        end.synchronize()
        if not queued_in_time and hold_ms < 16.0:
            hold_ms *= 2.0
            continue
        times.append(start.elapsed_time(end) / batch)
    times = sorted(times[2:])
    return times[len(times) // 2]


class CvCudaConvolution:
    """cvcuda.conv2d_into on one frame of the bench's size and format."""

    def __init__(self, width, height, channels, stream):
        shape = (height, width, channels) if channels > 1 else (height, width)
        fmt = cvcuda.Format.RGBA8 if channels == 4 else cvcuda.Format.U8
        self.src = torch.full(shape, 0x40, dtype=torch.uint8, device="cuda")
        self.dst = torch.zeros(shape, dtype=torch.uint8, device="cuda")
        self.src_batch = cvcuda.ImageBatchVarShape(1)
        self.src_batch.pushback(cvcuda.as_image(self.src, fmt))
        self.dst_batch = cvcuda.ImageBatchVarShape(1)
        self.dst_batch.pushback(cvcuda.as_image(self.dst, fmt))
        self.stream = cvcuda.as_stream(stream)

    def set_taps(self, taps, size):
        total = sum(taps)
        self.kernel = torch.tensor([t / total for t in taps],
                                   dtype=torch.float32,
                                   device="cuda").reshape(size, size)
        self.kernel_batch = cvcuda.ImageBatchVarShape(1)
        self.kernel_batch.pushback(
            cvcuda.as_image(self.kernel, cvcuda.Format.F32))
        self.anchor = cvcuda.as_tensor(
            torch.tensor([[size // 2, size // 2]], dtype=torch.int32,
                         device="cuda"), "NC")

    def run(self):
        cvcuda.conv2d_into(self.dst_batch, self.src_batch, self.kernel_batch,
                           self.anchor, cvcuda.Border.REPLICATE,
                           stream=self.stream)

    def check(self):
        """A flat frame stays flat under normalised taps: CV-CUDA ran."""
        torch.cuda.synchronize()
        low, high = int(self.dst.min()), int(self.dst.max())
        if low < 0x3F or high > 0x41:
            sys.exit(f"CV-CUDA's output of a flat 0x40 frame spans "
                     f"{low:#x} to {high:#x}")


def bench_rows(bench, sizes):
    """The bench's convolve rows, as dicts, echoed as they come."""
    proc = subprocess.run([bench, "convolve", "--sizes", sizes],
                          check=True, capture_output=True, text=True)
    sys.stderr.write(proc.stderr)
    rows = []
    for line in proc.stdout.splitlines():
        print(line)
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 9 or cells[0] not in SIZES:
            continue
        rows.append({"size": cells[0], "format": cells[1],
                     "kernel": int(cells[2].split("x")[0]),
                     "taps": cells[3], "ms": float(cells[4]),
                     "npp_ms": None if cells[5] == "-" else float(cells[5])})
    if not rows:
        sys.exit("cudavision-bench printed no convolve rows")
    return rows


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--bench", default=os.path.join(
        here, "..", "build", "tests", "bench", "cudavision-bench"),
        help="the cudavision-bench program")
    parser.add_argument("--sizes", default="1080p,4k",
                        help="frame sizes, as cudavision-bench takes them")
    args = parser.parse_args()

    rows = bench_rows(args.bench, args.sizes)
    stream = torch.cuda.Stream()
    clock = cycles_per_ms(stream)
    frames = {}
    print(f"\nCV-CUDA {cvcuda.__version__} beside the rows above, on "
          f"{torch.cuda.get_device_name()}:\n")
    print("| size | format | kernel | taps | ours ms | NPP ms | CV-CUDA ms "
          "| best peer | best peer / ours |")
    print("|---|---|---|---|---|---|---|---|---|")
    for row in rows:
        key = (row["size"], row["format"])
        if key not in frames:
            width, height = SIZES[row["size"]]
            frames[key] = CvCudaConvolution(
                width, height, 4 if row["format"] == "RGBA" else 1, stream)
        conv = frames[key]
        conv.set_taps(bench_taps(row["kernel"], row["taps"]), row["kernel"])
        cvcuda_ms = time_median_ms(stream, clock, conv.run)
        conv.check()
        peers = [(cvcuda_ms, "CV-CUDA")]
        if row["npp_ms"] is not None:
            peers.append((row["npp_ms"], "NPP"))
        best_ms, best = min(peers)
        npp = "-" if row["npp_ms"] is None else f"{row['npp_ms']:.4f}"
        print(f"| {row['size']} | {row['format']} | {row['kernel']}x"
              f"{row['kernel']} | {row['taps']} | {row['ms']:.4f} | {npp} | "
              f"{cvcuda_ms:.4f} | {best} | {best_ms / row['ms']:.2f} |",
              flush=True)


if __name__ == "__main__":
    main()
