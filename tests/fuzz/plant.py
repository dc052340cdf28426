#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Writes a copy of a source file with one line taken out: a bug planted on purpose for a
fuzzer's inverted self-test, never in the source tree. Fails if the line is not there (the
code moved on; the plant must follow). usage: plant.py INPUT OUTPUT LINE"""
import sys

src, out, line = sys.argv[1:4]
with open(src, encoding="utf-8") as f:
    lines = f.readlines()
kept = [l for l in lines if l.strip() != line.strip()]
if len(kept) != len(lines) - 1:
    sys.exit(f"plant.py: {src} has {len(lines) - len(kept)} lines '{line}', not one")
with open(out, "w", encoding="utf-8") as f:
    f.writelines(kept)
