#!/bin/sh
# SPDX-License-Identifier: MIT
# A new mode for a nested garnet's output resizes its window in the parent: the nested
# garnet's output-config client (garnet-rogue outman move, launched under the shipped policy)
# sets a custom 800x600 mode, which succeeds; both garnets keep running, and the parent
# takes the frames of the new size without a protocol error.
# usage: test-nested-mode.sh GARNET ROGUE POLICY
set -u
garnet=$1 rogue=$2 policy=$3
dir=$(mktemp -d)
export XDG_RUNTIME_DIR=$dir
chmod 700 "$dir"
trap 'kill $nested $parent 2>/dev/null; [ -n "${KEEP:-}" ] || rm -rf "$dir"' EXIT
nested=
"$garnet" --no-config --debug --socket=parent-0 >"$dir/parent.log" 2>&1 &
parent=$!
wait_for() { # wait_for SECONDS COMMAND...
	limit=$(($1 * 10)); shift; n=0
	until "$@"; do
		n=$((n + 1)); [ $n -gt $limit ] && return 1
		sleep 0.1
	done
}
wait_for 10 test -S "$dir/parent-0" || { echo "FAIL: the parent garnet did not start"; exit 1; }
cat >"$dir/garnet.ini" <<INI
[security]
policy=$policy
launcher-restarts=0

[launcher]
output-config=$rogue outman $dir/outman.txt move
INI
WAYLAND_DISPLAY=parent-0 "$garnet" --backend=wayland --config="$dir/garnet.ini" \
	--socket=nested-0 --width=640 --height=480 >"$dir/nested.log" 2>&1 &
nested=$!
wait_for 30 grep -qs "^done" "$dir/outman.txt" ||
	{ echo "FAIL: the output-config client did not finish"; cat "$dir/nested.log"; exit 1; }
sed 's/^/# client: /' "$dir/outman.txt"
grep -q "^move succeeded" "$dir/outman.txt" &&
	grep -q "^head WL-1 800x600 at 100,50" "$dir/outman.txt" ||
	{ echo "FAIL: the mode did not change"; tail -5 "$dir/nested.log"; exit 1; }
# The nested output has the new mode; the parent took its frames since.
wait_for 10 sh -c "grep -q 'WL-1: now 800x600' '$dir/nested.log'" ||
	{ echo "FAIL: no new mode in the nested log"; exit 1; }
sleep 1
kill -0 $nested && kill -0 $parent ||
	{ echo "FAIL: a garnet died"; tail -5 "$dir/nested.log" "$dir/parent.log"; exit 1; }
grep -qi "error" "$dir/parent.log" && { echo "FAIL: the parent logged an error"; grep -i error "$dir/parent.log"; exit 1; }
echo "PASS: a nested garnet's output changes mode by resizing its window"
