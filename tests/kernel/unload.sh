#!/bin/sh
# SPDX-License-Identifier: MIT
# Last test of suite `kernel`: after every other test closed its files, garnet holds no
# objects and the module unloads.
set -eu
dir=
for d in /sys/kernel/debug/dri/*; do
	if [ "$(cat "$d/name" 2>/dev/null | cut -d' ' -f1)" = garnet ]; then
		dir=$d
		break
	fi
done
[ -n "$dir" ] || { echo "no garnet debugfs directory"; exit 1; }
objects=$(sed -n 's/^objects \([0-9]*\)$/\1/p' "$dir/garnet_counters")
# The text console's framebuffer belongs to the kernel, not to a test (see doc/kms.md).
console=$(sed -n 's/^console_objects \([0-9]*\)$/\1/p' "$dir/garnet_display" 2>/dev/null)
objects=$((objects - ${console:-0}))
echo "objects before unload: $objects (not counting the console's)"
[ "$objects" = 0 ] || { cat "$dir/garnet_objects"; exit 1; }
rmmod garnet
if [ -d /sys/module/garnet ]; then
	echo "garnet still loaded after rmmod"
	exit 1
fi
