#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Checks that libgarnet's layers depend downwards only.

Layers, bottom first: core (compositor/core, compositor/render), then protocols and backends
(compositor/protocols, compositor/backend, and compositor/xwayland, which speaks X11 to the X
servers garnet runs as the protocols speak Wayland), then the shell (compositor/shell), then security
(compositor/security), then what wires them (compositor/*.c: globals.c, which decides the globals
and the order the layers are made and freed in, and the executable's files). An edge goes upwards when a file
includes a header of a higher layer (a .c file or a header: a lower layer's header that includes
a higher one would hand the higher layer to every file that includes it), or calls a function
defined in a higher layer (read from the object files with nm, so that a call through any header
counts).

Each object has a header of its own in its layer (doc/architecture.md has the map); there is no
umbrella header that gathers them. compositor/core/internal.h was one and is gone: a file that
includes a quoted header that does not exist (internal.h, or any other) fails, and so would a
header that came back under that name.

Every privileged decision reaches libwmac through compositor/security/, named by the act: no
other compositor file includes wmac.h or calls a wmac_ function (checked from the sources).

The focus authority (compositor/shell/focus.c) is the only caller of the seat's keyboard focus
setter (checked from the object files): everything else asks it through the shell hooks.

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
    ("protocols", ("compositor/protocols/", "compositor/backend/", "compositor/xwayland/")),
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


UMBRELLAS = ("compositor/core/internal.h",)


def include_dirs(build):
    """Every -I directory the build gives a compositor file (source and generated headers)."""
    with open(os.path.join(build, "compile_commands.json")) as f:
        entries = json.load(f)
    dirs = set()
    for e in entries:
        if "compositor" not in e["file"]:
            continue
        args = e.get("arguments") or e["command"].split()
        for i, a in enumerate(args):
            if a == "-I" and i + 1 < len(args):
                d = args[i + 1]
            else:
                d = a[2:] if a.startswith("-I") else None
            if d:
                dirs.add(os.path.normpath(os.path.join(e["directory"], d)))
    return dirs


def missing_includes(src, build, paths):
    """(file, name) for every quoted include of a compositor file that names no file, neither
    beside the file nor in a directory the build gives with -I."""
    dirs = include_dirs(build)
    out = []
    for path in paths:
        with open(os.path.join(src, path), encoding="utf-8") as f:
            names = INCLUDE.findall(f.read())
        for name in names:
            here = os.path.join(src, os.path.dirname(path), name)
            if not os.path.exists(here) and not any(
                    os.path.exists(os.path.join(d, name)) for d in dirs):
                out.append((path, name))
    return out


WMAC = re.compile(r'#\s*include\s*<wmac\.h>|\bwmac_\w+\s*\(')


def wmac_outside_security(src, paths):
    """(file, what) for every use of libwmac outside compositor/security/."""
    out = []
    for path in paths:
        if path.startswith("compositor/security/"):
            continue
        with open(os.path.join(src, path), encoding="utf-8") as f:
            text = f.read()
        for m in WMAC.finditer(text):
            out.append((path, m.group(0).strip()))
    return out


# A function and the only files that may call it.
ONLY_CALLERS = {
    "garnet_seat_set_keyboard_focus": ("compositor/shell/focus.c",),
}


def forbidden_callers(src, objs):
    """(file, function) for every call of an ONLY_CALLERS function from another file."""
    syms = symbols([obj for _, obj in objs])
    out = []
    for path, obj in objs:
        for fn, allowed in ONLY_CALLERS.items():
            if fn in syms[obj][1] and path not in allowed:
                out.append((path, fn))
    return sorted(out)


def compositor_files(src, objs):
    return [p for p, _ in objs] + [
        os.path.relpath(os.path.join(d, f), src)
        for d, _, files in os.walk(os.path.join(src, "compositor"))
        for f in files if f.endswith(".h")
    ]


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
    for path in compositor_files(src, objs):
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
    files = compositor_files(src, objs)
    n += 1
    back = [u for u in UMBRELLAS if os.path.exists(os.path.join(src, u))]
    print(f"{'not ok' if back else 'ok'} {n} no umbrella header"
          + (f"  # back: {', '.join(back)}; one header per object instead" if back else ""))
    status |= bool(back)
    for path, name in missing_includes(src, build, files):
        n += 1
        print(f"not ok {n} {path} includes {name}, which does not exist"
              + ("  # internal.h is gone: include the headers of the objects used"
                 if name.endswith("internal.h") else ""))
        status = 1
    callers = forbidden_callers(src, objs)
    n += 1
    print(f"{'not ok' if callers else 'ok'} {n} only the focus authority moves the keyboard"
          + (f"  # {'; '.join(f'{p} calls {fn}' for p, fn in callers)}: use the shell hooks"
             if callers else ""))
    status |= bool(callers)
    wmac = wmac_outside_security(src, files)
    n += 1
    print(f"{'not ok' if wmac else 'ok'} {n} libwmac is used only in compositor/security/"
          + (f"  # {'; '.join(f'{p}: {w}' for p, w in wmac)}: name the act in security/"
             if wmac else ""))
    status |= bool(wmac)
    for a, b in sorted(listed - set(edges)):
        n += 1
        print(f"not ok {n} {a} -> {b}  # listed as an exception but gone: remove the line")
        status = 1
    print(f"1..{n}")
    return status


if __name__ == "__main__":
    sys.exit(main())
