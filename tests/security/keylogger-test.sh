#!/bin/sh
# SPDX-License-Identifier: MIT
# The keylogger: an unfocused rogue window receives no key, pointer or touch event while the
# user types, clicks, scrolls and touches the focused victim window, which gets all of them.
# The "user" is a trusted client (launched as the panel) driving garnet_test.
# usage: keylogger-test.sh GARNET ROGUE POLICY   (TAP output)
set -u
garnet=$1
rogue=$2
policy=$3
. "$(dirname "$0")/lib.sh"
echo "1..5"

cat >"$work/garnet.ini" <<INI
[security]
policy=$policy
launcher-restarts=0

[launcher]
panel=$rogue drive $work/go $work/done
INI
start_garnet --test-mode

# The rogue maps first, small; the victim maps over the whole output and takes the focus.
open_window rogue_pid window "$work/rogue.txt" 100 100 "^mapped"
open_window victim_pid window "$work/victim.txt" 1024 768 "^keyboard-enter"
touch "$work/go"
wait_for "$work/done" "^done" || echo "# the driver did not finish"
sleep 0.3
kill "$rogue_pid" "$victim_pid" 2>/dev/null
wait "$rogue_pid" "$victim_pid" 2>/dev/null
sed 's/^/# rogue: /' "$work/rogue.txt"

grep -q "^key 30 1" "$work/victim.txt" && grep -q "^key 30 0" "$work/victim.txt"
result $? "victim_receives_the_keys"
grep -q "^button" "$work/victim.txt" && grep -q "^axis" "$work/victim.txt" &&
	grep -q "^touch-down" "$work/victim.txt" && grep -q "^touch-up" "$work/victim.txt"
result $? "victim_receives_pointer_and_touch"

# (It was listening: it had the focus before the victim mapped.)
grep -q "^keyboard-leave" "$work/rogue.txt" && ! grep -q "^key " "$work/rogue.txt"
result $? "unfocused_rogue_gets_no_key"
! grep -Eq "^(motion|button|axis)" "$work/rogue.txt"
result $? "rogue_under_the_victim_gets_no_pointer_event"
! grep -q "^touch" "$work/rogue.txt"
result $? "rogue_gets_no_touch_event"
