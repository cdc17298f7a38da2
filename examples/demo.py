#!/usr/bin/env python3
# gst-cuda-vision. Copyright (C) 2026 The gst-cuda-vision authors.
# SPDX-License-Identifier: LGPL-2.1-or-later (GNU Lesser General Public
# License 2.1 or later, COPYING).
"""Every element on a short clip of a photograph, as one labelled mosaic.

    python3 examples/demo.py PHOTO [--frames N] [--png demo.png]
                             [--video demo.webm]

A camera pans across the photograph (numpy crops, fed through appsrc) and
six views of the clip are composed side by side:

  original                 the clip as it goes in
  cudafoveate              strength 2, the gaze on a circle, one point
                           per frame's timestamp (GstController)
  cudatonemap              an HDR version of the clip: linear light with
                           lamps 40 times brighter than white, tone mapped
  cudagabor                Gabor energy (sigma 3, wavelength 8)
  cudaphasecorr            the motion of each tile from the frame before
  cudaconvolve             a horizontal Sobel gradient on grey

The last frame of the mosaic goes to a PNG and the clip to WebM (VP8).
Needs the plugin on GST_PLUGIN_PATH (examples/demo.sh sets it), PyGObject
and numpy; runs on CUDA or on the CPU reference backend
(GST_CUDAVISION_BACKEND).
"""
import argparse
import math
import sys

import numpy as np
import gi

gi.require_version("Gst", "1.0")
gi.require_version("GstController", "1.0")
from gi.repository import Gst, GstController  # noqa: E402

TILE_W, TILE_H = 320, 240

VIEWS = [
    ("original", "queue"),
    ("cudafoveate: gaze on a circle",
     "queue ! cudavisionupload ! cudafoveate name=fov strength=2 "
     "! cudavisiondownload"),
    ("cudatonemap: HDR, lamps 40x white", None),
    ("cudagabor: energy",
     "queue ! cudavisionupload ! cudagabor sigma=3 wavelength=8 gain=12 "
     "! cudavisiondownload ! videoconvert"),
    ("cudaphasecorr: tile motion",
     "queue ! cudavisionupload ! cudaphasecorr draw=true draw-scale=1 "
     "search-radius=3 refinements=1 ! cudavisiondownload"),
    ("cudaconvolve: Sobel x",
     "queue ! videoconvert ! video/x-raw,format=GRAY8 ! cudavisionupload "
     "! cudaconvolve preset=sobel-x bias=128 ! cudavisiondownload "
     "! videoconvert"),
]


def load_photo(path):
    """The photograph as an RGBA numpy array, decoded by GStreamer."""
    pipeline = Gst.parse_launch(
        f'filesrc location="{path}" ! decodebin ! videoconvert '
        "! video/x-raw,format=RGBA ! appsink name=sink")
    pipeline.set_state(Gst.State.PLAYING)
    sample = pipeline.get_by_name("sink").emit("try-pull-sample", 10 * Gst.SECOND)
    pipeline.set_state(Gst.State.NULL)
    if sample is None:
        sys.exit(f"cannot decode {path}")
    s = sample.get_caps().get_structure(0)
    w, h = s.get_value("width"), s.get_value("height")
    buf = sample.get_buffer()
    data = np.frombuffer(buf.extract_dup(0, buf.get_size()), dtype=np.uint8)
    return data.reshape(h, -1)[:, :4 * w].reshape(h, w, 4)


def enlarge(photo, factor):
    """Nearest-neighbour enlargement, so the pan has room."""
    h, w = photo.shape[:2]
    ys = (np.arange(int(h * factor)) / factor).astype(int)
    xs = (np.arange(int(w * factor)) / factor).astype(int)
    return photo[ys][:, xs]


def hdr(frame, lamps):
    """Linear light, 16 bits for 64 times white, with bright lamps."""
    linear = (frame[..., :3].astype(np.float32) / 255.0) ** 2.2
    yy, xx = np.mgrid[0:TILE_H, 0:TILE_W]
    for x, y in lamps:
        glow = 40.0 * np.exp(-((xx - x) ** 2 + (yy - y) ** 2) / (2 * 5.0 ** 2))
        linear += glow[..., None] * np.array([1.0, 0.8, 0.5], dtype=np.float32)
    out = np.empty((TILE_H, TILE_W, 4), dtype=np.uint16)
    out[..., :3] = np.clip(linear / 64.0 * 65535.0, 0, 65535)
    out[..., 3] = 65535
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("photo")
    ap.add_argument("--frames", type=int, default=30)
    ap.add_argument("--png", default="demo.png")
    ap.add_argument("--video", default="demo.webm")
    args = ap.parse_args()

    Gst.init(None)
    photo = enlarge(load_photo(args.photo), 1.5)
    # interlace-mode stated: without it a textoverlay, whose caps after
    # the compositor's renegotiation carry it, at times refused a branch
    caps = (f"width={TILE_W},height={TILE_H},framerate=15/1,"
            "interlace-mode=progressive")
    branches = []
    for i, (label, chain) in enumerate(VIEWS):
        if chain is None:
            head = (f"appsrc name=hdr format=time caps=video/x-raw,"
                    f"format=RGBA64_LE,{caps} ! cudavisionupload "
                    "! cudatonemap input-scale=64 ! cudavisiondownload "
                    "! videoconvert")
        else:
            head = f"t. ! {chain}"
        branches.append(
            f"{head} ! videoconvert ! textoverlay text=\"{label}\" "
            "valignment=top halignment=left font-desc=\"Sans Bold 16\" "
            "shaded-background=true "
            f"! videoconvert ! mix.sink_{i}")
    pads = " ".join(
        f"sink_{i}::xpos={TILE_W * (i % 3)} sink_{i}::ypos={TILE_H * (i // 3)}"
        for i in range(len(VIEWS)))
    pipeline = Gst.parse_launch(
        f"appsrc name=ldr format=time caps=video/x-raw,format=RGBA,{caps} "
        "! tee name=t "
        f"compositor name=mix {pads} ! video/x-raw,format=RGBA "
        "! tee name=out "
        # every frame to the same file: the last one stays
        "out. ! queue ! videoconvert ! pngenc "
        f"! multifilesink location=\"{args.png}\" "
        "out. ! queue ! videoconvert ! vp8enc deadline=1 ! webmmux "
        f"! filesink location=\"{args.video}\" " + " ".join(branches))
    ldr = pipeline.get_by_name("ldr")
    hdr_src = pipeline.get_by_name("hdr")
    fov = pipeline.get_by_name("fov")
    # frames are queued ahead of the element: the gaze goes with their
    # timestamps, not with the moment they are pushed
    gaze_x = GstController.InterpolationControlSource()
    gaze_y = GstController.InterpolationControlSource()
    for prop, source in (("fixation-x", gaze_x), ("fixation-y", gaze_y)):
        source.set_property("mode", GstController.InterpolationMode.LINEAR)
        fov.add_control_binding(
            GstController.DirectControlBinding.new_absolute(fov, prop, source))
    pipeline.set_state(Gst.State.PLAYING)

    lamps_in_photo = [(0.55, 0.3), (0.45, 0.5), (0.7, 0.45)]
    ph, pw = photo.shape[:2]
    for n in range(args.frames):
        t = n / max(1, args.frames - 1)
        # the camera pans right and a little down
        x0 = int(round((pw - TILE_W) * (0.2 + 0.3 * t)))
        y0 = int(round((ph - TILE_H) * (0.35 + 0.15 * t)))
        frame = np.ascontiguousarray(photo[y0:y0 + TILE_H, x0:x0 + TILE_W])
        lamps = [(lx * pw - x0, ly * ph - y0) for lx, ly in lamps_in_photo]
        gaze_x.set(n * Gst.SECOND // 15, 0.5 + 0.3 * math.cos(2 * math.pi * t))
        gaze_y.set(n * Gst.SECOND // 15, 0.5 + 0.3 * math.sin(2 * math.pi * t))
        for src, data in ((ldr, frame), (hdr_src, hdr(frame, lamps))):
            buffer = Gst.Buffer.new_wrapped(data.tobytes())
            buffer.pts = n * Gst.SECOND // 15
            buffer.duration = Gst.SECOND // 15
            src.emit("push-buffer", buffer)
    ldr.emit("end-of-stream")
    hdr_src.emit("end-of-stream")

    message = pipeline.get_bus().timed_pop_filtered(
        600 * Gst.SECOND, Gst.MessageType.EOS | Gst.MessageType.ERROR)
    if message is None or message.type == Gst.MessageType.ERROR:
        pipeline.set_state(Gst.State.NULL)
        sys.exit(message.parse_error()[0].message if message else "timed out")
    pipeline.set_state(Gst.State.NULL)
    print(f"wrote {args.png} and {args.video}")


if __name__ == "__main__":
    main()
