#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Prints how many distinct pixel values an XWD file (xwd's output, Z format) holds: 1 for an
# image of nothing, many for one showing a window's text, 0 for no image (the server refused).
# usage: xwd-colours.py FILE.xwd
import struct
import sys

with open(sys.argv[1], 'rb') as f:
    data = f.read()
if len(data) < 100:
    print(0)
    sys.exit(0)
fields = struct.unpack('>25I', data[0:100])
header_size, height, bytes_per_line, ncolors = fields[0], fields[5], fields[12], fields[19]
start = header_size + ncolors * 12
pixels = data[start:start + height * bytes_per_line]
values = {pixels[i:i + 4] for i in range(0, len(pixels) - 3, 4)}
print(len(values))
