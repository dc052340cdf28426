#!/bin/sh
# SPDX-License-Identifier: MIT
# A rogue window inhibits garnet's keyboard shortcuts to trap the user: it gets them while it
# has the keyboard (the protocol's power, default-allowed), but the lock binding still locks
# and its key never reaches the rogue. The user's key presses come from the trusted driver of
# the test protocol, as in bindings-test.sh.
# usage: shortcuts-inhibit-test.sh GARNET ROGUE POLICY   (TAP output)
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

[shell]
binding=super+l launch lock-screen

[launcher]
lock-screen=$rogue locker $work/locker.txt $work/lock-now
panel=$rogue drive $work/go $work/done super-l
INI
touch "$work/lock-now"
start_garnet --test-mode
"$rogue" inhibit "$work/inhibit.txt" &
inhibitor=$!
sleep 0.5
# The driver clicks the middle of the output (the rogue's window takes the keyboard), then
# presses super+l.
touch "$work/go"
wait_for "$work/done" "" && wait_for "$work/inhibit.txt" "^active"
result $? "inhibitor_is_active_once_its_window_has_the_keyboard"
wait_for "$work/log" "launcher lock-screen: started .* on demand" &&
	wait_for "$work/locker.txt" "^locked"
result $? "lock_binding_locks_through_an_inhibitor"
# KEY_L is 38: neither its press nor its release reached the rogue.
! grep -q "^key 38 " "$work/inhibit.txt"
result $? "the_lock_key_never_reaches_the_inhibitor"
wait_for "$work/inhibit.txt" "^inactive"
result $? "inhibitor_is_inactive_once_the_lock_takes_the_keyboard"
sed 's/^/# inhibitor: /' "$work/inhibit.txt"
kill "$inhibitor" 2>/dev/null
wait "$inhibitor" 2>/dev/null || :
