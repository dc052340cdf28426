#!/bin/sh
# SPDX-License-Identifier: MIT
# A command that outlives the hard timeout fails the run with status 124, and no QEMU is left.
# usage: test-timeout.sh GARNET_VM
set -u
marker="garnet-vm-timeout-test-$$"
"$1" --timeout 20 --append "$marker" -- sleep 600
rc=$?
if [ "$rc" -ne 124 ]; then
	echo "FAIL: expected exit status 124 (timeout), got $rc"
	exit 1
fi
sleep 1
if pgrep -f "$marker" >/dev/null; then
	echo "FAIL: a QEMU process outlived the harness"
	pkill -9 -f "$marker"
	exit 1
fi
echo "PASS: timed out and cleaned up"
