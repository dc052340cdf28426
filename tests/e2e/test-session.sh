#!/bin/sh
# SPDX-License-Identifier: MIT
# garnet as the desktop session in a QEMU guest with a bochs-display and virtio keyboard and
# tablet: started on tty1 through libseat (seatd), driven over QMP from the host.
# usage: test-session.sh GARNET_VM QMP_PY SOURCE_DIR BUILD_DIR atomic|legacy DRIVER-ARGS...
#   DRIVER-ARGS: the garnet-vm options that load the KMS driver, e.g. --module bochs
set -u
vm=$1 qmp=$2 src=$3 build=$4 kms=$5
shift 5
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
"$vm" --bochs --input --qmp "$dir/qmp.sock" --timeout 600 \
	--share "$src" --share "$build" \
	--module virtio_input --module evdev --module uinput "$@" \
	--host-cmd "python3 '$src/tests/e2e/session-host.py' '$qmp'" \
	-- sh "$src/tests/e2e/session-guest.sh" "$build" "$kms"
rc=$?
[ "$rc" -eq 77 ] && { echo "SKIP: the driver has no KMS display"; exit 77; }
[ "$rc" -eq 0 ] || { echo "FAIL: the run failed with status $rc"; exit 1; }
echo "PASS: garnet ran as the desktop session"
