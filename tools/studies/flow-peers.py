#!/usr/bin/env python3
# gst-cuda-vision. Copyright (C) 2026 The gst-cuda-vision authors.
# SPDX-License-Identifier: LGPL-2.1-or-later (GNU Lesser General Public
# License 2.1 or later, COPYING).
"""OpenCV's matchers on the frames and truth that `flow-quality --dump DIR`
writes, with the same statistics, for docs/benchmarks/clt.md:

  - cv2.phaseCorrelate on each 16x16 tile (Hanning window), and on 32x32
    windows around the same centres;
  - cv2.DISOpticalFlow (medium preset), dense flow sampled at tile centres;
  - cv2.StereoSGBM on the stereo case (block 5, 80 disparities).

Each is measured over every tile where both frames hold its content, and
over those of them that cudaphasecorr's default threshold (confidence
0.05) keeps, which are the tiles its own figures count; and ours over
those too.

Usage: python3 tools/studies/flow-peers.py DIR
"""
import glob
import os
import sys
import time

import cv2
import numpy as np


def load(path, w, h):
    return np.fromfile(path, dtype=np.uint8).reshape(h, w)


def stats(errors, worst=True):
    """Median, 95th percentile and (with @worst) largest error, as table
    cells."""
    e = np.sort(np.asarray(errors))
    cells = ["-"] * (3 if worst else 2)
    if e.size:
        cells = ["%.3f" % v for v in (np.median(e), e[int(0.95 * (e.size - 1))], e[-1])]
    return " | ".join(cells[:3 if worst else 2])


def tile_window(frame, cx, cy, half):
    return frame[cy - half:cy + half, cx - half:cx + half].astype(np.float64)


def main():
    folder = sys.argv[1]
    w, h = (int(v) for v in open(os.path.join(folder, "size")).read().split())
    print("| image | motion | method | median px | 95th percentile px | worst px | ms "
          "| kept tiles: median px | 95th percentile px |")
    print("|---|---|---|---|---|---|---|---|---|")
    for truth_path in sorted(glob.glob(os.path.join(folder, "*.truth"))):
        name = os.path.basename(truth_path)[:-len(".truth")]
        image, case = name.split("-")
        a = load(os.path.join(folder, image + ".a.gray"), w, h)
        b = load(os.path.join(folder, name + ".b.gray"), w, h)
        rows = np.loadtxt(truth_path)
        rows = rows[rows[:, 4] > 0]
        centres = [(int(8 * tx), int(8 * ty)) for tx, ty in rows[:, :2]]
        truth = rows[:, 2:4]
        kept = rows[:, 7] >= 0.05
        results = {"ours": (np.hypot(rows[:, 5] - truth[:, 0], rows[:, 6] - truth[:, 1]),
                            None)}
        for half, label in ((8, "phaseCorrelate 16x16"), (16, "phaseCorrelate 32x32")):
            window = cv2.createHanningWindow((2 * half, 2 * half), cv2.CV_64F)
            start = time.perf_counter()
            errors = []
            for (cx, cy), t in zip(centres, truth):
                if cx - half < 0 or cy - half < 0 or cx + half > w or cy + half > h:
                    errors.append(np.nan)
                    continue
                (dx, dy), _ = cv2.phaseCorrelate(tile_window(a, cx, cy, half),
                                                 tile_window(b, cx, cy, half), window)
                errors.append(np.hypot(dx - t[0], dy - t[1]))
            results[label] = (errors, time.perf_counter() - start)
        dis = cv2.DISOpticalFlow_create(cv2.DISOPTICAL_FLOW_PRESET_MEDIUM)
        start = time.perf_counter()
        flow = dis.calc(a, b, None)
        elapsed = time.perf_counter() - start
        # the tile centre 8 tx - 1/2 lies between pixels 8 tx - 1 and 8 tx
        errors = [np.hypot(*(flow[cy - 1:cy + 1, cx - 1:cx + 1].reshape(-1, 2).mean(0) - t))
                  for (cx, cy), t in zip(centres, truth)]
        results["DISOpticalFlow medium"] = (errors, elapsed)
        if int(case) == 10:
            sgbm = cv2.StereoSGBM_create(minDisparity=0, numDisparities=80, blockSize=5,
                                         P1=8 * 25, P2=32 * 25, mode=cv2.STEREO_SGBM_MODE_HH)
            start = time.perf_counter()
            disparity = sgbm.compute(a, b).astype(np.float64) / 16.0
            elapsed = time.perf_counter() - start
            errors = []
            for (cx, cy), t in zip(centres, truth):
                d = disparity[cy - 1:cy + 1, cx - 1:cx + 1]
                errors.append(abs(-d.mean() - t[0]) if (d >= 0).all() else np.inf)
            results["StereoSGBM"] = (errors, elapsed)
        for label, (errors, elapsed) in results.items():
            errors = np.asarray(errors, dtype=np.float64)
            counted = ~np.isnan(errors)
            print("| %s | %s | %s | %s | %s | %s |" % (
                image, case, label, stats(errors[counted]),
                "-" if elapsed is None else "%.1f" % (1000 * elapsed),
                stats(errors[counted & kept], worst=False)))


if __name__ == "__main__":
    main()
