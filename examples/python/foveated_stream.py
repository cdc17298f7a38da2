#!/usr/bin/env python3
# gst-cuda-vision. Copyright (C) 2026 The gst-cuda-vision authors.
# SPDX-License-Identifier: LGPL-2.1-or-later (GNU Lesser General Public
# License 2.1 or later, COPYING).
"""Foveated video streaming: the gaze arrives over UDP, the video leaves
as H.264 over RTP, with full detail only where the viewer looks.

    python3 examples/python/foveated_stream.py [--source DESC] [--host H]
        [--port 5000] [--gaze-port 5001] [--strength 2] [--size WxH]
        [--loopback]

The sender foveates each frame around the latest gaze point (cudafoveate,
smooth mode), encodes it with x264 for low latency and sends it as RTP.
The viewer's side sends gaze points as UDP datagrams of two numbers, the
fixation in frame coordinates from 0 to 1 ("0.25 0.6"), from an eye
tracker or the mouse. See it on the viewer's side with:

    gst-launch-1.0 udpsrc port=5000 caps="application/x-rtp,media=video,\\
        encoding-name=H264,payload=96,clock-rate=90000" ! rtph264depay \\
        ! avdec_h264 ! videoconvert ! autovideosink

and steer it, for example, with
`echo "0.2 0.3" | nc -u -w0 SENDER 5001`. With --loopback the script also
receives its own stream and sends itself gaze points, and checks that
both arrive (a test without a network). docs/benchmarks/foveate.md has what
foveation saves in bits. Needs the plugin on GST_PLUGIN_PATH, PyGObject
and gstreamer1.0-plugins-ugly (x264enc).
"""
import argparse
import socket
import sys

import gi

gi.require_version("Gst", "1.0")
from gi.repository import GLib, Gst  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--source", default="videotestsrc pattern=smpte is-live=true")
    ap.add_argument("--host", default="127.0.0.1")
    ap.add_argument("--port", type=int, default=5000)
    ap.add_argument("--gaze-port", type=int, default=5001)
    ap.add_argument("--strength", type=float, default=2.0)
    ap.add_argument("--size", default="1280x720")
    ap.add_argument("--loopback", action="store_true")
    args = ap.parse_args()

    Gst.init(None)
    source, size = args.source, args.size
    if args.loopback:
        source = "videotestsrc num-buffers=20 pattern=ball is-live=true"
        size = "320x180"
    width, height = size.split("x")
    sender = Gst.parse_launch(
        f"{source} ! videoscale ! videoconvert ! video/x-raw,format=RGBA,"
        f"width={width},height={height} ! cudavisionupload "
        f"! cudafoveate name=fov mode=smooth strength={args.strength} "
        "! cudavisiondownload ! videoconvert ! x264enc tune=zerolatency "
        "speed-preset=ultrafast key-int-max=30 ! rtph264pay config-interval=1 "
        f"pt=96 ! udpsink host={args.host} port={args.port}")
    fov = sender.get_by_name("fov")
    loop = GLib.MainLoop()
    gaze_points = []

    gaze = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    gaze.bind(("0.0.0.0", args.gaze_port))
    gaze.setblocking(False)

    def on_gaze(fd, condition):
        try:
            x, y = (float(v) for v in gaze.recv(64).split()[:2])
        except (ValueError, OSError):
            return True
        fov.set_property("fixation-x", min(max(x, 0.0), 1.0))
        fov.set_property("fixation-y", min(max(y, 0.0), 1.0))
        gaze_points.append((x, y))
        return True

    GLib.io_add_watch(GLib.IOChannel.unix_new(gaze.fileno()), GLib.PRIORITY_DEFAULT,
                      GLib.IOCondition.IN, on_gaze)

    def on_message(bus, message):
        if message.type == Gst.MessageType.ERROR:
            print("error:", message.parse_error()[0].message, file=sys.stderr)
            loop.quit()
        elif message.type == Gst.MessageType.EOS:
            loop.quit()

    bus = sender.get_bus()
    bus.add_signal_watch()
    bus.connect("message", on_message)

    received = []
    receiver = None
    if args.loopback:
        receiver = Gst.parse_launch(
            f"udpsrc port={args.port} caps=\"application/x-rtp,media=video,"
            "encoding-name=H264,payload=96,clock-rate=90000\" ! rtph264depay "
            "! fakesink name=sink signal-handoffs=true")
        receiver.get_by_name("sink").connect(
            "handoff", lambda sink, buf, pad: received.append(buf.get_size()))
        receiver.set_state(Gst.State.PLAYING)
        out = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        GLib.timeout_add(300, lambda: out.sendto(b"0.25 0.6", (
            "127.0.0.1", args.gaze_port)) and False)

    sender.set_state(Gst.State.PLAYING)
    try:
        loop.run()
    except KeyboardInterrupt:
        pass
    sender.set_state(Gst.State.NULL)
    if receiver:
        receiver.set_state(Gst.State.NULL)
        print(f"received {len(received)} H.264 frames "
              f"({sum(received)} bytes), gaze points {gaze_points}")
        assert len(received) > 0, "no video came back"
        assert gaze_points == [(0.25, 0.6)], gaze_points
        assert abs(fov.get_property("fixation-x") - 0.25) < 1e-9


if __name__ == "__main__":
    main()
