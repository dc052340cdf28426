#!/bin/sh
# SPDX-License-Identifier: MIT
# Inverted self-test: a module that writes into a freed slab object must fail the run with
# status 125 and SLUB's report shown, which only the guest's slub_debug can produce.
# usage: test-slub-detected.sh GARNET_VM SLUB_MODULE.ko
set -u
out=$("$1" --insmod "$2" -- true 2>&1)
rc=$?
echo "$out"
if [ "$rc" -ne 125 ]; then
	echo "FAIL: expected exit status 125 (kernel problem), got $rc"
	exit 1
fi
if ! echo "$out" | grep -q 'BUG garnet_selftest .*Poison overwritten'; then
	echo "FAIL: the harness did not print SLUB's report on the poisoned object"
	exit 1
fi
echo "PASS: the write into a freed object failed the run"
