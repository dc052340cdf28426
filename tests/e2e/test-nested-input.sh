#!/bin/sh
# SPDX-License-Identifier: MIT
# garnet nested in garnet takes its parent's pointer: the parent (--test-mode) moves its pointer
# over the nested garnet's window in a grid, clicks, scrolls and turns the wheel there. The
# nested garnet binds wl_seat v8, whose pointers send frame, axis_source, axis_stop and
# axis_value120 events; it must handle them all and hand the pointer on to its own client, the
# wheel's clicks as clicks (the client binds v8 too: axis_value120).
# usage: test-nested-input.sh GARNET INPUT_CLIENT GARNET_DRIVE
set -u
garnet=$1 client=$2 drive=$3
dir=$(mktemp -d)
export XDG_RUNTIME_DIR=$dir
chmod 700 "$dir"
nested=
trap 'kill $parent $nested 2>/dev/null; [ -n "${KEEP:-}" ] || rm -rf "$dir"' EXIT
fail() {
	echo "FAIL: $1"
	tail -n 15 "$dir/nested.log" | sed 's/^/# nested: /'
	exit 1
}
wait_for() { # FILE PATTERN
	i=0
	until grep -q -- "$2" "$1" 2>/dev/null; do
		i=$((i + 1)); [ $i -gt 100 ] && return 1
		sleep 0.1
	done
}
"$garnet" --no-config --test-mode --socket=parent-0 --width=800 --height=600 \
	>"$dir/parent.log" 2>&1 &
parent=$!
wait_for "$dir/parent.log" WAYLAND_DISPLAY || fail "the parent garnet did not start"
WAYLAND_DISPLAY=parent-0 "$garnet" --backend=wayland --no-config --socket=nested-0 \
	--width=640 --height=480 \
	--autostart="'$client' 640 480 0x00c000 '$dir/client.log'" >"$dir/nested.log" 2>&1 &
nested=$!
wait_for "$dir/client.log" mapped || fail "the client in the nested garnet never mapped"
export WAYLAND_DISPLAY=parent-0
for y in 40 140 240 340 440 540; do
	for x in 40 140 240 340 440 540 640 740; do
		"$drive" motion $x $y >/dev/null
	done
done
"$drive" motion 400 300 >/dev/null
"$drive" click >/dev/null
"$drive" scroll 10 >/dev/null
"$drive" wheel 240 >/dev/null || fail "the parent garnet cannot turn a wheel"
"$drive" motion 300 200 >/dev/null
sleep 0.5
kill -0 $nested 2>/dev/null || fail "the nested garnet died of its parent's pointer"
grep -q "pointer-enter" "$dir/client.log" || fail "the nested client never got the pointer"
grep -q "button 272 1" "$dir/client.log" || fail "the nested client did not get the click"
grep -q "axis 0 10" "$dir/client.log" || fail "the nested client did not get the scroll"
grep -q "value120 0 240" "$dir/client.log" || fail "the nested client did not get the wheel's clicks"
grep -q "axis 0 30" "$dir/client.log" || fail "the nested client did not get the wheel's scroll"
[ "$(grep -c "^pointer-motion" "$dir/client.log")" -gt 1 ] ||
	fail "the nested client did not get the pointer's motion"
echo "PASS: garnet nested in garnet hands its parent's pointer to its client"
