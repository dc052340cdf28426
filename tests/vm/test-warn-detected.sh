#!/bin/sh
# SPDX-License-Identifier: MIT
# Inverted self-test: a run whose module prints a kernel WARNING must fail with status 125 and
# show the warning, even though the command inside the guest succeeded.
# usage: test-warn-detected.sh GARNET_VM WARN_MODULE.ko
set -u
out=$("$1" --insmod "$2" -- true 2>&1)
rc=$?
echo "$out"
if [ "$rc" -ne 125 ]; then
	echo "FAIL: expected exit status 125 (kernel problem), got $rc"
	exit 1
fi
if ! echo "$out" | grep -q 'deliberate warning for the VM harness'; then
	echo "FAIL: the harness did not print the offending part of the kernel log"
	exit 1
fi
echo "PASS: the deliberate WARN failed the run"
