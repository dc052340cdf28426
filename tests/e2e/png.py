# SPDX-License-Identifier: MIT
"""Reads the PNG files garnet writes (8-bit RGB or RGBA, not interlaced) into pixel tuples."""

import struct
import sys
import zlib


def read_png(path):
    """Decodes the 8-bit RGB or RGBA, non-interlaced PNGs that garnet writes."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError(f"{path} is not a PNG")
    pos, idat = 8, b""
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            w, h, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", body)
            if depth != 8 or colour not in (2, 6) or interlace:
                raise ValueError(f"{path}: unsupported PNG (depth {depth}, colour {colour})")
            bpp = 3 if colour == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw = zlib.decompress(idat)
    stride = w * bpp
    prev = bytearray(stride)
    out = []
    for y in range(h):
        ftype = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if ftype == 1:
                line[i] = (line[i] + a) & 255
            elif ftype == 2:
                line[i] = (line[i] + b) & 255
            elif ftype == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif ftype == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        out += [tuple(line[i:i + 3]) for i in range(0, stride, bpp)]
        prev = line
    return w, h, out


def main(argv):
    """png.py FILE 0xRRGGBB: prints how many pixels of FILE have that colour."""
    _, _, pixels = read_png(argv[1])
    v = int(argv[2], 16)
    print(sum(1 for p in pixels if p == ((v >> 16) & 255, (v >> 8) & 255, v & 255)))


if __name__ == "__main__":
    main(sys.argv)
