#!/usr/bin/env python3
# gst-cuda-vision: runs an example with arguments it must refuse, and
# checks that it does so with argparse's usage line and exit status 2, not
# a traceback or a crash.
# Copyright (C) 2026 gst-cuda-vision developers
# SPDX-License-Identifier: LGPL-2.1-or-later
import subprocess
import sys

result = subprocess.run([sys.executable] + sys.argv[1:], capture_output=True,
                        text=True, timeout=120)
if result.returncode != 2 or "usage:" not in result.stderr \
        or "Traceback" in result.stderr:
    sys.exit(f"{sys.argv[1:]}: exit {result.returncode}, "
             f"stderr:\n{result.stderr}")
print(result.stderr.strip().splitlines()[-1])
