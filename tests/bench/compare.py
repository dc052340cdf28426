#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Compares a benchmark run with a baseline (both written by tests/bench/benchjson.py).

usage: compare.py [--threshold FRACTION] BASELINE.json NEW.json

Prints one row per figure the two share: baseline and new median, their ratio (new / baseline),
the new run's spread, and "worse" where the figure moved the wrong way (up for lower-is-better,
down for higher-is-better) by more than the threshold (default 0.10), the two runs' spreads and
the figure's noise together. Exit status: 0 when nothing is worse, 1 when something is, 2 when a
file cannot be read.
"""
import argparse
import json
import sys


def load(path):
    with open(path) as f:
        doc = json.load(f)
    if not isinstance(doc, dict) or not isinstance(doc.get("figures"), dict):
        raise ValueError(f"{path}: no 'figures' object")
    for name, fig in doc["figures"].items():
        if not isinstance(fig, dict) or "median" not in fig or \
                fig.get("better") not in ("lower", "higher", "none"):
            raise ValueError(f"{path}: figure {name!r} lacks a median or a direction")
    return doc


def verdict(base, new, threshold):
    """(ratio text, flag) for one figure."""
    b, n = base["median"], new["median"]
    if b is None or n is None:
        return "-", "missing" if b is not None else ""
    ratio = f"{n / b:.2f}" if b else ("1.00" if n == b else "inf")
    better = base["better"]
    if better == "none":
        return ratio, ""
    # What one run's own scatter or the figure's noise could explain is not a change.
    allowed = max(abs(b) * threshold, abs(b) * base.get("spread", 0.0) / 2 +
                  abs(n) * new.get("spread", 0.0) / 2) + base.get("noise", 0.0)
    worse = n - b > allowed if better == "lower" else b - n > allowed
    better_now = b - n > allowed if better == "lower" else n - b > allowed
    return ratio, "worse" if worse else "better" if better_now else ""


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--threshold", type=float, default=0.10)
    ap.add_argument("baseline")
    ap.add_argument("new")
    args = ap.parse_args()
    try:
        base, new = load(args.baseline), load(args.new)
    except (OSError, ValueError) as e:  # json.JSONDecodeError is a ValueError
        print(f"compare.py: {e}", file=sys.stderr)
        return 2
    print(f"baseline {base.get('benchmark', '?')} {base.get('commit', '?')} "
          f"{base.get('date', '?')} {json.dumps(base.get('config', {}), sort_keys=True)}")
    print(f"new      {new.get('benchmark', '?')} {new.get('commit', '?')} "
          f"{new.get('date', '?')} {json.dumps(new.get('config', {}), sort_keys=True)}")
    rows = []
    worse = 0
    for name in sorted(set(base["figures"]) & set(new["figures"])):
        b, n = base["figures"][name], new["figures"][name]
        ratio, flag = verdict(b, n, args.threshold)
        worse += flag == "worse"
        fmt = lambda v: "-" if v is None else f"{v:.4g}" if abs(v) < 10000 else f"{v:.0f}"
        spread = "-" if n.get("spread") is None else f"±{n['spread'] * 50:.0f}%"
        rows.append((name, b.get("unit", ""), fmt(b["median"]), fmt(n["median"]), ratio, spread,
                     b["better"] if b["better"] != "none" else "", flag))
    only = sorted(set(base["figures"]) ^ set(new["figures"]))
    header = ("figure", "unit", "baseline", "new", "new/base", "spread", "better", "")
    widths = [max(len(str(r[i])) for r in rows + [header]) for i in range(len(header))]
    for r in [header] + rows:
        print("  ".join(str(v).ljust(w) if i < 2 else str(v).rjust(w)
                        for i, (v, w) in enumerate(zip(r, widths))).rstrip())
    if only:
        print("in one file only: " + ", ".join(only))
    print(f"{worse} figure(s) worse than the baseline beyond {args.threshold:.0%} and the spread")
    return 1 if worse else 0


if __name__ == "__main__":
    sys.exit(main())
