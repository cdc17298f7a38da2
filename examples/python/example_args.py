# gst-cuda-vision: argument types of the Python examples, each refusing
# what the example cannot use with a usage line (argparse's own).
# Copyright (C) 2026 gst-cuda-vision developers
# SPDX-License-Identifier: LGPL-2.1-or-later
import argparse
import math


def count(minimum, maximum=100000):
    """An int type of minimum to maximum."""
    def parse(text):
        try:
            value = int(text)
        except ValueError:
            value = None
        if value is None or not minimum <= value <= maximum:
            raise argparse.ArgumentTypeError(
                f"{text!r} is not a whole number of {minimum} to {maximum}")
        return value
    return parse


def frame_size(text):
    """WxH, each side 1 to 8192."""
    parts = text.split("x")
    try:
        width, height = (int(v) for v in parts)
    except ValueError:
        width = height = 0
    if not (1 <= width <= 8192 and 1 <= height <= 8192):
        raise argparse.ArgumentTypeError(
            f"{text!r} is not WxH with sides of 1 to 8192")
    return width, height


def number_pair(limit):
    """X,Y: two finite numbers, each of at most limit in magnitude."""
    def parse(text):
        try:
            pair = tuple(float(v) for v in text.split(","))
        except ValueError:
            pair = ()
        if len(pair) != 2 or not all(math.isfinite(v) and abs(v) <= limit
                                     for v in pair):
            raise argparse.ArgumentTypeError(
                f"{text!r} is not X,Y with each of at most {limit}")
        return pair
    return parse
