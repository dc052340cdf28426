#!/bin/sh
# SPDX-License-Identifier: MIT
# Covering the lock: before the session locks, a rogue window sets a big red cursor surface,
# starts a drag with a big red icon, or holds a popup grab. Once locked the screen shows the
# lock's pixels and nothing else (garnet's own arrow is off here, so every pixel is the
# lock's colour), and the drag or grab was cancelled. The control: each attack was under way
# (the cursor set, the drag started, the popup shown with its grab) before the lock.
# usage: lock-cover-test.sh GARNET ROGUE POLICY SCREENSHOOTER PNG-ONE-COLOUR   (TAP output)
set -u
garnet=$1
rogue=$2
policy=$3
shooter=$4
one_colour=$5
. "$(dirname "$0")/lib.sh"
echo "1..9"

# rogue_fill_surface's colour, the one the locker shows.
lock_colour=64,128,191

for kind in cursor drag popup; do
	rm -f "$work/go" "$work/done" "$work/lock-now" "$work/shot-go" "$work/shot.png" \
		"$work/locker.txt" "$work/cover.txt"
	cat >"$work/garnet.ini" <<INI
[security]
policy=$policy
launcher-restarts=0

[shell]
builtin-cursor=false

[launcher]
lock-screen=$rogue locker $work/locker.txt $work/lock-now
screenshooter=$shooter --wait-for $work/shot-go $work/shot.png
panel=$rogue drive $work/go $work/done press:512,384
INI
	# --test-mode only for the trusted driver's garnet_test: the rogue uses none of it.
	start_garnet --test-mode
	"$rogue" cover "$work/cover.txt" "$kind" &
	cover_pid=$!
	wait_for "$work/cover.txt" "^mapped" || echo "# the rogue never mapped"
	touch "$work/go"
	wait_for "$work/done" "^done" || echo "# the driver did not finish"
	case $kind in
	cursor) under_way="cursor-set" ;;
	drag) under_way="dragging" ;;
	popup) under_way="popup-shown" ;;
	esac
	wait_for "$work/cover.txt" "^$under_way" && sleep 0.3 &&
		! grep -q "^drag-cancelled\|^popup-done" "$work/cover.txt"
	result $? "rogue_${kind}_is_under_way_before_the_lock"
	touch "$work/lock-now"
	wait_for "$work/locker.txt" "^shown" || echo "# the locker did not lock"
	sleep 0.3
	# garnet's log goes on from kind to kind: this kind's screenshot is the next exit (the
	# last kind's exit once made this wait return before the picture was written).
	shots=$(grep -c "launcher screenshooter exited" "$work/log")
	touch "$work/shot-go"
	i=0
	while [ $i -lt 100 ] && [ "$(grep -c "launcher screenshooter exited" "$work/log")" -le "$shots" ]; do
		sleep 0.1
		i=$((i + 1))
	done
	[ $i -lt 100 ] || echo "# no screenshot"
	wait_for "$work/shot.png" "" || echo "# no shot.png" # written after the shooter disconnects
	python3 "$one_colour" "$work/shot.png" "$lock_colour" | sed 's/^/# /'
	python3 "$one_colour" "$work/shot.png" "$lock_colour"
	result $? "lock_shows_only_the_lock_over_a_rogue_${kind}"
	sed 's/^/# rogue: /' "$work/cover.txt"
	case $kind in
	cursor) grep -q "^pointer-leave" "$work/cover.txt" ;;
	drag) grep -q "^drag-cancelled" "$work/cover.txt" ;;
	popup) grep -q "^popup-done" "$work/cover.txt" ;;
	esac
	result $? "lock_ends_the_rogue_${kind}"
	kill "$cover_pid" 2>/dev/null
	wait "$cover_pid" 2>/dev/null
	kill "$pid" && wait "$pid"
	pid=
done
