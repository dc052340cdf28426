#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Writes the batch fuzzer's seeds: a valid batch for each command of garnet_cmd.c's table,
with and without relocations, plus a few refused ones (the input format is described at the top
of batch-fuzz.c). The seeds are checked in; run this again only when the format changes.

usage: batch-seeds.py DIRECTORY"""
import os
import struct
import sys

NOOP, USER_INTERRUPT, FLUSH, END = 0x00000000, 0x01000000, 0x02000000, 0x05000000
STORE_IMM = 0x10000001                   # length field: 3 dwords - 2
STORE_IMM_GTT = STORE_IMM | 1 << 22
BATCH_START = 0x18800000
WRITE_ALPHA_RGB = 3 << 20
COLOR_BLT = 0x54000004 | WRITE_ALPHA_RGB  # 6 dwords
SRC_COPY_BLT = 0x54c00006 | WRITE_ALPHA_RGB  # 8 dwords
RENDER = 0x2


def seed(objects, batch, isolation=False, lut=False, start=0, relocs=()):
    """objects: (pages, gap in pages) each, the last holds the batch; relocs: tuples of
    (object patched, target, offset, delta, read domains, write domain, presumed right)."""
    mode = isolation | lut << 1 | (len(objects) - 1) << 2
    out = bytes([mode])
    for pages, gap in objects:
        out += bytes([pages - 1, gap])
    out += bytes([start, len(relocs)])
    for obj, target, offset, delta, read, write, right in relocs:
        out += bytes([obj, target]) + struct.pack("<II", offset, delta)
        out += bytes([read, write, right, 0])
    return out + struct.pack(f"<{len(batch)}I", *batch)


def xy(x, y):
    return y << 16 | x


def seeds():
    # One page at 0x1000 holding the batch only.
    alone = [(1, 1)]
    # A target page at 0x1000, the batch right after it at 0x2000.
    pair = [(1, 1), (1, 0)]
    # Two 16 KiB surfaces at 0x1000 and 0x5000, the batch at 0x9000.
    surfaces = [(4, 1), (4, 0), (1, 0)]
    yield "mi-noop-interrupt-flush-end", seed(alone, [NOOP, 0x12345, USER_INTERRUPT, FLUSH | 0x3f,
                                                      END])
    yield "mi-store-data-imm", seed(pair, [STORE_IMM, 0x1ffc, 0xdeadbeef,
                                           STORE_IMM_GTT, 0x1000, 1, END])
    yield "mi-store-data-imm-into-batch", seed(alone, [STORE_IMM, 0x1000, 7, END])
    yield "mi-batch-buffer-start-loop", seed(pair, [NOOP, STORE_IMM, 0x1000, 1,
                                                    BATCH_START, 0x2004, END])
    yield "mi-batch-buffer-start-unaligned-batch", seed(pair, [BATCH_START | 0x40, 0x2010, END],
                                                        start=16)
    yield "xy-color-blt", seed(surfaces[:1] + [(1, 0)],
                               [COLOR_BLT, 3 << 24 | 0xf0 << 16 | 256, xy(0, 0), xy(64, 64),
                                0x1000, 0xff00ff00, END])
    yield "xy-color-blt-rgb-only", seed(surfaces[:1] + [(1, 0)],
                                        [COLOR_BLT & ~(1 << 21), 3 << 24 | 0xf0 << 16 | 128,
                                         xy(3, 5), xy(17, 9), 0x1000, 0x11223344, END])
    yield "xy-src-copy-blt", seed(surfaces,
                                  [SRC_COPY_BLT, 3 << 24 | 0xcc << 16 | 256, xy(0, 0),
                                   xy(64, 64), 0x1000, xy(0, 0), 256, 0x5000, END])
    yield "xy-src-copy-blt-overlapping", seed(surfaces,
                                              [SRC_COPY_BLT & ~(1 << 20),
                                               3 << 24 | 0xcc << 16 | 256, xy(2, 2),
                                               xy(40, 40), 0x1000, xy(0, 0), 256, 0x1000, END])
    yield "xy-blt-empty", seed(surfaces,
                               [SRC_COPY_BLT, 3 << 24 | 0xcc << 16 | 256, xy(9, 9), xy(9, 30),
                                0x1000, xy(0, 0), 256, 0x5000,
                                COLOR_BLT, 3 << 24 | 0xf0 << 16 | 4, xy(5, 5), xy(1, 1), 0, 0,
                                END])
    # Relocations: the STORE_IMM address (dword 1) patched with object 0's address + 8.
    yield "reloc-store", seed(pair, [STORE_IMM, 0, 42, END],
                              relocs=[(1, 1, 4, 8, RENDER, RENDER, 0)])
    yield "reloc-store-lut", seed(pair, [STORE_IMM, 0, 42, END], lut=True,
                                  relocs=[(1, 0, 4, 0xffc, RENDER, 0, 0)])
    yield "reloc-fast-path", seed(pair, [STORE_IMM, 0x1000, 42, END],
                                  relocs=[(1, 1, 4, 0, RENDER, 0, 1), (0, 2, 0, 0, RENDER, 0, 0)])
    yield "reloc-blt", seed(surfaces,
                            [SRC_COPY_BLT, 3 << 24 | 0xcc << 16 | 64, xy(0, 0), xy(16, 16), 0,
                             xy(0, 0), 64, 0, END],
                            relocs=[(2, 1, 16, 0, RENDER, RENDER, 0),
                                    (2, 2, 28, 64, RENDER, 0, 0)])
    # Isolation mode: addresses are the engine's to check, and this one faults.
    yield "isolation-store-outside", seed(pair, [STORE_IMM, 0x40000, 1, END], isolation=True)
    # Refused: an unknown command, a wrong length, a jump forward, no end.
    yield "refused-unknown", seed(alone, [0x7fffffff, END])
    yield "refused-length", seed(alone, [STORE_IMM + 1, 0x1000, 0, 0, END])
    yield "refused-jump-forward", seed(alone, [BATCH_START, 0x1008, END])
    yield "refused-no-end", seed(alone, [NOOP, NOOP])


def main():
    os.makedirs(sys.argv[1], exist_ok=True)
    for name, data in seeds():
        with open(os.path.join(sys.argv[1], name), "wb") as f:
            f.write(data)


if __name__ == "__main__":
    main()
