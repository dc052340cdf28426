#!/bin/sh
# SPDX-License-Identifier: MIT
# Inverted self-test of a fuzzer: run, through run-fuzzer.sh, a build of it with a bug planted
# on purpose; it passes only if the fuzzer crashes on that bug within its time and leaves the
# input behind. A fuzzer that can no longer find a planted bug finds nothing else either.
# PATTERN (grep -E) must match the fuzzer's report, so that another crash does not pass for it.
# usage: expect-crash.sh PATTERN RUN-FUZZER FUZZER SEED_DIR SCRATCH_DIR SECONDS [OPTIONS...]
set -u
pattern=$1 run=$2 scratch=$5
shift 2
start=$(date +%s)
sh "$run" "$@" >"$scratch.log" 2>&1
rc=$?
took=$(($(date +%s) - start))
grep -E '^#[0-9]+.*(DONE|exec/s)|ERROR: |SUMMARY: |^batch-fuzz: ' "$scratch.log" | tail -8
if [ "$rc" -eq 0 ]; then
	echo "FAIL: the fuzzer ran its whole time without finding the planted bug"
	exit 1
fi
set -- "$scratch"/crash-*
if [ ! -e "$1" ]; then
	echo "FAIL: the fuzzer exited with status $rc but left no crash input (log: $scratch.log)"
	exit 1
fi
if ! grep -Eq "$pattern" "$scratch.log"; then
	echo "FAIL: the fuzzer crashed, but not on the planted bug ('$pattern'; log: $scratch.log)"
	exit 1
fi
echo "PASS: the planted bug was found in ${took} s; input: $1"
