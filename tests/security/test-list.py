#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Writes a VM test list (`name<TAB>PROGRAM name`) with one line per TEST()/TEST_WITH() of a
harness test source, so a test added to the source runs without touching meson.

usage: test-list.py SOURCE PROGRAM OUTPUT
"""
import re
import sys


def main():
    source, program, output = sys.argv[1:4]
    with open(source) as f:
        names = re.findall(r"^TEST(?:_WITH)?\((\w+)", f.read(), re.M)
    if not names:
        sys.exit(f"test-list.py: {source} has no tests")
    with open(output, "w") as f:
        f.writelines(f"{name}\t{program} {name}\n" for name in names)


if __name__ == "__main__":
    main()
