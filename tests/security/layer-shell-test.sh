#!/bin/sh
# SPDX-License-Identifier: MIT
# zwlr_layer_shell_v1 from the attacker's side (doc/layer-shell.md). An unknown client's overlay
# is closed before it shows anything (the panel's maps); an unknown client's surface that asks
# for the keyboard exclusively gets no key while a window has it (the panel's gets them); while
# the session is locked the panel's exclusive surface gets no key and its full-screen overlay is
# not drawn over the lock; malformed requests are protocol errors, never a crash.
# usage: layer-shell-test.sh GARNET ROGUE POLICY SCREENSHOOTER PNG-ONE-COLOUR   (TAP output)
set -u
garnet=$1
rogue=$2
policy=$3
shooter=$4
one_colour=$5
. "$(dirname "$0")/lib.sh"
echo "1..16"

# ---- the policy: overlay and exclusive keyboard for the desktop's own parts ----
cat >"$work/garnet.ini" <<INI
[security]
policy=$policy
launcher-restarts=0

[shell]
binding=super+m maximize

[launcher]
panel=$rogue layer $work/panel.txt overlay anchor=tlr size=0x40 zone=40
INI
# --test-mode only for the driver's garnet_test (the "user"); the rogues use none of it.
start_garnet --test-mode
wait_for "$work/panel.txt" "^mapped"
"$rogue" layer "$work/unknown.txt" overlay seconds=2
wait_for "$work/unknown.txt" "^closed" && ! grep -q "^mapped\|^configure" "$work/unknown.txt"
result $? "unknown_clients_overlay_is_closed_before_it_shows"
grep -q "deny: pid [0-9]* uid [0-9]* exe $(readlink -f "$rogue").*garnet.layer overlay" "$work/log"
result $? "overlay_refusal_is_logged_with_identity"
grep -q "^mapped" "$work/panel.txt" && ! grep -q "^closed" "$work/panel.txt"
result $? "launched_panel_maps_in_the_overlay"

# Every client may have a layer surface below the overlay; the panel's exclusive zone (40) is
# taken from what a surface that avoids zones gets.
"$rogue" layer "$work/top.txt" top anchor=tblr size=0x0 seconds=2
grep -q "^mapped" "$work/top.txt" && grep -q "^configure 1024 728" "$work/top.txt"
result $? "unknown_clients_top_layer_maps_beside_the_panels_zone"
# The user types into a window; an unknown client's surface asking for the keyboard
# exclusively maps over it and would take every key from then on.
open_window victim window "$work/victim.txt" 300 200 "^keyboard-enter"
"$rogue" drive "$work/go" "$work/done0" >/dev/null 2>&1 &
touch "$work/go"
wait_for "$work/done0" "^done"
"$rogue" layer "$work/greedy.txt" top anchor=t size=100x20 keyboard=exclusive seconds=3 &
greedy=$!
wait_for "$work/greedy.txt" "^mapped"
rm -f "$work/go"
"$rogue" drive "$work/go" "$work/done00" >/dev/null 2>&1 &
touch "$work/go"
wait_for "$work/done00" "^done"
sleep 0.3
[ "$(grep -c "^key 30 1" "$work/victim.txt")" -eq 2 ] && ! grep -q "^keyboard-enter\|^key " "$work/greedy.txt"
result $? "unknown_clients_exclusive_surface_does_not_take_the_keyboard"
# The window maximized fills what the panel's zone leaves.
rm -f "$work/go"
"$rogue" drive "$work/go" "$work/done000" super-m >/dev/null 2>&1 &
touch "$work/go"
wait_for "$work/done000" "^done"
wait_for "$work/victim.txt" "^configure 1024 728"
result $? "maximized_window_fills_what_the_panels_exclusive_zone_leaves"
kill "$greedy" "$victim" 2>/dev/null
wait "$greedy" "$victim" 2>/dev/null
rm -f "$work/go"

# ---- malformed requests ----
check_abuse() { # ATTACK EXPECTED NAME
	"$rogue" layer-abuse "$1" >"$work/abuse.txt" 2>&1
	sed "s/^/# $1: /" "$work/abuse.txt"
	grep -q "$2" "$work/abuse.txt" && garnet_serves_a_new_client
	result $? "$3"
}
check_abuse zero-size "protocol-error zwlr_layer_surface_v1 1" \
	"zero_size_without_anchors_is_invalid_size"
check_abuse bad-layer "protocol-error zwlr_layer_shell_v1 1" "unknown_layer_is_invalid_layer"
check_abuse bad-anchor "protocol-error zwlr_layer_surface_v1 2" "unknown_anchor_is_invalid_anchor"
check_abuse buffer-before-configure "protocol-error zwlr_layer_surface_v1 0" \
	"buffer_before_the_first_configure_is_invalid_surface_state"
check_abuse huge-zone "^alive" "int32_max_exclusive_zone_leaves_garnet_serving"
check_abuse huge-margin "^closed" "int32_max_margins_close_the_surface"
check_abuse destroyed-surface "^alive" "requests_on_a_layer_surface_whose_surface_is_gone_are_inert"
kill "$pid" && wait "$pid"
pid=

# ---- the keyboard, and the lock ----
lock_colour=64,128,191
cat >"$work/garnet.ini" <<INI
[security]
policy=$policy
launcher-restarts=0

[shell]
builtin-cursor=false

[launcher]
panel=$rogue layer $work/panel2.txt overlay anchor=tblr size=0x0 zone=-1 keyboard=exclusive
lock-screen=$rogue locker $work/locker.txt $work/lock-now
screenshooter=$shooter --wait-for $work/shot-go $work/shot.png
INI
# --test-mode only for the driver's garnet_test (the "user"); the rogues use none of it.
start_garnet --test-mode
wait_for "$work/panel2.txt" "^keyboard-enter"
"$rogue" drive "$work/go" "$work/done1" >/dev/null 2>&1 &
touch "$work/go"
wait_for "$work/done1" "^done"
grep -q "^key 30 1" "$work/panel2.txt"
result $? "launched_panels_exclusive_surface_gets_the_keys"

sleep 0.3
keys_before=$(grep -c "^key " "$work/panel2.txt")
touch "$work/lock-now"
wait_for "$work/locker.txt" "^shown" || echo "# the locker did not lock"
rm -f "$work/go"
"$rogue" drive "$work/go" "$work/done2" >/dev/null 2>&1 &
touch "$work/go"
wait_for "$work/done2" "^done"
sleep 0.3
[ "$(grep -c "^key " "$work/panel2.txt")" -eq "$keys_before" ] &&
	grep -q "^keyboard-leave" "$work/panel2.txt"
result $? "exclusive_layer_surface_gets_no_key_while_locked"
touch "$work/shot-go"
wait_for "$work/log" "launcher screenshooter exited" || echo "# no screenshot"
wait_for "$work/shot.png" "" || echo "# no shot.png" # written after the shooter disconnects
python3 "$one_colour" "$work/shot.png" "$lock_colour" | sed 's/^/# /'
python3 "$one_colour" "$work/shot.png" "$lock_colour"
result $? "full_screen_overlay_is_not_drawn_over_the_lock"
