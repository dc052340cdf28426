#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Adds up meson's test logs into the one closing line ./check promises:
"N passed, N failed, N skipped". TAP tests count each subtest. Exits 1 if anything failed
or if a log is missing (a build that failed ran no tests, which is a failure).

With --strict (or GARNET_STRICT_SKIPS=1) a skip is a failure too, listed by name, unless wlcs
declared it: wlcs skips its tests of protocols the compositor does not offer, and some of its
own self-tests, and those are wlcs's own list, not a test garnet could not run. The other
exception: a test of `./check --deep` (suite deep-install) that a plain run skips, saying
"runs only in ./check --deep": it ran nowhere it could have, and the deep run counts it.

usage: test-summary.py [--strict] TESTLOG.json..."""

import json
import os
import re
import sys

PASSED = {"OK", "EXPECTEDFAIL"}
TAIL_LINES = 25
# A failed subtest's own lines shown at most (a test may print its logs' tails before it).
BLOCK_LINES = 80
SKIPPED = {"SKIP"}
TAP_RESULT = re.compile(r"^(ok|not ok) \d+\b[^#\n]*(#.*)?$", re.MULTILINE)
TAP_PLAN = re.compile(r"^1\.\.\d+", re.MULTILINE)
TAP_NAME = re.compile(r"^(?:ok|not ok) \d+(?: -)? ([^#\n]*)")
TAP_EMPTY_PLAN = re.compile(r"^1\.\.0\b.*?(?:#\s*SKIP\S*\s*(.*))?$", re.MULTILINE | re.I)
# The test that runs wlcs (tests/wlcs/meson.build); its subtests skipped by wlcs itself.
WLCS_TEST = "wlcs"
WLCS_DECLARED_SKIP = re.compile(r"#\s*SKIP\b.*\bMissing\b", re.I)


# wlcs's self-tests of its own machinery, which wlcs skips whatever the compositor offers.
WLCS_SELF_TEST = re.compile(r"^ok \d+ SelfTest\.\w+ #\s*SKIP\b")


def wlcs_declared(name, line):
    return name.split(" / ")[-1] == WLCS_TEST and (WLCS_DECLARED_SKIP.search(line) or
                                                   WLCS_SELF_TEST.search(line))


# What a test that belongs to ./check --deep says when a plain run skips it
# (tests/packaging/deep-install-test.py).
DEEP_ONLY = "runs only in ./check --deep"


def skip_reason(out):
    """Why a whole test skipped: the TAP plan's reason, else its last line of output."""
    m = TAP_EMPTY_PLAN.search(out)
    if m and m.group(1):
        return m.group(1).strip()
    lines = [line for line in out.splitlines() if line.strip()]
    return lines[-1].strip() if lines else "no reason given"


def subtest_block(out, line):
    """A TAP subtest's own lines: those after the result before it, up to its result."""
    lines = out.splitlines()
    end = lines.index(line)
    start = end
    while start > 0 and not TAP_RESULT.match(lines[start - 1]) and end - start < BLOCK_LINES:
        start -= 1
    return lines[start:end + 1]


def count(path, failures, tails, skips, deep_only, blocks):
    passed = failed = skipped = 0
    with open(path) as f:
        for line in f:
            if not line.strip():
                continue
            t = json.loads(line)
            result = t.get("result")
            out = t.get("stdout") or ""
            tap = TAP_RESULT.findall(out) if TAP_PLAN.search(out) else []
            lines = [m.group(0) for m in TAP_RESULT.finditer(out)] if tap else []
            if tap and result in ("OK", "FAIL"):
                for (status, directive), line in zip(tap, lines):
                    if status == "not ok" and "TODO" not in directive.upper():
                        failed += 1
                        failures.append(f"{path}: {t.get('name')}")
                        blocks.append((t.get("name"), subtest_block(out, line)))
                    elif "SKIP" in directive.upper():
                        skipped += 1
                        if not wlcs_declared(t.get("name", ""), line):
                            sub = TAP_NAME.match(line).group(1).strip()
                            why = directive.split("SKIP", 1)[-1].strip() or "no reason given"
                            skips.append(f"{t.get('name')}: {sub}: {why}")
                    else:
                        passed += 1
                if result == "FAIL" and not any(s == "not ok" for s, _ in tap):
                    failed += 1  # e.g. the plan did not match: the run itself failed
                    failures.append(f"{path}: {t.get('name')} ({result})")
            elif result in PASSED:
                passed += 1
            elif result in SKIPPED:
                skipped += 1
                why = skip_reason(out)
                if why.startswith(DEEP_ONLY) and ":deep-install / " in t.get("name", ""):
                    deep_only.append(f"{t.get('name')}: {why}")
                else:
                    skips.append(f"{t.get('name')}: {why}")
            else:
                failed += 1
                failures.append(f"{path}: {t.get('name')} ({result})")
            if result not in PASSED and result not in SKIPPED:
                # meson keeps stderr apart when a test wrote to it (libFuzzer writes only there)
                err = t.get("stderr") or ""
                tails.append((t.get("name"), (out + err).splitlines()[-TAIL_LINES:]))
    return passed, failed, skipped


def main(args):
    strict = os.environ.get("GARNET_STRICT_SKIPS", "") not in ("", "0")
    if args and args[0] == "--strict":
        strict, args = True, args[1:]
    total = [0, 0, 0]
    missing = 0
    failures = []
    tails = []
    blocks = []
    skips = []
    deep_only = []
    for path in args:
        try:
            for i, n in enumerate(count(path, failures, tails, skips, deep_only, blocks)):
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
    # A failed subtest's own lines, which a long TAP output may have pushed out of the tail.
    for name, lines in blocks:
        print(f"--- failed subtest of {name}:")
        for line in lines:
            print(f"    {line}")
    for name in dict.fromkeys(failures):
        print(f"failed: {name}")
    for name in deep_only:
        print(f"skipped (deep run only): {name}")
    for name in skips:
        print(f"{'failed, skipped in strict mode' if strict else 'skipped'}: {name}")
    if strict and skips:
        failed, skipped = failed + len(skips), skipped - len(skips)
    print(f"{passed} passed, {failed} failed, {skipped} skipped")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
