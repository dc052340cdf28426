#!/bin/sh
# SPDX-License-Identifier: MIT
# With --bochs and --qmp, the host can take a screendump of the guest's display while the guest
# waits for it: proves the display device and the QMP channel that display tests rely on.
# usage: test-screendump.sh GARNET_VM QMP_PY
set -u
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
"$1" --bochs --qmp "$dir/qmp.sock" \
	--host-cmd "python3 '$2' '$dir/qmp.sock' screendump '$dir/screen.ppm' && touch \"\$GARNET_VM_RESULTS/host-done\"" \
	-- sh -c 'n=0; while [ ! -e "$GARNET_VM_RESULTS/host-done" ]; do
		n=$((n + 1)); [ $n -gt 600 ] && exit 1; sleep 0.1; done; lspci -n 2>/dev/null || cat /sys/bus/pci/devices/*/device'
rc=$?
[ "$rc" -eq 0 ] || { echo "FAIL: the run failed with status $rc"; exit 1; }
head -c 2 "$dir/screen.ppm" | grep -q P6 || { echo "FAIL: no PPM screendump"; exit 1; }
echo "PASS: screendump $(head -c 20 "$dir/screen.ppm" | tr '\n' ' ')"
