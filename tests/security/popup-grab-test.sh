#!/bin/sh
# SPDX-License-Identifier: MIT
# xdg_popup.grab as a keylogger: a window-less rogue grabs with guessed serials while the user
# types into a victim that holds a secret on the clipboard; a rogue grabs with the serial of a
# click it really got, but after the user turned to another window, or on a parent it never
# showed. None of them gets a key, the keyboard or the selection, and every such popup is
# dismissed. The control: a real menu, opened on a click, gets the keys typed into it.
# The "user" is a trusted client (launched as the panel) driving garnet_test.
# usage: popup-grab-test.sh GARNET ROGUE POLICY   (TAP output)
set -u
garnet=$1
rogue=$2
policy=$3
. "$(dirname "$0")/lib.sh"
echo "1..9"

# session NAME COMBO: garnet.ini with the driver pressing COMBO, garnet started.
session() {
	cat >"$work/garnet.ini" <<INI
[security]
policy=$policy
launcher-restarts=0

[launcher]
panel=$rogue drive $work/go-$1 $work/done-$1 $2
INI
	start_garnet --test-mode
}
stop() {
	kill "$@" 2>/dev/null
	wait "$@" 2>/dev/null
	kill "$pid" && wait "$pid"
	pid=
}

# 1. The keylogger: no window, no click, 600 guessed serials.
session forged "keys:,xyz"
"$rogue" clip-victim "$work/victim.txt" "$work/never" &
victim_pid=$!
wait_for "$work/victim.txt" "^copied" || echo "# the victim never copied"
"$rogue" popup "$work/rogue.txt" none forged &
rogue_pid=$!
wait_for "$work/rogue.txt" "^rogue grabbed" 10 || echo "# the rogue never grabbed"
touch "$work/go-forged"
wait_for "$work/done-forged" "^done" 10 || echo "# the driver did not finish"
wait_for "$work/rogue.txt" "^rogue popup-" 10
stop "$rogue_pid" "$victim_pid"
sed 's/^/# /' "$work/rogue.txt" | grep -v "^# rogue key" | head -20
grep -q "^key 45 1" "$work/victim.txt"
result $? "victim_gets_the_keys_while_a_rogue_grabs"
! grep -q "^rogue key" "$work/rogue.txt" && ! grep -q "^rogue keyboard-enter" "$work/rogue.txt"
result $? "forged_serial_grab_gets_no_key_and_no_keyboard"
! grep -q "^rogue selection" "$work/rogue.txt" && ! grep -q "secret" "$work/rogue.txt"
result $? "forged_serial_grab_gets_no_selection"
grep -q "^rogue popup-done" "$work/rogue.txt" && grep -q "denied: popup grab" "$work/log"
result $? "forged_serial_grab_is_dismissed_and_logged"

# 2. The control: a menu on the window the user clicks, grabbing with that click's serial.
rm -f "$work/rogue.txt"
session menu "keys:,xyz"
"$rogue" popup "$work/rogue.txt" window click &
rogue_pid=$!
wait_for "$work/rogue.txt" "^rogue mapped" || echo "# the menu never mapped"
touch "$work/go-menu"
wait_for "$work/done-menu" "^done" 10 || echo "# the driver did not finish"
wait_for "$work/rogue.txt" "^rogue popup-" 10
stop "$rogue_pid"
sed 's/^/# menu: /' "$work/rogue.txt" | head -12
grep -q "^rogue keyboard-enter popup" "$work/rogue.txt" &&
	grep -q "^rogue key 45 1" "$work/rogue.txt" && grep -q "^rogue popup-kept" "$work/rogue.txt"
result $? "menu_grab_after_a_click_gets_the_keys"

# 3. A real click's serial, used after the user turned to the victim window (with the cycle
# binding: super+l).
rm -f "$work/rogue.txt" "$work/victim.txt"
session stale "super-l"
printf '\n[shell]\nbinding=super+l cycle\n' >>"$work/garnet.ini"
kill "$pid" && wait "$pid"
start_garnet --test-mode
open_window victim_pid window "$work/victim.txt" 100 100 "^keyboard-enter"
"$rogue" popup "$work/rogue.txt" window stale &
rogue_pid=$!
wait_for "$work/rogue.txt" "^rogue mapped" || echo "# the rogue never mapped"
touch "$work/go-stale"
wait_for "$work/done-stale" "^done" 10 || echo "# the driver did not finish"
wait_for "$work/rogue.txt" "^rogue popup-" 15
stop "$rogue_pid" "$victim_pid"
sed 's/^/# stale: /' "$work/rogue.txt" | head -12
grep -q "^rogue button" "$work/rogue.txt" && grep -q "^rogue lost-focus" "$work/rogue.txt" &&
	[ "$(grep "^keyboard-" "$work/victim.txt" | tail -n 1)" = "keyboard-enter" ]
result $? "victim_took_the_keyboard_by_a_binding"
! grep -q "^rogue keyboard-enter popup" "$work/rogue.txt" &&
	grep -q "^rogue popup-done" "$work/rogue.txt"
result $? "grab_with_a_stale_serial_after_focus_moved_is_dismissed"

# 4. A real click's serial, on a parent toplevel that was never shown.
rm -f "$work/rogue.txt"
session unmapped ""
"$rogue" popup "$work/rogue.txt" unmapped click &
rogue_pid=$!
wait_for "$work/rogue.txt" "^rogue mapped" || echo "# the rogue never mapped"
touch "$work/go-unmapped"
wait_for "$work/done-unmapped" "^done" 10 || echo "# the driver did not finish"
wait_for "$work/rogue.txt" "^rogue popup-" 10
stop "$rogue_pid"
sed 's/^/# unmapped: /' "$work/rogue.txt" | head -12
grep -q "^rogue button" "$work/rogue.txt" &&
	! grep -q "^rogue keyboard-enter popup" "$work/rogue.txt" &&
	grep -q "^rogue popup-done" "$work/rogue.txt"
result $? "grab_on_an_unmapped_parent_is_dismissed"
grep -q "parent is not mapped" "$work/log"
result $? "grab_on_an_unmapped_parent_is_logged"
