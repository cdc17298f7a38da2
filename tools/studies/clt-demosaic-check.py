#!/usr/bin/env python3
# gst-cuda-vision. Copyright (C) 2026 The gst-cuda-vision authors.
# SPDX-License-Identifier: LGPL-2.1-or-later (GNU Lesser General Public
# License 2.1 or later, COPYING).
"""How well cudaclt fills in the colours of Bayer mosaics, on photographs.

    tools/studies/clt-demosaic-check.py [OUT_DIR]

Each scikit-image colour photograph (cropped to a width divisible by 4) is
sampled through an RGGB mosaic (8 bits), sent through

    filesrc ! video/x-bayer,format=rggb ! cudaupload
      ! cudaclt operation=none mosaic-method=M
      ! video/x-raw(memory:CUDAVisionMemory),format=RGBA ! cudadownload
      ! filesink

for both mosaic methods, and compared with the photograph: PSNR over the
three colours, 4 pixels from the edges. OpenCV's bilinear demosaic
(cv2.cvtColor, COLOR_BayerBG2RGB: OpenCV names a pattern by the second
row's second and third samples, so its BG is RGGB) is the peer; the
interpolate method should match it closely. Needs gst-launch-1.0 with the
plugin on the path (source .gpu/env.sh), numpy, OpenCV, scikit-image.
"""
import os
import subprocess
import sys
import tempfile

import cv2
import numpy as np
from skimage import data

PHOTOS = ["astronaut", "coffee", "chelsea", "rocket", "immunohistochemistry"]
EDGE = 4


def mosaic(rgb):
    m = np.empty(rgb.shape[:2], np.uint8)
    m[0::2, 0::2] = rgb[0::2, 0::2, 0]
    m[0::2, 1::2] = rgb[0::2, 1::2, 1]
    m[1::2, 0::2] = rgb[1::2, 0::2, 1]
    m[1::2, 1::2] = rgb[1::2, 1::2, 2]
    return m


def psnr(a, b):
    a = a[EDGE:-EDGE, EDGE:-EDGE, :3].astype(np.float64)
    b = b[EDGE:-EDGE, EDGE:-EDGE, :3].astype(np.float64)
    return 10 * np.log10(255.0 ** 2 / np.mean((a - b) ** 2))


def through_cudaclt(m, method, tmp):
    h, w = m.shape
    src, dst = os.path.join(tmp, "in.raw"), os.path.join(tmp, "out.raw")
    m.tofile(src)
    subprocess.run(
        ["gst-launch-1.0", "-q", "filesrc", "location=" + src,
         "blocksize=%d" % (w * h), "!",
         "video/x-bayer,format=rggb,width=%d,height=%d,framerate=1/1"
         % (w, h), "!", "cudaupload", "!", "cudaclt", "operation=none",
         "mosaic-method=" + method, "!",
         "video/x-raw(memory:CUDAVisionMemory),format=RGBA", "!",
         "cudadownload", "!", "filesink", "location=" + dst], check=True)
    return np.fromfile(dst, np.uint8).reshape(h, w, 4)


def main():
    out_dir = sys.argv[1] if len(sys.argv) > 1 else None
    print("| photograph | size | OpenCV bilinear | interpolate | sparse |")
    print("|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as tmp:
        for name in PHOTOS:
            rgb = getattr(data, name)()
            rgb = rgb[: rgb.shape[0] // 2 * 2, : rgb.shape[1] // 4 * 4, :3]
            m = mosaic(rgb)
            opencv = cv2.cvtColor(m, cv2.COLOR_BayerBG2RGB)
            row = [psnr(opencv, rgb)]
            for method in ("interpolate", "sparse"):
                out = through_cudaclt(m, method, tmp)
                row.append(psnr(out, rgb))
                if out_dir:
                    cv2.imwrite(os.path.join(out_dir, "%s-%s.png"
                                             % (name, method)),
                                cv2.cvtColor(out[:, :, :3],
                                             cv2.COLOR_RGB2BGR))
            print("| %s | %dx%d | %.2f dB | %.2f dB | %.2f dB |"
                  % ((name, rgb.shape[1], rgb.shape[0]) + tuple(row)))


if __name__ == "__main__":
    main()
