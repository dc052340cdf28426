#!/bin/sh
# SPDX-License-Identifier: MIT
# Runs the ioctl fuzzer in a VM, handing it the host's GARNET_IOCTL_FUZZ_* settings (the guest
# does not inherit the host's environment) and a hard limit that grows with the fuzzing time.
# usage: ioctl-fuzz-vm.sh GARNET_VM PROGRAM [garnet-vm options...]
set -eu
vm=$1
prog=$2
shift 2
vars=$(env | grep '^GARNET_IOCTL_FUZZ_[A-Z]*=[0-9a-fA-Fx]*$' | tr '\n' ' ') || true
seconds=${GARNET_IOCTL_FUZZ_SECONDS:-30}
# Boot, the run, a minute for stuck processes to show, the checks after it. A looping batch is
# stopped after 50 ms (the parameter is read-only after load, so it is given at load).
exec "$vm" --timeout $((seconds + 240)) "$@" --module-param watchdog_ms=50 -- env $vars "$prog"
