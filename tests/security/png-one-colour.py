#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# png-one-colour.py IMAGE.png R,G,B: exit 0 when every pixel of IMAGE is that colour (within 2
# per channel: the lock's single-pixel buffer is rounded), 1 otherwise, saying where not.
import importlib.util
import os
import sys

spec = importlib.util.spec_from_file_location(
    'png_equal', os.path.join(os.path.dirname(os.path.abspath(__file__)), 'png-equal.py'))
png_equal = importlib.util.module_from_spec(spec)
spec.loader.exec_module(png_equal)
width, height, rows = png_equal.decode(sys.argv[1])
want = [int(v) for v in sys.argv[2].split(',')]
for y in range(height):
    row = rows[y]
    for x in range(width):
        got = row[x * 3:x * 3 + 3]
        if any(abs(got[i] - want[i]) > 2 for i in range(3)):
            print(f'pixel {x},{y} is {tuple(got)}, not {tuple(want)}')
            sys.exit(1)
sys.exit(0)
