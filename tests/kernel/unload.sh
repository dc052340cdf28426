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
echo "objects before unload: $objects"
[ "$objects" = 0 ] || { cat "$dir/garnet_objects"; exit 1; }
rmmod garnet
if [ -d /sys/module/garnet ]; then
	echo "garnet still loaded after rmmod"
	exit 1
fi
