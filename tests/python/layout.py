#!/usr/bin/env python3
# gst-cuda-vision. Copyright (C) 2026 The gst-cuda-vision authors.
# SPDX-License-Identifier: LGPL-2.1-or-later (GNU Lesser General Public
# License 2.1 or later, COPYING).
"""The plugin's wings include only their own files and those of wings
below them (gst/meson.build, docs/design.md): fails, naming the include,
where one reaches up. Usage: layout.py SOURCE_ROOT"""
import os
import re
import sys

# bottom to top; '' is gst/ itself (the shared caps vocabulary and helpers)
WINGS = ['', 'device', 'memory', 'base', 'transfer', 'correlation',
         'elements']


def main(root):
    gst = os.path.join(root, 'gst')
    wing_of = {}
    for wing in WINGS:
        folder = os.path.join(gst, wing)
        for name in os.listdir(folder):
            if name.endswith(('.c', '.h')):
                wing_of[name] = wing
    problems = []
    for name, wing in sorted(wing_of.items()):
        if name == 'plugin.c':
            continue  # the roof: it registers every element
        path = os.path.join(gst, wing, name)
        with open(path, encoding='utf-8') as source:
            for number, line in enumerate(source, 1):
                match = re.match(r'\s*#\s*include\s+"([^"]+)"', line)
                if not match:
                    continue
                header = os.path.basename(match.group(1))
                if header not in wing_of:
                    continue  # the core's or a generated header
                if WINGS.index(wing_of[header]) > WINGS.index(wing):
                    problems.append('%s:%d includes %s, of the wing %s above '
                                    'it' % (os.path.join('gst', wing, name),
                                            number, header,
                                            wing_of[header] or 'gst/'))
    for problem in problems:
        print(problem)
    print('%d files, %d includes reaching up' % (len(wing_of), len(problems)))
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1]))
