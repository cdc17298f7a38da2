#!/usr/bin/env python3
# gst-cuda-vision. Copyright (C) 2026 The gst-cuda-vision authors.
# SPDX-License-Identifier: LGPL-2.1-or-later (GNU Lesser General Public
# License 2.1 or later, COPYING).
"""What foveation saves in a video stream: bits per frame of x264 at a
fixed quantiser with and without cudafoveate, and the quality kept in the
fovea.

    python3 tools/studies/foveated-bitrate.py [--size WxH] [--frames N]
                                      [--quantizer Q] [--svg plot.svg]
                                      [--corner-eccentricity DEG]
                                      [--camera pan still]
                                      [--gaze centre saccades pursuit]
                                      [--x264-frame-offsets]
                                      photo...

Each photograph gives clips from a camera that pans across it or stands
still. Every clip is encoded by x264enc at a constant quantiser
(pass=quant) without foveation and after cudafoveate at strengths 1, 2
and 3, and decoded again (avdec_h264). The gaze is bound to the frames'
timestamps through a GstController: held at the centre; fixations of a
third of a second with saccades between them (how eyes look at a scene);
or a smooth pursuit round a circle, moving every frame.

By default every frame and block is quantised alike: the same quantiser
for the key frame as for the others, the same dead zones for predicted
blocks as for intra ones, no trellis. x264's own offsets (the key frame
about 3 steps finer, wider dead zones for predicted blocks) give detail
that first reaches the fovea in a predicted frame less quality than the
key frame gave it without foveation; --x264-frame-offsets keeps them.

It prints, per clip, camera and gaze, the kilobits per frame at each
strength, the saving against the clip without foveation, and the PSNR of
the decoded luma inside the fovea (a disc of 3 % of the frame's width
around the gaze): against the source, which at strengths 2 and 3 counts
cudafoveate's own blur in the disc, and against the encoder's input, which
counts only what encoding lost. With --svg it draws the saving against the
strength, averaged over the photographs. --corner-eccentricity is the
viewing geometry: the degrees from the gaze to the frame's corner for the
viewer (cudafoveate's property; 100 by default, a wide field; a desktop
monitor at arm's length is about 27). Needs the plugin on
GST_PLUGIN_PATH, PyGObject, numpy, gstreamer1.0-plugins-ugly (x264enc)
and gstreamer1.0-libav (avdec_h264); runs on the backend
GST_CUDAVISION_BACKEND names.
"""
import argparse
import math
import os
import sys

import numpy as np
import gi

gi.require_version("Gst", "1.0")
gi.require_version("GstController", "1.0")
from gi.repository import Gst, GstController  # noqa: E402

# the photograph decoder of the demo, which takes the same photographs
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                os.pardir, "examples"))
from demo import load_photo  # noqa: E402

FPS = 30
MODE = "smooth"
FOVEA = 0.03
# Where the gaze rests in turn, a third of a second each (fixations last
# 0.2 to 0.5 s when eyes look at a scene).
FIXATIONS = [(0.5, 0.5), (0.3, 0.35), (0.7, 0.4), (0.4, 0.7), (0.65, 0.65),
             (0.25, 0.6)]
FIXATION_FRAMES = FPS // 3
# Every frame and block quantised alike (see the module's text).
UNIFORM_QUANTISER = ("trellis=false "
                     "option-string=ipratio=1.0:deadzone-inter=11:deadzone-intra=11")


def clip(photo, width, height, frames, camera):
    """A pan across @photo, enlarged (bilinear) so the frame fits twice, or
    the first frame of it held still."""
    ph, pw = photo.shape[:2]
    scale = max(1.6 * width / pw, 1.3 * height / ph)
    ys = np.clip((np.arange(int(ph * scale)) + 0.5) / scale - 0.5, 0, ph - 1)
    xs = np.clip((np.arange(int(pw * scale)) + 0.5) / scale - 0.5, 0, pw - 1)
    y0, x0 = np.floor(ys).astype(int), np.floor(xs).astype(int)
    y1, x1 = np.minimum(y0 + 1, ph - 1), np.minimum(x0 + 1, pw - 1)
    fy, fx = (ys - y0)[:, None, None], (xs - x0)[None, :, None]
    p = photo.astype(np.float32)
    big = ((p[y0][:, x0] * (1 - fx) + p[y0][:, x1] * fx) * (1 - fy)
           + (p[y1][:, x0] * (1 - fx) + p[y1][:, x1] * fx) * fy)
    big = big.astype(np.uint8)
    bh, bw = big.shape[:2]
    out = []
    for n in range(frames):
        t = n / max(1, frames - 1) if camera == "pan" else 0.0
        x = int(round((bw - width) * (0.1 + 0.8 * t)))
        y = int(round((bh - height) * (0.3 + 0.4 * t)))
        out.append(np.ascontiguousarray(big[y:y + height, x:x + width]))
    return out


def gaze(n, frames, pattern):
    if pattern == "saccades":
        return FIXATIONS[(n // FIXATION_FRAMES) % len(FIXATIONS)]
    if pattern == "pursuit":
        a = 2 * math.pi * n / frames
        return 0.5 + 0.3 * math.cos(a), 0.5 + 0.3 * math.sin(a)
    return 0.5, 0.5


def luma(rgba):
    return (0.299 * rgba[..., 0] + 0.587 * rgba[..., 1]
            + 0.114 * rgba[..., 2]).astype(np.float64)


def pull_frames(sink, width, height):
    frames = []
    while (sample := sink.emit("try-pull-sample", 0)) is not None:
        buf = sample.get_buffer()
        data = np.frombuffer(buf.extract_dup(0, buf.get_size()), dtype=np.uint8)
        frames.append(data.reshape(height, -1)[:, :4 * width]
                      .reshape(height, width, 4))
    return frames


def encode(frames, strength, pattern, quantizer, corner, x264_options):
    """Bytes per frame, the decoded RGBA frames and the encoder's input."""
    h, w = frames[0].shape[:2]
    fovea = ("" if strength == 0 else
             f"cudavisionupload ! cudafoveate name=fov strength={strength} mode={MODE} "
             f"corner-eccentricity={corner} ! cudavisiondownload ! ")
    pipeline = Gst.parse_launch(
        f"appsrc name=src format=time caps=video/x-raw,format=RGBA,width={w},"
        f"height={h},framerate={FPS}/1 ! {fovea}tee name=input "
        "input. ! queue ! appsink name=seen sync=false wait-on-eos=false "
        "input. ! queue ! videoconvert "
        "! video/x-raw,format=I420 ! x264enc pass=quant "
        f"quantizer={quantizer} speed-preset=faster bframes=0 {x264_options} "
        f"key-int-max={len(frames)} ! video/x-h264,profile=high "
        "! h264parse ! tee name=e "
        "e. ! queue ! appsink name=bits sync=false wait-on-eos=false "
        "e. ! queue ! avdec_h264 ! videoconvert ! video/x-raw,format=RGBA "
        "! appsink name=dec sync=false wait-on-eos=false")
    if strength:
        fov = pipeline.get_by_name("fov")
        for i, prop in enumerate(("fixation-x", "fixation-y")):
            source = GstController.InterpolationControlSource()
            source.set_property("mode", GstController.InterpolationMode.LINEAR)
            for n in range(len(frames)):
                source.set(n * Gst.SECOND // FPS, gaze(n, len(frames), pattern)[i])
            fov.add_control_binding(
                GstController.DirectControlBinding.new_absolute(fov, prop, source))
    src = pipeline.get_by_name("src")
    pipeline.set_state(Gst.State.PLAYING)
    for n, frame in enumerate(frames):
        buffer = Gst.Buffer.new_wrapped(frame.tobytes())
        buffer.pts = n * Gst.SECOND // FPS
        buffer.duration = Gst.SECOND // FPS
        src.emit("push-buffer", buffer)
    src.emit("end-of-stream")
    message = pipeline.get_bus().timed_pop_filtered(
        600 * Gst.SECOND, Gst.MessageType.EOS | Gst.MessageType.ERROR)
    if message is None or message.type == Gst.MessageType.ERROR:
        sys.exit(message.parse_error()[0].message if message else "timed out")
    sizes = []
    bits = pipeline.get_by_name("bits")
    while (sample := bits.emit("try-pull-sample", 0)) is not None:
        sizes.append(sample.get_buffer().get_size())
    decoded = pull_frames(pipeline.get_by_name("dec"), w, h)
    seen = pull_frames(pipeline.get_by_name("seen"), w, h)
    pipeline.set_state(Gst.State.NULL)
    assert len(sizes) == len(frames) == len(decoded) == len(seen), (
        len(sizes), len(decoded), len(seen))
    return np.array(sizes), decoded, seen


def fovea_psnr(reference, decoded, pattern):
    h, w = reference[0].shape[:2]
    yy, xx = np.mgrid[0:h, 0:w]
    errors = []
    for n, (a, b) in enumerate(zip(reference, decoded)):
        gx, gy = gaze(n, len(reference), pattern)
        disc = (xx - gx * w) ** 2 + (yy - gy * h) ** 2 <= (FOVEA * w) ** 2
        errors.append(np.mean((luma(a)[disc] - luma(b)[disc]) ** 2))
    return 10 * math.log10(255.0 ** 2 / max(np.mean(errors), 1e-12))


def svg_plot(points, path):
    """Saving (%) against strength, a polyline per camera and gaze."""
    # the legend takes the rows below the axis, three labels a row
    rows = (len(points) + 2) // 3
    width, left, bottom = 560, 60, 44 + 16 * rows
    height = 320 + bottom
    colours = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b"]
    values = [v for line in points.values() for _, v in line]
    spread = max(values) - min(values)
    step = 10 if spread <= 100 else 20 if spread <= 200 else 50
    top = step * math.ceil(max(step, max(values)) / step)
    low = step * math.floor(min(0, min(values)) / step)

    def xy(strength, saving):
        return (left + strength / 3 * (width - left - 20),
                height - bottom - (saving - low) / (top - low)
                * (height - bottom - 36))
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" '
             f'height="{height}" font-family="sans-serif" font-size="12">',
             f'<rect width="{width}" height="{height}" fill="white"/>']
    for s in range(4):
        x, y = xy(s, low)
        parts.append(f'<text x="{x}" y="{y + 18}" text-anchor="middle">{s}</text>')
    for v in range(low, top + 1, step):
        x, y = xy(0, v)
        stroke = "#888" if v == 0 else "#ddd"
        parts.append(f'<line x1="{x}" y1="{y}" x2="{width - 20}" y2="{y}" '
                     f'stroke="{stroke}"/>')
        parts.append(f'<text x="{x - 6}" y="{y + 4}" text-anchor="end">{v} %</text>')
    x, y = xy(1.5, low)
    parts.append(f'<text x="{x}" y="{y + 34}" text-anchor="middle">'
                 'cudafoveate strength</text>')
    parts.append('<text x="20" y="16">bits saved at a fixed x264 quantiser '
                 '(mean of the photographs)</text>')
    for i, (label, line) in enumerate(points.items()):
        c = colours[i % len(colours)]
        pts = " ".join("%.1f,%.1f" % xy(s, v) for s, v in line)
        parts.append(f'<polyline points="{pts}" fill="none" stroke="{c}" '
                     'stroke-width="2"/>')
        parts.append(f'<text x="{left + 160 * (i % 3)}" '
                     f'y="{height - 8 - 16 * (rows - 1 - i // 3)}" '
                     f'fill="{c}">{label}</text>')
    parts.append("</svg>")
    with open(path, "w") as f:
        f.write("\n".join(parts) + "\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("photos", nargs="+")
    ap.add_argument("--size", default="480x270")
    ap.add_argument("--frames", type=int, default=30)
    ap.add_argument("--quantizer", type=int, default=24)
    ap.add_argument("--svg")
    ap.add_argument("--corner-eccentricity", type=float, default=100.0)
    ap.add_argument("--camera", nargs="+", choices=("pan", "still"),
                    default=["pan", "still"])
    ap.add_argument("--gaze", nargs="+", choices=("centre", "saccades", "pursuit"),
                    default=["centre", "saccades", "pursuit"])
    ap.add_argument("--x264-frame-offsets", action="store_true",
                    help="keep x264's finer key frame and wider dead zones")
    args = ap.parse_args()
    width, height = (int(v) for v in args.size.split("x"))
    x264_options = "" if args.x264_frame_offsets else UNIFORM_QUANTISER

    Gst.init(None)
    offsets = "its own frame offsets" if args.x264_frame_offsets else "uniform"
    print(f"{width}x{height}, {args.frames} frames at {FPS} fps, x264 quantizer "
          f"{args.quantizer} ({offsets}), corner eccentricity "
          f"{args.corner_eccentricity:g} degrees\n")
    print("| clip | camera | gaze | kbit/frame, off / 1 / 2 / 3 | saved, 1 / 2 / 3 "
          "| fovea PSNR dB, off / 1 / 2 / 3 | against the encoder's input, 1 / 2 / 3 |"
          "\n|---|---|---|---|---|---|---|")
    savings, losses = {}, []
    for path in args.photos:
        name = path.rsplit("/", 1)[-1].rsplit(".", 1)[0]
        photo = load_photo(path)
        for camera in args.camera:
            frames = clip(photo, width, height, args.frames, camera)
            for pattern in args.gaze:
                kbit, saved, psnr, coded = [], [], [], []
                for strength in (0, 1, 2, 3):
                    sizes, decoded, seen = encode(
                        frames, strength, pattern, args.quantizer,
                        args.corner_eccentricity, x264_options)
                    kbit.append(8 * sizes.mean() / 1000)
                    saved.append(100 * (1 - kbit[-1] / kbit[0]))
                    psnr.append(fovea_psnr(frames, decoded, pattern))
                    coded.append(fovea_psnr(seen, decoded, pattern))
                savings.setdefault(f"{camera}, {pattern}", []).append(saved)
                losses.append([[p - psnr[0] for p in psnr[1:]],
                               [c - psnr[0] for c in coded[1:]]])
                print(f"| {name} | {camera} | {pattern} | "
                      + " / ".join(f"{v:.1f}" for v in kbit) + " | "
                      + " / ".join(f"{v:.1f} %" for v in saved[1:]) + " | "
                      + " / ".join(f"{v:.2f}" for v in psnr) + " | "
                      + " / ".join(f"{v:.2f}" for v in coded[1:]) + " |",
                      flush=True)
    # one disc's PSNR moves by tenths of a dB with the blocks it straddles
    source, encoding = np.mean(losses, axis=0)
    print("\nFovea PSNR against foveation off, mean of the rows, strength 1 / 2 / 3: "
          "against the source " + " / ".join(f"{v:+.2f}" for v in source)
          + " dB, against the encoder's input "
          + " / ".join(f"{v:+.2f}" for v in encoding) + " dB")
    if args.svg:
        svg_plot({label: list(enumerate(np.mean(rows, axis=0)))
                  for label, rows in savings.items()}, args.svg)


if __name__ == "__main__":
    main()
