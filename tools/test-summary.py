#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Adds up meson's test logs into the one closing line ./check promises:
"N passed, N failed, N skipped". TAP tests count each subtest. Exits 1 if anything failed
or if a log is missing (a build that failed ran no tests, which is a failure)."""

import json
import re
import sys

PASSED = {"OK", "EXPECTEDFAIL"}
TAIL_LINES = 25
SKIPPED = {"SKIP"}
TAP_RESULT = re.compile(r"^(ok|not ok) \d+\b[^#\n]*(#.*)?$", re.MULTILINE)
TAP_PLAN = re.compile(r"^1\.\.\d+", re.MULTILINE)


def count(path, failures, tails):
    passed = failed = skipped = 0
    with open(path) as f:
        for line in f:
            if not line.strip():
                continue
            t = json.loads(line)
            result = t.get("result")
            out = t.get("stdout") or ""
            tap = TAP_RESULT.findall(out) if TAP_PLAN.search(out) else []
            if tap and result in ("OK", "FAIL"):
                for status, directive in tap:
                    if status == "not ok" and "TODO" not in directive.upper():
                        failed += 1
                        failures.append(f"{path}: {t.get('name')}")
                    elif "SKIP" in directive.upper():
                        skipped += 1
                    else:
                        passed += 1
                if result == "FAIL" and not any(s == "not ok" for s, _ in tap):
                    failed += 1  # e.g. the plan did not match: the run itself failed
                    failures.append(f"{path}: {t.get('name')} ({result})")
            elif result in PASSED:
                passed += 1
            elif result in SKIPPED:
                skipped += 1
            else:
                failed += 1
                failures.append(f"{path}: {t.get('name')} ({result})")
            if result not in PASSED and result not in SKIPPED:
                tails.append((t.get("name"), out.splitlines()[-TAIL_LINES:]))
    return passed, failed, skipped


def main(paths):
    total = [0, 0, 0]
    missing = 0
    failures = []
    tails = []
    for path in paths:
        try:
            for i, n in enumerate(count(path, failures, tails)):
                total[i] += n
        except FileNotFoundError:
            print(f"test-summary: {path} is missing: that build ran no tests", file=sys.stderr)
            missing += 1
    passed, failed, skipped = total
    failed += missing
    # Repeated here because a CI log is often read from its tail only.
    for name, lines in tails:
        print(f"--- last lines of {name}:")
        for line in lines:
            print(f"    {line}")
    for name in dict.fromkeys(failures):
        print(f"failed: {name}")
    print(f"{passed} passed, {failed} failed, {skipped} skipped")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
