#!/bin/sh
# SPDX-License-Identifier: MIT
# garnet nested in garnet: a headless garnet is the parent; a second garnet runs on the wayland
# backend inside it with a client of one colour. The nested garnet repaints only when the parent
# answers its frame callbacks, so its capture shows the client's window only if the parent really
# took and showed its frames.
# usage: test-nested.sh GARNET INPUT_CLIENT PNG_PY
set -u
garnet=$1 client=$2 png=$3
dir=$(mktemp -d)
export XDG_RUNTIME_DIR=$dir
chmod 700 "$dir"
trap 'kill $parent 2>/dev/null; [ -n "${KEEP:-}" ] || rm -rf "$dir"' EXIT
"$garnet" --no-config --socket=parent-0 >"$dir/parent.log" 2>&1 &
parent=$!
n=0
until [ -S "$dir/parent-0" ]; do
	n=$((n + 1)); [ $n -gt 100 ] && { echo "FAIL: the parent garnet did not start"; exit 1; }
	sleep 0.1
done
WAYLAND_DISPLAY=parent-0 timeout 60 "$garnet" --backend=wayland --no-config --socket=nested-0 \
	--width=640 --height=480 --screenshot="$dir/nested.png" --oneshot \
	--autostart="'$client' 200 100 0x00c000 '$dir/client.log'" >"$dir/nested.log" 2>&1
rc=$?
[ $rc -eq 0 ] || { echo "FAIL: nested garnet exited with $rc"; cat "$dir/nested.log"; exit 1; }
grep -q "WL-1: 640x480" "$dir/nested.log" || { echo "FAIL: no nested output"; cat "$dir/nested.log"; exit 1; }
green=$(python3 "$png" "$dir/nested.png" 0x00c000)
[ "$green" -eq 20000 ] || { echo "FAIL: $green pixels of the client's window shown, not 20000"; exit 1; }
kill -0 $parent || { echo "FAIL: the parent garnet died"; cat "$dir/parent.log"; exit 1; }
echo "PASS: garnet runs nested in another compositor, paced by its frame callbacks"
