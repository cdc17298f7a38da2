#!/usr/bin/env python3
"""What foveation saves in a video stream: bits per frame of x264 at a
fixed quantiser with and without cudafoveate, and the quality kept in the
fovea.

    python3 tools/foveated-bitrate.py [--size WxH] [--frames N]
                                      [--quantizer Q] [--svg plot.svg]
                                      [--corner-eccentricity DEG]
                                      photo...

Each photograph gives a clip: a camera pans across it. Every clip is
encoded by x264enc at the constant quantiser (pass=quant) without
foveation and after cudafoveate at strengths 1, 2 and 3, the gaze either
held at the centre or moving on a circle (bound to the frames' timestamps
through a GstController), and decoded again (avdec_h264). It prints, per
clip, gaze and strength, the kilobits per frame, the saving against the
clip without foveation, and the PSNR of the decoded luma against the
source inside the fovea (a disc of 3 % of the frame's width around the
gaze) next to the same without foveation. With --svg it draws the saving
against the strength. --corner-eccentricity is the viewing geometry: the
degrees from the gaze to the frame's corner for the viewer (cudafoveate's
property; 100 by default, a wide field; a desktop monitor at arm's length
is about 27). Needs the plugin on GST_PLUGIN_PATH, PyGObject,
numpy, gstreamer1.0-plugins-ugly (x264enc) and gstreamer1.0-libav
(avdec_h264); runs on the backend GST_CUDAVISION_BACKEND names.
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


def clip(photo, width, height, frames):
    """A pan across @photo, enlarged (bilinear) so the frame fits twice."""
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
        t = n / max(1, frames - 1)
        x = int(round((bw - width) * (0.1 + 0.8 * t)))
        y = int(round((bh - height) * (0.3 + 0.4 * t)))
        out.append(np.ascontiguousarray(big[y:y + height, x:x + width]))
    return out


def gaze(n, frames, moving):
    if not moving:
        return 0.5, 0.5
    a = 2 * math.pi * n / frames
    return 0.5 + 0.3 * math.cos(a), 0.5 + 0.3 * math.sin(a)


def luma(rgba):
    return (0.299 * rgba[..., 0] + 0.587 * rgba[..., 1]
            + 0.114 * rgba[..., 2]).astype(np.float64)


def encode(frames, strength, moving, quantizer, corner):
    """Bytes per frame and the decoded RGBA frames."""
    h, w = frames[0].shape[:2]
    fovea = ("" if strength == 0 else
             f"cudavisionupload ! cudafoveate name=fov strength={strength} mode={MODE} "
             f"corner-eccentricity={corner} ! cudavisiondownload ! ")
    pipeline = Gst.parse_launch(
        f"appsrc name=src format=time caps=video/x-raw,format=RGBA,width={w},"
        f"height={h},framerate={FPS}/1 ! {fovea}videoconvert "
        "! video/x-raw,format=I420 ! x264enc pass=quant "
        f"quantizer={quantizer} speed-preset=faster bframes=0 "
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
                source.set(n * Gst.SECOND // FPS, gaze(n, len(frames), moving)[i])
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
    sizes, decoded = [], []
    bits, dec = pipeline.get_by_name("bits"), pipeline.get_by_name("dec")
    while (sample := bits.emit("try-pull-sample", 0)) is not None:
        sizes.append(sample.get_buffer().get_size())
    while (sample := dec.emit("try-pull-sample", 0)) is not None:
        buf = sample.get_buffer()
        data = np.frombuffer(buf.extract_dup(0, buf.get_size()), dtype=np.uint8)
        decoded.append(data.reshape(h, -1)[:, :4 * w].reshape(h, w, 4))
    pipeline.set_state(Gst.State.NULL)
    assert len(sizes) == len(frames) == len(decoded), (len(sizes), len(decoded))
    return np.array(sizes), decoded


def fovea_psnr(frames, decoded, moving):
    h, w = frames[0].shape[:2]
    yy, xx = np.mgrid[0:h, 0:w]
    errors = []
    for n, (a, b) in enumerate(zip(frames, decoded)):
        gx, gy = gaze(n, len(frames), moving)
        disc = (xx - gx * w) ** 2 + (yy - gy * h) ** 2 <= (FOVEA * w) ** 2
        errors.append(np.mean((luma(a)[disc] - luma(b)[disc]) ** 2))
    return 10 * math.log10(255.0 ** 2 / max(np.mean(errors), 1e-12))


def svg_plot(points, path):
    """Saving (%) against strength, a polyline per clip and gaze."""
    width, height, left, bottom = 520, 340, 60, 40
    colours = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b"]
    top = max(10, max(v for line in points.values() for _, v in line))
    top = 10 * math.ceil(top / 10)

    def xy(strength, saving):
        return (left + strength / 3 * (width - left - 20),
                height - bottom - saving / top * (height - bottom - 20))
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" '
             f'height="{height}" font-family="sans-serif" font-size="12">',
             f'<rect width="{width}" height="{height}" fill="white"/>']
    for s in range(4):
        x, y = xy(s, 0)
        parts.append(f'<text x="{x}" y="{y + 18}" text-anchor="middle">{s}</text>')
    for v in range(0, top + 1, 10):
        x, y = xy(0, v)
        parts.append(f'<line x1="{x}" y1="{y}" x2="{width - 20}" y2="{y}" '
                     'stroke="#ddd"/>')
        parts.append(f'<text x="{x - 6}" y="{y + 4}" text-anchor="end">{v} %</text>')
    parts.append(f'<text x="{width / 2}" y="{height - 6}" text-anchor="middle">'
                 'cudafoveate strength</text>')
    parts.append('<text x="14" y="16">bits saved at a fixed x264 quantiser</text>')
    for i, (label, line) in enumerate(sorted(points.items())):
        c = colours[i % len(colours)]
        pts = " ".join("%.1f,%.1f" % xy(s, v) for s, v in line)
        parts.append(f'<polyline points="{pts}" fill="none" stroke="{c}" '
                     'stroke-width="2"/>')
        parts.append(f'<text x="{left + 10}" y="{40 + 16 * i}" fill="{c}">'
                     f'{label}</text>')
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
    args = ap.parse_args()
    width, height = (int(v) for v in args.size.split("x"))

    Gst.init(None)
    print(f"{width}x{height}, {args.frames} frames at {FPS} fps, x264 quantizer "
          f"{args.quantizer}, corner eccentricity {args.corner_eccentricity:g} "
          "degrees\n")
    print("| clip | gaze | strength | kbit/frame | saved | fovea PSNR dB | "
          "without foveation dB |\n|---|---|---|---|---|---|---|")
    points = {}
    for path in args.photos:
        name = path.rsplit("/", 1)[-1].rsplit(".", 1)[0]
        frames = clip(load_photo(path), width, height, args.frames)
        for moving in (False, True):
            sizes0, decoded0 = encode(frames, 0, moving, args.quantizer,
                                      args.corner_eccentricity)
            plain = fovea_psnr(frames, decoded0, moving)
            kbit0 = 8 * sizes0.mean() / 1000
            label = f"{name}, gaze {'moving' if moving else 'centred'}"
            points[label] = [(0, 0.0)]
            print(f"| {name} | {'moving' if moving else 'centre'} | off | "
                  f"{kbit0:.1f} | | {plain:.2f} | {plain:.2f} |")
            for strength in (1, 2, 3):
                sizes, decoded = encode(frames, strength, moving,
                                        args.quantizer,
                                        args.corner_eccentricity)
                kbit = 8 * sizes.mean() / 1000
                saved = 100 * (1 - kbit / kbit0)
                points[label].append((strength, saved))
                print(f"| {name} | {'moving' if moving else 'centre'} | "
                      f"{strength} | {kbit:.1f} | {saved:.1f} % | "
                      f"{fovea_psnr(frames, decoded, moving):.2f} | {plain:.2f} |",
                      flush=True)
    if args.svg:
        svg_plot(points, args.svg)


if __name__ == "__main__":
    main()
