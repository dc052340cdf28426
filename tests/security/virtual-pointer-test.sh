#!/bin/sh
# SPDX-License-Identifier: MIT
# zwlr_virtual_pointer_v1 from the attacker's side: moving the user's pointer and clicking in
# another client's window. An unknown client is not shown the manager and a guessed bind is
# refused; the panel, which holds other privileged globals but not virtual-pointer, is refused
# the pointer with a protocol error; the launched on-screen keyboard clicks (positive control).
# usage: virtual-pointer-test.sh GARNET ROGUE POLICY   (TAP output)
set -u
garnet=$1
rogue=$2
policy=$3
. "$(dirname "$0")/lib.sh"
echo "1..6"

cat >"$work/garnet.ini" <<INI
[security]
policy=$policy
launcher-restarts=0

[launcher]
panel=$rogue vpointer $work/panel.txt 512 384 1024 768
on-screen-keyboard=$rogue vpointer $work/osk.txt 512 384 1024 768
INI
# No --test-mode: nothing here needs garnet_test, and no client gets it.
start_garnet
open_window victim window "$work/victim.txt" 1024 768 "^keyboard-enter"

touch "$work/unknown.txt.go"
"$rogue" vpointer "$work/unknown.txt" 512 384 1024 768 >/dev/null 2>&1
grep -qx "no-global" "$work/unknown.txt"
result $? "unknown_client_is_not_shown_the_virtual_pointer_manager"
"$rogue" bind-hidden zwlr_virtual_pointer_manager_v1 >"$work/bind.txt" 2>/dev/null
[ $? -eq 0 ] && grep -q "all refused" "$work/bind.txt"
result $? "unknown_clients_guessed_bind_of_the_manager_is_refused"

touch "$work/panel.txt.go"
wait_for "$work/panel.txt" "^protocol-error"
refused=$?
sleep 0.3
[ $refused -eq 0 ] && ! grep -q "^button" "$work/victim.txt"
result $? "panel_without_virtual_pointer_permission_is_refused_and_clicks_nothing"
grep -q "denied: pid [0-9]* may not move the pointer" "$work/log"
result $? "virtual_pointer_refusal_is_logged"

touch "$work/osk.txt.go"
wait_for "$work/osk.txt" "^connected" && wait_for "$work/victim.txt" "^button"
result $? "launched_on_screen_keyboard_clicks_in_the_window_under_the_pointer"
garnet_serves_a_new_client
result $? "garnet_serves_clients_at_the_end"
kill "$victim" 2>/dev/null
wait "$victim" 2>/dev/null
# The victim's status (killed) is not the script's.
exit 0
