#!/usr/bin/env python3
# gst-cuda-vision. Copyright (C) 2026 The gst-cuda-vision authors.
# SPDX-License-Identifier: LGPL-2.1-or-later (GNU Lesser General Public
# License 2.1 or later, COPYING).
"""Checks cvcore's Gabor filter against OpenCV's getGaborKernel + filter2D.

    tools/studies/gabor-opencv-check.py BUILD_DIR [IMAGE]

IMAGE defaults to scikit-image's camera photograph. For each sigma,
wavelength and orientation, runs BUILD_DIR/tools/studies/gabor-response (both
methods) and compares with OpenCV on the same luma (0..1):

  mapping: OpenCV's kernel exp(-(x'^2 + gamma^2 y'^2) / (2 sigma^2))
  cos(2 pi x' / lambda + psi), x' = x cos(theta) + y sin(theta), with
  gamma = 1, theta = our orientation, lambda = our wavelength, is our real
  part for psi = 0 and our imaginary part for psi = -pi/2, once divided by
  the envelope's sum; ksize 2 ceil(4 sigma) + 1 (our FIR's support);
  borders replicated (BORDER_REPLICATE). getGaborKernel stores the kernel
  flipped, so filter2D's correlation computes the convolution we do. Our
  responses have the DC removed (the filter's response to a flat image,
  times the Gaussian of the image); the OpenCV response gets the same:
  K = sum(real kernel) / sum(envelope), times the envelope-filtered image.

Prints the relative RMS difference over the frame (FIR) and away from the
borders by 4 sigma (recursive, whose borders extend lines differently).
"""
import math
import os
import subprocess
import sys
import tempfile

import cv2
import numpy as np


def opencv_response(luma, sigma, wavelength, degrees):
    radius = int(math.ceil(4 * sigma))
    size = (2 * radius + 1, 2 * radius + 1)
    theta = math.radians(degrees)
    real = cv2.getGaborKernel(size, sigma, theta, wavelength, 1.0, 0.0,
                              ktype=cv2.CV_64F)
    imag = cv2.getGaborKernel(size, sigma, theta, wavelength, 1.0,
                              -math.pi / 2, ktype=cv2.CV_64F)
    envelope = cv2.getGaborKernel(size, sigma, theta, 1e12, 1.0, 0.0,
                                  ktype=cv2.CV_64F)
    norm = envelope.sum()
    dc = real.sum() / norm
    border = cv2.BORDER_REPLICATE
    gauss = cv2.filter2D(luma, cv2.CV_64F, envelope / norm, borderType=border)
    re = cv2.filter2D(luma, cv2.CV_64F, real / norm, borderType=border)
    im = cv2.filter2D(luma, cv2.CV_64F, imag / norm, borderType=border)
    return re - dc * gauss + 1j * im


def ours(build, image, sigma, wavelength, degrees, method):
    with tempfile.NamedTemporaryFile(suffix=".f32") as out:
        line = subprocess.run(
            [os.path.join(build, "tools", "studies", "gabor-response"), image,
             str(sigma), str(wavelength), str(degrees), method, out.name],
            check=True, capture_output=True, text=True).stdout.split()
        w, h = int(line[0]), int(line[1])
        data = np.fromfile(out.name, dtype="<f4").reshape(h, w, 2)
    return data[..., 0] + 1j * data[..., 1]


def main():
    build = sys.argv[1]
    if len(sys.argv) > 2:
        image = sys.argv[2]
    else:
        from skimage import data
        image = os.path.join(tempfile.gettempdir(), "gabor-camera.png")
        cv2.imwrite(image, data.camera())
    luma = cv2.imread(image, cv2.IMREAD_GRAYSCALE).astype(np.float64) / 255.0
    print("| sigma | wavelength | orientation | recursive (interior) | fir |")
    print("|---|---|---|---|---|")
    for sigma, wavelength in ((2, 6), (4, 8), (8, 16), (16, 24)):
        for degrees in (0, 30, 90, 135):
            ref = opencv_response(luma, sigma, wavelength, degrees)
            m = int(math.ceil(4 * sigma))
            cols = []
            for method in ("recursive", "fir"):
                r = ours(build, image, sigma, wavelength, degrees, method)
                a, b = (r[m:-m, m:-m], ref[m:-m, m:-m]) \
                    if method == "recursive" else (r, ref)
                cols.append(np.sqrt(np.mean(np.abs(a - b) ** 2) /
                                    np.mean(np.abs(b) ** 2)))
            print("| %g | %g | %g | %.2e | %.2e |" % (sigma, wavelength,
                                                    degrees, *cols))


if __name__ == "__main__":
    main()
