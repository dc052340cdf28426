#!/bin/sh
# SPDX-License-Identifier: MIT
# Inverted self-test: a WARNING printed at the start of a run, then 20,000 lines of noise that
# wrap the kernel's ring buffer (so that a final dmesg no longer shows it), must still fail
# the run with status 125 and show the warning: the harness reads the log from boot.
# usage: test-warn-early-then-noise.sh GARNET_VM WARN_MODULE.ko
set -u
noise='i=0
while [ $i -lt 20000 ]; do
	echo "noise line $i: the kind of rate-limited notice a fuzzer provokes by the thousand" >/dev/kmsg
	i=$((i + 1))
done
if dmesg | grep -q "deliberate warning"; then echo "ring buffer kept the warning"; else
	echo "ring buffer wrapped: the warning is gone from dmesg"; fi'
out=$("$1" --insmod "$2" -- sh -c "$noise" 2>&1)
rc=$?
echo "$out" | grep -v 'noise line' | tail -40
if ! echo "$out" | grep -q 'ring buffer wrapped'; then
	echo "FAIL: the noise did not push the warning out of the ring buffer: this proves nothing"
	exit 1
fi
if [ "$rc" -ne 125 ]; then
	echo "FAIL: expected exit status 125 (kernel problem), got $rc"
	exit 1
fi
if ! echo "$out" | grep -q 'deliberate warning for the VM harness'; then
	echo "FAIL: the harness did not print the offending part of the kernel log"
	exit 1
fi
echo "PASS: the early WARN failed the run after the ring buffer had wrapped"
