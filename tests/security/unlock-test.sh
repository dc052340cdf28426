#!/bin/sh
# SPDX-License-Identifier: MIT
# The session lock from the user's side: a window mapping while locked cannot take the
# keyboard from the lock surface, not even once unlocked; after the trusted locker unlocks, the
# window focused before the lock gets the keyboard back and receives keys again.
# usage: unlock-test.sh GARNET ROGUE POLICY   (TAP output)
set -u
garnet=$1
rogue=$2
policy=$3
. "$(dirname "$0")/lib.sh"
echo "1..4"

cat >"$work/garnet.ini" <<INI
[security]
policy=$policy
launcher-restarts=0

[launcher]
lock-screen=$rogue locker $work/locker.txt $work/lock-now
panel=$rogue drive $work/go $work/done
INI
start_garnet --test-mode

open_window victim_pid window "$work/victim.txt" 1024 768 "^keyboard-enter"
touch "$work/lock-now"
wait_for "$work/locker.txt" "^shown" || echo "# the locker did not lock"

# A window that maps while locked gets neither focus nor input.
"$rogue" window "$work/late.txt" 200 200 &
late_pid=$!
wait_for "$work/late.txt" "^mapped"
sleep 0.2
! grep -Eq "^(keyboard-enter|pointer-enter)" "$work/late.txt"
result $? "window_mapped_while_locked_gets_no_focus"

touch "$work/locker.txt.unlock"
wait_for "$work/locker.txt" "^unlocked" && wait_for "$work/log" "session unlocked"
result $? "trusted_locker_unlocks"
# The window the user left gets the keyboard back; the one that mapped meanwhile does not
# take it (it would get what the user types next, believing it goes to the window they left).
i=0
while [ "$(grep -c "^keyboard-enter" "$work/victim.txt")" -lt 2 ] && [ $i -lt 50 ]; do
	sleep 0.1
	i=$((i + 1))
done
[ "$(grep -c "^keyboard-enter" "$work/victim.txt")" -ge 2 ] &&
	! grep -q "^keyboard-enter" "$work/late.txt"
result $? "window_focused_before_the_lock_gets_the_keyboard_back"
# The user clicks and types: into the window on top, the one they left, raised again.
touch "$work/go"
wait_for "$work/done" "^done" || echo "# the driver did not finish"
sleep 0.2
grep -q "^key 30 1" "$work/victim.txt" && ! grep -q "^key" "$work/late.txt"
result $? "keys_reach_the_window_after_unlock"
kill "$victim_pid" "$late_pid" 2>/dev/null
wait "$victim_pid" "$late_pid" 2>/dev/null || true
