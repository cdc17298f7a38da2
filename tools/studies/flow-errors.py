#!/usr/bin/env python3
# gst-cuda-vision. Copyright (C) 2026 The gst-cuda-vision authors.
# SPDX-License-Identifier: LGPL-2.1-or-later (GNU Lesser General Public
# License 2.1 or later, COPYING).
"""Where cudaphasecorr's tile matches go wrong: the end-point errors that
`flow-quality --dump DIR` wrote, split by the shape of each tile's
texture and by its distance from the frame's edge.

    python3 tools/studies/flow-errors.py [--min-confidence C] DIR

For each dumped case it prints the median and 95th percentile error of
the kept tiles (confidence >= C, 0.05 by default, where both frames hold
the tile's content), then the same by the tile's elongation (the smaller
over the larger eigenvalue of the windowed gradient structure tensor of
its first-frame pixels: near 0 for an edge or stripes, whose motion along
them the tile cannot see, 1 for texture alike in every direction), and
for the tiles at least 64 pixels from the frame's edge. It also splits
each error into its parts across and along the tile's dominant
orientation. Needs numpy.
"""
import argparse
import glob
import os

import numpy as np

TILE, STRIDE = 16, 8
ELONGATION_EDGES = (0.0, 0.02, 0.05, 0.1, 0.2, 1.01)


def tensors(frame, tiles_x, tiles_y):
    """Per tile, the 2x2 gradient structure tensor under the tile's
    squared sine window (as the lapped transform weighs it)."""
    gy, gx = np.gradient(frame)
    window = np.sin(np.pi * (np.arange(TILE) + 0.5) / TILE)
    weight = np.outer(window, window) ** 2
    out = np.full((tiles_y, tiles_x, 2, 2), np.nan)
    for ty in range(1, tiles_y):
        y = STRIDE * ty
        if y + TILE // 2 > frame.shape[0]:
            break
        for tx in range(1, tiles_x):
            x = STRIDE * tx
            if x + TILE // 2 > frame.shape[1]:
                break
            px = gx[y - 8:y + 8, x - 8:x + 8]
            py = gy[y - 8:y + 8, x - 8:x + 8]
            xy = (weight * px * py).sum()
            out[ty, tx] = [[(weight * px * px).sum(), xy],
                           [xy, (weight * py * py).sum()]]
    return out


def stats(errors):
    if errors.size == 0:
        return "none"
    return "%5d tiles, median %.3f, 95th %.3f" % (
        errors.size, np.median(errors), np.percentile(errors, 95))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--min-confidence", type=float, default=0.05)
    parser.add_argument("folder")
    args = parser.parse_args()
    w, h = (int(v) for v in
            open(os.path.join(args.folder, "size")).read().split())
    frames = {}
    for path in sorted(glob.glob(os.path.join(args.folder, "*.truth"))):
        name = os.path.basename(path)[:-len(".truth")]
        image = name.split("-")[0]
        rows = np.loadtxt(path)
        if rows.shape[1] < 8:
            raise SystemExit("%s: no matches in the dump; make it again "
                             "with this flow-quality" % path)
        tiles_x, tiles_y = int(rows[:, 0].max()) + 1, int(rows[:, 1].max()) + 1
        if image not in frames:
            frame = np.fromfile(os.path.join(args.folder, image + ".a.gray"),
                                np.uint8).reshape(h, w).astype(np.float64)
            frames[image] = tensors(frame, tiles_x, tiles_y)
        tensor = frames[image].reshape(-1, 2, 2)
        truth, ours = rows[:, 2:4], rows[:, 5:7]
        kept = (rows[:, 4] > 0) & (rows[:, 7] >= args.min_confidence) \
            & ~np.isnan(tensor[:, 0, 0])
        miss = (ours - truth)[kept]
        values, vectors = np.linalg.eigh(tensor[kept])
        elongation = values[:, 0] / np.maximum(values[:, 1], 1e-12)
        along = np.abs(np.einsum("ti,ti->t", miss, vectors[:, :, 0]))
        across = np.abs(np.einsum("ti,ti->t", miss, vectors[:, :, 1]))
        errors = np.hypot(miss[:, 0], miss[:, 1])
        x, y = STRIDE * rows[kept, 0], STRIDE * rows[kept, 1]
        inner = np.minimum(np.minimum(x, w - x), np.minimum(y, h - y)) >= 64
        print("%s: %s" % (name, stats(errors)))
        for lo, hi in zip(ELONGATION_EDGES[:-1], ELONGATION_EDGES[1:]):
            part = (elongation >= lo) & (elongation < hi)
            print("  elongation %.2f - %.2f: %s; along %.3f, across %.3f "
                  "(95th)" % (lo, hi, stats(errors[part]),
                              np.percentile(along[part], 95) if part.any()
                              else np.nan,
                              np.percentile(across[part], 95) if part.any()
                              else np.nan))
        print("  64 px or more from the edge: %s" % stats(errors[inner]))


if __name__ == "__main__":
    main()
