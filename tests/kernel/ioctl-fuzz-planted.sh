#!/bin/sh
# SPDX-License-Identifier: MIT
# Inverted self-test of the ioctl fuzzer: on a garnet.ko with a bug planted on purpose, a run
# must end with a kernel report in the log (garnet-vm --expect-kernel-problem), and the report
# must be about garnet, not anything else that went wrong in the guest.
# usage: ioctl-fuzz-planted.sh IOCTL_FUZZ_VM_SH GARNET_VM PROGRAM [garnet-vm options...]
set -u
wrapper=$1
shift
out=$(sh "$wrapper" "$@" --expect-kernel-problem 2>&1)
rc=$?
printf '%s\n' "$out"
if [ "$rc" != 0 ]; then
	echo "FAIL: the fuzzer did not make the planted bug show in the kernel log (status $rc)"
	exit 1
fi
if ! printf '%s\n' "$out" | sed -n '/kernel problem found, as expected/,$p' |
		grep -Eq '\[garnet\]|Poison overwritten|list_(add|del) corruption'; then
	echo "FAIL: the kernel report does not point at garnet"
	exit 1
fi
echo "the planted bug was found"
