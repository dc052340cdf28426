#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Writes a benchmark's figures as JSON, so that a later run can be compared with it
(tests/bench/compare.py).

usage: benchjson.py OUT.json --name NAME [--source DIR] [--commit ID] [--config KEY=VALUE]...
                    [--version TOOL=VERSION]... [--print] < SAMPLES

OUT.json "-" writes no file; --print shows each figure's median on stdout.

SAMPLES has one line per measurement, "FIGURE VALUE UNIT BETTER [NOISE]": the same FIGURE once
per repetition; BETTER is lower, higher or none (no direction: shown, never flagged); NOISE
(optional) is an absolute difference too small to mean anything (idle CPU: a tick). "-" as
VALUE is a measurement that gave nothing (skipped). Each figure is kept with its median, min,
max, its spread ((max - min) / median) and the values.
"""
import argparse
import datetime
import json
import os
import platform
import statistics
import subprocess
import sys


def git_commit(source):
    try:
        commit = subprocess.run(["git", "-C", source, "rev-parse", "HEAD"], capture_output=True,
                                text=True, check=True).stdout.strip()
        dirty = subprocess.run(["git", "-C", source, "status", "--porcelain",
                                "--untracked-files=no"], capture_output=True, text=True,
                               check=True).stdout.strip()
        return commit + ("-dirty" if dirty else "")
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def parse_samples(lines):
    figures = {}
    for number, line in enumerate(lines, 1):
        fields = line.split()
        if not fields or fields[0].startswith("#"):
            continue
        if len(fields) not in (4, 5) or fields[3] not in ("lower", "higher", "none"):
            raise ValueError(f"sample line {number}: want FIGURE VALUE UNIT BETTER [NOISE], "
                             f"got {line.strip()!r}")
        name, value, unit, better = fields[:4]
        fig = figures.setdefault(name, {"unit": unit, "better": better, "values": []})
        if len(fields) == 5:
            fig["noise"] = float(fields[4])
        if value != "-":
            fig["values"].append(float(value))
    for fig in figures.values():
        values = fig["values"]
        if not values:
            fig["median"] = None
            continue
        fig["median"] = round(statistics.median(values), 6)
        fig["min"] = min(values)
        fig["max"] = max(values)
        fig["spread"] = round((fig["max"] - fig["min"]) / fig["median"], 4) \
            if fig["median"] else 0.0
    return figures


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out")
    ap.add_argument("--name", required=True)
    ap.add_argument("--source", default=os.path.join(os.path.dirname(__file__), "..", ".."))
    ap.add_argument("--commit", help="the commit measured (default: the source's HEAD now)")
    ap.add_argument("--config", action="append", default=[], metavar="KEY=VALUE")
    ap.add_argument("--version", action="append", default=[], metavar="TOOL=VERSION")
    ap.add_argument("--print", action="store_true", help="show each figure's median")
    args = ap.parse_args()
    try:
        figures = parse_samples(sys.stdin)
    except ValueError as e:
        print(f"benchjson.py: {e}", file=sys.stderr)
        return 2
    doc = {
        "benchmark": args.name,
        "commit": args.commit or git_commit(args.source),
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "host": {"kernel": platform.release(), "machine": platform.machine(),
                 "cpus": os.cpu_count(), "load": round(os.getloadavg()[0], 2)},
        "versions": dict(v.split("=", 1) for v in args.version if "=" in v),
        "config": dict(c.split("=", 1) for c in args.config if "=" in c),
        "figures": figures,
    }
    if args.out != "-":
        with open(args.out, "w") as f:
            json.dump(doc, f, indent=1, sort_keys=True)
            f.write("\n")
    if args.print:
        for name in sorted(figures):
            fig = figures[name]
            median = "-" if fig["median"] is None else f'{fig["median"]:g}'
            print(f'{name:<60} {median:>12} {fig["unit"]}')
    return 0


if __name__ == "__main__":
    sys.exit(main())
