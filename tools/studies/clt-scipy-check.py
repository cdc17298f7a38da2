#!/usr/bin/env python3
# gst-cuda-vision. Copyright (C) 2026 The gst-cuda-vision authors.
# SPDX-License-Identifier: LGPL-2.1-or-later (GNU Lesser General Public
# License 2.1 or later, COPYING).
"""Checks the CLT core against scipy and scikit-image.

    tools/studies/clt-scipy-check.py BUILD_DIR

Runs BUILD_DIR/tools/studies/clt-check-data on the CPU and CUDA backends (CUDA
where a device is present) and compares:

1. The forward transform of every tile of a textured 16-bit frame with one
   built here from scipy.fft.dct / dst (type 4, norm='ortho'): a tile's 16
   samples per row and column, weighted by the half-sine window
   sin(pi (n + 1/2) / 16), are folded to 8 (the MDCT's folding: for
   i < 4, -u[11-i] - u[12+i] (cosine) or u[11-i] - u[12+i] (sine); for
   i >= 4, u[i-4] - u[11-i] or u[i-4] + u[11-i]), then transformed along
   x and then y; the layers are CC, SC, CS, SS (horizontal kind first).
   Samples outside the frame are its mirror image (numpy.pad 'symmetric').

2. The phase correlation's per-tile motion between the frame and the same
   picture moved by (1.37, -0.61) with scikit-image's
   registration.phase_cross_correlation (upsample_factor 100, phase
   normalisation) on the same 16x16 tiles, windowed by the same window and
   plain. All are compared with the true motion over the inner tiles.
"""
import os
import subprocess
import sys
import tempfile

import numpy as np
from scipy import fft
from skimage.registration import phase_cross_correlation

W, H = 199, 131
TRUE = (1.37, -0.61)


def fold(u, sine):
    f = np.empty(u.shape[:-1] + (8,))
    for i in range(4):
        f[..., i] = (u[..., 11 - i] if sine else -u[..., 11 - i]) - u[..., 12 + i]
    for i in range(4, 8):
        f[..., i] = u[..., i - 4] + (u[..., 11 - i] if sine else -u[..., 11 - i])
    return f


def transform(u, sine):
    """DCT-IV or DST-IV, orthonormal, along the last axis."""
    return (fft.dst if sine else fft.dct)(u, type=4, norm="ortho", axis=-1)


def tile_clt(tile):
    w = np.sin(np.pi * (np.arange(16) + 0.5) / 16)
    u = tile * w[None, :] * w[:, None]
    out = np.empty((4, 8, 8))
    for layer in range(4):
        hk, vk = layer & 1, layer >> 1
        h = transform(fold(u, hk), hk)            # rows: 16 x 8 (k)
        v = transform(fold(h.T, vk), vk)          # columns: 8 (k) x 8 (l)
        out[layer] = v.T                          # [l][k]
    return out


def run(build, backend, where):
    env = dict(os.environ, GST_CUDAVISION_BACKEND=backend)
    result = subprocess.run([os.path.join(build, "tools", "studies", "clt-check-data"),
                             where], env=env, capture_output=True, text=True)
    if result.returncode != 0:
        return None
    frames = np.fromfile(os.path.join(where, "frames.u16"),
                         dtype="<u2").reshape(2, H, W).astype(np.float64)
    forward = np.fromfile(os.path.join(where, "forward.f32"), dtype="<f4")
    matches = np.fromfile(os.path.join(where, "matches.f32"), dtype="<f4")
    return frames, forward, matches


def main():
    build = sys.argv[1]
    tx, ty = (W + 7) // 8 + 1, (H + 7) // 8 + 1
    w = np.sin(np.pi * (np.arange(16) + 0.5) / 16)
    for backend in ("cpu", "cuda"):
        with tempfile.TemporaryDirectory() as where:
            data = run(build, backend, where)
        if data is None:
            print(f"{backend}: not available")
            continue
        frames, forward, matches = data
        padded = np.pad(frames[0], ((8, 8 * ty - H), (8, 8 * tx - W)),
                        mode="symmetric")
        ours = forward.reshape(ty, tx, 4, 8, 8)
        worst = 0.0
        scale = np.abs(ours).max()
        for j in range(ty):
            for i in range(tx):
                ref = tile_clt(padded[8 * j:8 * j + 16, 8 * i:8 * i + 16])
                worst = max(worst, np.abs(ours[j, i] - ref).max())
        print(f"{backend}: forward transform vs scipy DCT-IV/DST-IV: worst "
              f"difference {worst:.3g} ({worst / scale:.2g} of the largest "
              f"coefficient)")

        m = matches.reshape(ty, tx, 3)
        errors_ours, errors_sk, errors_plain = [], [], []
        for j in range(2, ty - 2):
            for i in range(2, tx - 2):
                a = frames[0][8 * j - 8:8 * j + 8, 8 * i - 8:8 * i + 8]
                b = frames[1][8 * j - 8:8 * j + 8, 8 * i - 8:8 * i + 8]
                win = w[None, :] * w[:, None]
                # skimage's shift registers the moving image onto the
                # reference: its negation is the motion
                shift, _, _ = phase_cross_correlation(
                    a * win, b * win, upsample_factor=100,
                    normalization="phase")
                errors_sk.append(np.hypot(-shift[1] - TRUE[0],
                                          -shift[0] - TRUE[1]))
                shift, _, _ = phase_cross_correlation(
                    a, b, upsample_factor=100, normalization="phase")
                errors_plain.append(np.hypot(-shift[1] - TRUE[0],
                                             -shift[0] - TRUE[1]))
                errors_ours.append(np.hypot(m[j, i, 0] - TRUE[0],
                                            m[j, i, 1] - TRUE[1]))
        for name, e in (("ours", errors_ours),
                        ("scikit-image, windowed tiles", errors_sk),
                        ("scikit-image, plain tiles", errors_plain)):
            e = np.array(e)
            print(f"{backend}: motion error over {len(e)} inner tiles, "
                  f"{name}: mean {e.mean():.4f} px, 95th percentile "
                  f"{np.percentile(e, 95):.4f} px, worst {e.max():.4f} px")


if __name__ == "__main__":
    main()
