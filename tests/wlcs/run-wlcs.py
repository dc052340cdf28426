#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Runs wlcs against garnet's integration module and reports every wlcs test as TAP.

A failing test is a failure unless tests/wlcs/expected-failures.txt lists it with a reason; a
listed test that passes is a failure too (remove it from the list), so the list only shrinks.
The list may hold at most a tenth of the tests wlcs ran.

usage: run-wlcs.py WLCS_RUNNER MODULE EXPECTED_FAILURES
"""

import os
import re
import subprocess
import sys
import tempfile

RESULT = re.compile(r"^\[ +(OK|FAILED|SKIP|SKIPPED) +\] ([^ ,]+)")
RUN = re.compile(r"^\[ RUN +\] (\S+)")
MAX_EXPECTED_SHARE = 0.10


def read_expected(path):
    """name -> reason; a line is 'Suite.test  # reason'."""
    expected = {}
    with open(path) as f:
        for number, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            name, sep, reason = line.partition("#")
            name, reason = name.strip(), reason.strip()
            if not sep or not reason or " " in name:
                sys.exit(f"{path}:{number}: want 'Suite.test  # reason', got {line!r}")
            expected[name] = reason
    return expected


def run(runner, module):
    # A runtime directory of its own, never the user's: wlcs leaves its sockets there.
    with tempfile.TemporaryDirectory(prefix="garnet-wlcs-") as runtime:
        env = dict(os.environ, XDG_RUNTIME_DIR=runtime)
        proc = subprocess.run([runner, module], stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, env=env, text=True, errors="replace")
    return proc.returncode, proc.stdout.splitlines()


def parse(lines):
    """Ordered name -> (result, output lines of that test)."""
    results, current, output = {}, None, []
    for line in lines:
        m = RUN.match(line)
        if m:
            current, output = m.group(1), []
            results[current] = ("CRASHED", output)
            continue
        m = RESULT.match(line)
        if m and current and m.group(2) == current:
            results[current] = (m.group(1)[:4] if m.group(1).startswith("SKIP") else m.group(1),
                                output)
            current = None
            continue
        if current:
            output.append(line)
    return results


def main(runner, module, expected_path):
    expected = read_expected(expected_path)
    status, lines = run(runner, module)
    results = parse(lines)
    if not results:
        print("1..0 # SKIP wlcs ran no test")
        print("\n".join("# " + line for line in lines[-20:]))
        return 1 if status else 0
    ran = sum(1 for result, _ in results.values() if result != "SKIP")
    print(f"1..{len(results) + 2}")
    n = 0
    for name, (result, output) in results.items():
        n += 1
        if result == "SKIP":
            why = next((line.strip("[] ") for line in output if "Missing" in line), "skipped")
            print(f"ok {n} {name} # SKIP {why}")
        elif result == "OK" and name in expected:
            print(f"not ok {n} {name}: passes now; remove it from expected-failures.txt")
        elif result == "OK":
            print(f"ok {n} {name}")
        elif name in expected:
            print(f"not ok {n} {name} # TODO {expected[name]}")
        else:
            print(f"not ok {n} {name} ({result.lower()})")
            for line in output[-15:]:
                print(f"# {line}")
    n += 1
    stale = sorted(set(expected) - set(results))
    print(f"{'not ok' if stale else 'ok'} {n} every_expected_failure_names_a_wlcs_test"
          + (f": {', '.join(stale)}" if stale else ""))
    n += 1
    share = len(expected) / ran if ran else 1
    print(f"{'ok' if share <= MAX_EXPECTED_SHARE else 'not ok'} {n} "
          f"expected_failures_are_at_most_a_tenth ({len(expected)} of {ran} run)")
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
