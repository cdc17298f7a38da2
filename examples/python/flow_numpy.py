#!/usr/bin/env python3
# gst-cuda-vision. Copyright (C) 2026 The gst-cuda-vision authors.
# SPDX-License-Identifier: LGPL-2.1-or-later (GNU Lesser General Public
# License 2.1 or later, COPYING).
"""The flow field of every frame as a numpy array, from cudaphasecorr's
element messages and from the frames' own meta.

    python3 examples/python/flow_numpy.py [--frames N] [--motion DX,DY]

Frames of a textured picture moving by a known amount per frame go in
through `appsrc`. With `post-messages=true`, `cudaphasecorr` posts a
message named "cudaphasecorr" per frame (after the first) whose field
`matches` holds tiles_y x tiles_x float32 triples (dx, dy, confidence) in
the machine's byte order; `tiles-x`, `tiles-y`, `tile-stride` give the
grid (tile (tx, ty) centred on pixel (8 tx, 8 ty), rounded down) and
`motion-dx`, `motion-dy` the frame's motion. With `custom-meta=true` each
frame that `appsink` receives carries the same fields in a GstCustomMeta
named "GstCudaVisionCorrelationCustomMeta", which keeps the field with its
frame. The script turns each message and each frame's meta into an array
of shape (tiles_y, tiles_x, 3), checks that they agree, and checks the
motion of the confident inner tiles. Needs the plugin on GST_PLUGIN_PATH, PyGObject
and numpy (Debian: python3-gi, gir1.2-gst-plugins-base-1.0,
python3-numpy).
"""
import argparse
import sys

import numpy as np
from example_args import count, number_pair
import gi

gi.require_version("Gst", "1.0")
from gi.repository import Gst  # noqa: E402


def texture(width, height, offset):
    """Smooth random texture seen @offset (dx, dy) pixels further on, by
    exact Fourier shift, so that any sub-pixel motion is exact."""
    rng = np.random.default_rng(1)
    noise = rng.standard_normal((height, width))
    fy = np.fft.fftfreq(height)[:, None]
    fx = np.fft.fftfreq(width)[None, :]
    spectrum = np.fft.fft2(noise) * np.exp(-(fx ** 2 + fy ** 2) * 40.0)
    moved = spectrum * np.exp(-2j * np.pi * (fx * offset[0] + fy * offset[1]))
    image = np.real(np.fft.ifft2(moved))
    return np.clip(128 + 40 * image / image.std(), 0, 255).astype(np.uint8)


def flow_field(structure):
    """The message's matches as a (tiles_y, tiles_x, 3) float32 array."""
    tiles_x = structure.get_value("tiles-x")
    tiles_y = structure.get_value("tiles-y")
    data = structure.get_value("matches").get_data()
    return np.frombuffer(data, dtype=np.float32).reshape(tiles_y, tiles_x, 3)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    # two frames at least: the first has no motion
    ap.add_argument("--frames", type=count(2), default=5)
    # well within the search's default reach (7 x 2^4 pixels)
    ap.add_argument("--motion", type=number_pair(32.0), default="3.25,-1.5")
    args = ap.parse_args()
    motion = args.motion
    width, height = 256, 192

    Gst.init(None)
    pipeline = Gst.parse_launch(
        "appsrc name=src format=time caps=video/x-raw,format=GRAY8,"
        f"width={width},height={height},framerate=30/1 "
        "! cudavisionupload ! cudaphasecorr name=flow post-messages=true "
        "custom-meta=true "
        "! cudavisiondownload ! appsink name=sink sync=false")
    src = pipeline.get_by_name("src")
    sink = pipeline.get_by_name("sink")
    flow = pipeline.get_by_name("flow")
    bus = pipeline.get_bus()
    pipeline.set_state(Gst.State.PLAYING)
    for n in range(args.frames):
        frame = texture(width, height, (n * motion[0], n * motion[1]))
        buffer = Gst.Buffer.new_wrapped(frame.tobytes())
        buffer.pts = n * Gst.SECOND // 30
        src.emit("push-buffer", buffer)
    src.emit("end-of-stream")

    # the frames, each with its field in its meta (none on the first)
    meta_fields = []
    for n in range(args.frames):
        sample = sink.emit("try-pull-sample", 30 * Gst.SECOND)
        assert sample is not None, f"frame {n} did not come"
        meta = sample.get_buffer().get_custom_meta(
            "GstCudaVisionCorrelationCustomMeta")
        assert (meta is None) == (n == 0)
        if meta:
            meta_fields.append(flow_field(meta.get_structure()))

    fields = []
    while True:
        message = bus.timed_pop_filtered(
            30 * Gst.SECOND, Gst.MessageType.ELEMENT | Gst.MessageType.EOS
            | Gst.MessageType.ERROR)
        if message is None or message.type == Gst.MessageType.ERROR:
            sys.exit(message.parse_error()[0].message if message else "timed out")
        if message.type == Gst.MessageType.EOS:
            break
        structure = message.get_structure()
        if structure.get_name() != "cudaphasecorr":
            continue
        field = flow_field(structure)
        fields.append(field)
        # tiles away from the edges, where content moves in and out
        inner = field[3:-3, 3:-3].reshape(-1, 3)
        kept = inner[inner[:, 2] >= flow.get_property("min-confidence")]
        median = np.median(kept[:, :2], axis=0)
        print(f"frame at {structure.get_value('timestamp') / Gst.SECOND:.3f} s: "
              f"field {field.shape}, {len(kept)} of {len(inner)} inner tiles "
              f"kept, median motion ({median[0]:.3f}, {median[1]:.3f}), frame "
              f"motion ({structure.get_value('motion-dx'):.3f}, "
              f"{structure.get_value('motion-dy'):.3f})")
        assert len(kept) >= 0.8 * len(inner)
        assert np.abs(median - motion).max() < 0.05
    pipeline.set_state(Gst.State.NULL)
    assert len(fields) == args.frames - 1, f"{len(fields)} fields"
    assert all(np.array_equal(a, b) for a, b in zip(fields, meta_fields))
    print(f"the frames' metas hold the same {len(meta_fields)} fields")


if __name__ == "__main__":
    main()
