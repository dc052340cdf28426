#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# png-equal.py A.png B.png: exit 0 when both 8-bit RGB/RGBA PNGs have the same size and the
# same RGB pixels, 1 otherwise (saying where they differ). Only the standard library, so the
# test does not trust the PNG writer it is checking.
import struct
import sys
import zlib


def decode(path):
    data = open(path, 'rb').read()
    if data[:8] != b'\x89PNG\r\n\x1a\n':
        sys.exit(f'{path}: not a PNG')
    pos, idat, width = 8, b'', None
    while pos < len(data):
        length, kind = struct.unpack('>I4s', data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b'IHDR':
            width, height, depth, color, _, _, interlace = struct.unpack('>IIBBBBB', body)
            if depth != 8 or color not in (2, 6) or interlace:
                sys.exit(f'{path}: only 8-bit RGB or RGBA without interlace')
            bpp = 3 if color == 2 else 4
        elif kind == b'IDAT':
            idat += body
        pos += 12 + length
    raw = zlib.decompress(idat)
    stride = width * bpp
    rows, prev = [], bytearray(stride)
    for y in range(height):
        line = raw[y * (stride + 1):(y + 1) * (stride + 1)]
        f, cur = line[0], bytearray(line[1:])
        for i in range(stride):
            a = cur[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if f == 1:
                cur[i] = (cur[i] + a) & 0xff
            elif f == 2:
                cur[i] = (cur[i] + b) & 0xff
            elif f == 3:
                cur[i] = (cur[i] + (a + b) // 2) & 0xff
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pred = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
                cur[i] = (cur[i] + pred) & 0xff
        rows.append(bytes(cur[i] for i in range(stride) if bpp == 3 or i % 4 != 3))
        prev = cur
    return width, height, rows


def main():
    (wa, ha, ra), (wb, hb, rb) = decode(sys.argv[1]), decode(sys.argv[2])
    if (wa, ha) != (wb, hb):
        print(f'sizes differ: {wa}x{ha} and {wb}x{hb}')
        return 1
    for y in range(ha):
        if ra[y] != rb[y]:
            x = next(i for i in range(len(ra[y])) if ra[y][i] != rb[y][i]) // 3
            print(f'first difference at {x},{y}')
            return 1
    return 0


if __name__ == '__main__':
    sys.exit(main())
