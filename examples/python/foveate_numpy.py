#!/usr/bin/env python3
# gst-cuda-vision. Copyright (C) 2026 The gst-cuda-vision authors.
# SPDX-License-Identifier: LGPL-2.1-or-later (GNU Lesser General Public
# License 2.1 or later, COPYING).
"""Frames from numpy through cudafoveate and back to numpy, the fixation
set from Python for every frame.

    python3 examples/python/foveate_numpy.py [--frames N] [--size WxH]

An application that makes or receives frames as numpy arrays (a camera
SDK, a simulator, ROS) pushes them into `appsrc`; the element foveates
them on the GPU (or on the CPU reference backend) and `appsink` gives them
back. The fixation follows a circle, set on the element before each frame
is pushed: a property set between frames applies from the next frame on.
The script checks what it gets: each frame keeps its size, the fixation's
neighbourhood comes back as it went in, and the far periphery is blurred.
Needs the plugin on GST_PLUGIN_PATH, PyGObject and numpy (Debian:
python3-gi, gir1.2-gst-plugins-base-1.0, python3-numpy).
"""
import argparse
import math
import sys

import numpy as np
from example_args import count, frame_size
import gi

gi.require_version("Gst", "1.0")
gi.require_version("GstApp", "1.0")
from gi.repository import Gst, GstApp  # noqa: E402


def picture(width, height, seed):
    """A textured RGBA frame: detail everywhere, so blur shows."""
    rng = np.random.default_rng(seed)
    grey = rng.integers(0, 256, size=(height, width), dtype=np.uint8)
    frame = np.empty((height, width, 4), dtype=np.uint8)
    frame[..., 0] = grey
    frame[..., 1] = np.roll(grey, 7, axis=1)
    frame[..., 2] = np.roll(grey, 5, axis=0)
    frame[..., 3] = 255
    return frame


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--frames", type=count(1), default=10)
    ap.add_argument("--size", type=frame_size, default="320x240")
    args = ap.parse_args()
    width, height = args.size

    Gst.init(None)
    pipeline = Gst.parse_launch(
        "appsrc name=src format=time caps=video/x-raw,format=RGBA,"
        f"width={width},height={height},framerate=30/1 "
        "! cudavisionupload ! cudafoveate name=fov strength=3 "
        "! cudavisiondownload ! appsink name=sink sync=false")
    src = pipeline.get_by_name("src")
    sink = pipeline.get_by_name("sink")
    fov = pipeline.get_by_name("fov")
    pipeline.set_state(Gst.State.PLAYING)

    for n in range(args.frames):
        # the gaze circles the centre, in normalised frame coordinates
        fx = 0.5 + 0.25 * math.cos(2 * math.pi * n / args.frames)
        fy = 0.5 + 0.25 * math.sin(2 * math.pi * n / args.frames)
        fov.set_property("fixation-x", fx)
        fov.set_property("fixation-y", fy)
        frame = picture(width, height, n)
        buffer = Gst.Buffer.new_wrapped(frame.tobytes())
        buffer.pts = n * Gst.SECOND // 30
        buffer.duration = Gst.SECOND // 30
        if src.emit("push-buffer", buffer) != Gst.FlowReturn.OK:
            sys.exit("appsrc refused the frame")

        sample = sink.emit("try-pull-sample", 10 * Gst.SECOND)
        if sample is None:
            bus_error(pipeline)
        out_buffer = sample.get_buffer()
        caps = sample.get_caps().get_structure(0)
        stride = out_buffer.get_size() // height
        out = np.frombuffer(out_buffer.extract_dup(0, out_buffer.get_size()),
                            dtype=np.uint8).reshape(height, stride)
        out = out[:, :4 * width].reshape(height, width, 4)

        assert (caps.get_value("width"), caps.get_value("height")) == (width, height)
        x, y = int(fx * width), int(fy * height)
        fovea = np.abs(out[y - 2:y + 3, x - 2:x + 3, :3].astype(int)
                       - frame[y - 2:y + 3, x - 2:x + 3, :3])
        # the corner furthest from the gaze
        cx = 0 if fx > 0.5 else width - 8
        cy = 0 if fy > 0.5 else height - 8
        periphery = out[cy:cy + 8, cx:cx + 8, :3].astype(float)
        original = frame[cy:cy + 8, cx:cx + 8, :3].astype(float)
        print(f"frame {n}: fixation ({fx:.2f}, {fy:.2f}), largest change at "
              f"the fixation {fovea.max()}, texture in the far corner "
              f"{periphery.std():.1f} (was {original.std():.1f})")
        assert fovea.max() <= 2, "the fixation must come back unchanged"
        assert periphery.std() < 0.5 * original.std(), "the periphery must blur"

    src.emit("end-of-stream")
    pipeline.set_state(Gst.State.NULL)


def bus_error(pipeline):
    message = pipeline.get_bus().timed_pop_filtered(0, Gst.MessageType.ERROR)
    sys.exit(message.parse_error()[0].message if message else "no frame came")


if __name__ == "__main__":
    main()
