#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Writes the VM test list of suite `kernel`: one line per subtest of every test program
(`PROGRAM@SUBTEST<TAB>PROGRAM SUBTEST`), then the unload check, which must run last.

usage: gen-list.py OUTPUT UNLOAD_SCRIPT [--boot PARAMS] [--script NAME SCRIPT]... PROGRAM...
(a --script becomes the subtest `NAME`, run with sh, after the programs' subtests; with --boot,
only the subtests that need garnet loaded with PARAMS, `PROGRAM --list PARAMS`, and programs
with none are left out)
"""
import os
import subprocess
import sys


def main():
    output, unload, programs = sys.argv[1], sys.argv[2], sys.argv[3:]
    scripts = []
    boot = []
    if programs[:1] == ["--boot"]:
        boot = [programs[1]]
        programs = programs[2:]
    while programs[:1] == ["--script"]:
        scripts.append(f"{programs[1]}\tsh {programs[2]}")
        programs = programs[3:]
    lines = []
    for prog in programs:
        base = os.path.basename(prog)
        names = subprocess.run([prog, "--list"] + boot, check=True, capture_output=True,
                               text=True).stdout.split()
        if not names and boot:
            continue
        if not names:
            sys.exit(f"gen-list.py: {prog} lists no subtests")
        lines += [f"{base}@{name}\t{prog} {name}" for name in names]
    if boot and not lines:
        sys.exit(f"gen-list.py: no program lists subtests for '{boot[0]}'")
    lines += scripts
    lines.append(f"garnet_module@unloads-with-no-objects-left\tsh {unload}")
    with open(output, "w") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
