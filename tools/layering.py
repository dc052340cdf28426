#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Checks that libgarnet's layers depend downwards only.

Layers, bottom first: core (compositor/core, compositor/render), then protocols and backends
(compositor/protocols, compositor/backend), then the shell (compositor/shell), then security
(compositor/security), then what wires them (compositor/*.c: globals.c, which decides the globals
and the order the layers are made and freed in, and the executable's files). An edge goes upwards when a file
includes a header of a higher layer, or calls a function defined in a higher layer (read from
the object files with nm, so that a call through any header counts).

Upward edges that exist today are listed, with a reason, in tests/unit/layering-exceptions.txt
("from -> to  # why"); a new one fails, and so does a listed one that is gone (the list only
shrinks). usage: layering.py SOURCE_ROOT BUILD_DIR [--print]
"""
import json
import os
import re
import subprocess
import sys

LAYERS = [
    ("core", ("compositor/core/", "compositor/render/")),
    ("protocols", ("compositor/protocols/", "compositor/backend/")),
    ("shell", ("compositor/shell/",)),
    ("security", ("compositor/security/",)),
    ("main", ("compositor/",)),  # globals.c and the executable
]


def layer_of(path):
    for rank, (_, prefixes) in enumerate(LAYERS):
        if path.startswith(prefixes):
            return rank
    return None


def objects(src, build):
    """(source path relative to SOURCE_ROOT, object path) of every compositor file."""
    with open(os.path.join(build, "compile_commands.json")) as f:
        entries = json.load(f)
    out = []
    for e in entries:
        path = os.path.relpath(os.path.normpath(os.path.join(e["directory"], e["file"])), src)
        if path.startswith("compositor/") and path.endswith(".c"):
            out.append((path, os.path.join(build, e["output"])))
    return out


def symbols(objs):
    """{object: (defined, undefined) function symbols}, from one nm run over all of them."""
    text = subprocess.run(["nm", "-A", *objs], capture_output=True, text=True,
                          check=True).stdout
    out = {obj: (set(), set()) for obj in objs}
    for line in text.splitlines():
        obj, _, rest = line.partition(": ") if ": " in line else line.partition(":")
        parts = rest.split()
        if obj not in out:
            continue
        if len(parts) == 3 and parts[1] in "TtWw":
            out[obj][0].add(parts[2])
        elif len(parts) == 2 and parts[0] == "U":
            out[obj][1].add(parts[1])
    return out


INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def includes(src, path):
    with open(os.path.join(src, path), encoding="utf-8") as f:
        text = f.read()
    for name in INCLUDE.findall(text):
        target = os.path.normpath(os.path.join(os.path.dirname(path), name))
        if os.path.exists(os.path.join(src, target)):
            yield target


def upward_edges(src, objs):
    owner = {}
    uses = {}
    syms = symbols([obj for _, obj in objs])
    for path, obj in objs:
        defined, used = syms[obj]
        for s in defined:
            owner.setdefault(s, path)
        uses[path] = used
    edges = {}
    for path, used in uses.items():
        for s in used:
            to = owner.get(s)
            if to and to != path and layer_of(to) > layer_of(path):
                edges.setdefault((path, to), set()).add(s)
    headers = [p for p, _ in objs] + [
        os.path.relpath(os.path.join(d, f), src)
        for d, _, files in os.walk(os.path.join(src, "compositor"))
        for f in files if f.endswith(".h")
    ]
    for path in headers:
        if layer_of(path) is None:
            continue
        for target in includes(src, path):
            rank = layer_of(target)
            if rank is not None and rank > layer_of(path):
                edges.setdefault((path, target), set()).add("#include")
    return edges


def main():
    src, build = sys.argv[1], sys.argv[2]
    objs = objects(src, build)
    edges = upward_edges(src, objs)
    if "--print" in sys.argv:
        for (a, b), syms in sorted(edges.items()):
            print(f"{a} -> {b}  # {', '.join(sorted(syms))}")
        return 0
    listed = set()
    with open(os.path.join(src, "tests/unit/layering-exceptions.txt")) as f:
        for line in f:
            line = line.split("#", 1)[0].strip()
            if line:
                a, b = (x.strip() for x in line.split("->"))
                listed.add((a, b))
    # No edge is a pass only if there was something to read: every layer's object files.
    empty = [name for rank, (name, _) in enumerate(LAYERS)
             if not any(layer_of(path) == rank for path, _ in objs)]
    status = 1 if empty else 0
    n = 1
    print(f"{'not ok' if empty else 'ok'} 1 read {len(objs)} object files, in every layer"
          + (f"  # no object files of: {', '.join(empty)}" if empty else ""))
    for (a, b), syms in sorted(edges.items()):
        n += 1
        ok = (a, b) in listed
        print(f"{'ok' if ok else 'not ok'} {n} {a} -> {b}"
              + ("" if ok else f"  # new upward dependency: {', '.join(sorted(syms))}"))
        status |= not ok
    for a, b in sorted(listed - set(edges)):
        n += 1
        print(f"not ok {n} {a} -> {b}  # listed as an exception but gone: remove the line")
        status = 1
    print(f"1..{n}")
    return status


if __name__ == "__main__":
    sys.exit(main())
