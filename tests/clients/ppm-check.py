#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# ppm-check.py: what a capture of garnet-drive (P6 PPM) shows, for the real-clients matrix.
#   size SHOT.ppm                      prints WIDTHxHEIGHT
#   changed SHOT.ppm BASE.ppm X Y W H  prints "inside N outside M": pixels that differ from
#                                      BASE inside the box and outside it
#   colour SHOT.ppm RRGGBB X Y W H     prints how many pixels of the box are not that colour
#   matches SHOT.ppm REF.png X Y W H   exit 0 when the box is the same in both (RGB), 1 not
# Only the standard library (PNGs through tests/security/png-equal.py's decoder).
import importlib.util
import os
import sys


def read_ppm(path):
    data = open(path, 'rb').read()
    fields, pos = [], 0
    while len(fields) < 4:
        while data[pos:pos + 1].isspace():
            pos += 1
        start = pos
        while not data[pos:pos + 1].isspace():
            pos += 1
        fields.append(data[start:pos])
    if fields[0] != b'P6' or fields[3] != b'255':
        sys.exit(f'{path}: not an 8-bit P6 PPM')
    width, height = int(fields[1]), int(fields[2])
    pixels = data[pos + 1:]
    return width, height, [pixels[y * width * 3:(y + 1) * width * 3] for y in range(height)]


def read_png(path):
    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location(
        'png_equal', os.path.join(here, '..', 'security', 'png-equal.py'))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.decode(path)


def box(args):
    x, y, w, h = (int(v) for v in args)
    return x, y, x + w, y + h


def main(argv):
    what = argv[1]
    width, height, rows = read_ppm(argv[2])
    if what == 'size':
        print(f'{width}x{height}')
        return 0
    x1, y1, x2, y2 = box(argv[4:8])
    if what == 'changed':
        bw, bh, base = read_ppm(argv[3])
        if (bw, bh) != (width, height):
            sys.exit('the captures differ in size')
        inside = outside = 0
        for y in range(height):
            for x in range(width):
                if rows[y][x * 3:x * 3 + 3] != base[y][x * 3:x * 3 + 3]:
                    if x1 <= x < x2 and y1 <= y < y2:
                        inside += 1
                    else:
                        outside += 1
        print(f'inside {inside} outside {outside}')
        return 0
    if what == 'colour':
        want = bytes.fromhex(argv[3])
        print(sum(1 for y in range(y1, y2) for x in range(x1, x2)
                  if rows[y][x * 3:x * 3 + 3] != want))
        return 0
    if what == 'matches':
        rw, rh, ref = read_png(argv[3])
        for y in range(y1, y2):
            for x in range(x1, x2):
                if rows[y][x * 3:x * 3 + 3] != ref[y][x * 3:x * 3 + 3]:
                    print(f'pixel {x},{y} is {tuple(rows[y][x * 3:x * 3 + 3])}, '
                          f'the reference {tuple(ref[y][x * 3:x * 3 + 3])}')
                    return 1
        return 0
    sys.exit(f'unknown check {what}')


sys.exit(main(sys.argv))
