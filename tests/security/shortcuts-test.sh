#!/bin/sh
# SPDX-License-Identifier: MIT
# Global shortcuts cannot become a keylogger: an untrusted client asking garnet_shortcuts_v1 for
# every action and every key gets none, hears nothing when the keys are pressed, and naming a
# key combination is a protocol error. The trusted panel holding play-pause hears "activated"
# only, and the focused window does not get the bound key.
# usage: shortcuts-test.sh GARNET ROGUE POLICY   (TAP output)
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

[shortcuts]
play-pause=super+l

[launcher]
panel=$rogue shortcuts $work/holder.txt 8
INI
start_garnet --test-mode
open_window victim_pid window "$work/victim.txt" 1024 768 "^keyboard-enter"
wait_for "$work/holder.txt" "^bound play-pause" || echo "# the panel holds no action"
"$rogue" shortcuts "$work/rogue.txt" 3 &
rogue_pid=$!
wait_for "$work/rogue.txt" "^refused play-pause"
# The user presses the play-pause key (super+l) while the rogue listens.
touch "$work/go"
"$rogue" drive "$work/go" "$work/done" super-l
wait_for "$work/holder.txt" "^activated play-pause"
holder_heard=$?
wait "$rogue_pid"
rogue_status=$?
sed 's/^/# /' "$work/rogue.txt"

[ $rogue_status -eq 0 ] && grep -q "^refused play-pause 2$" "$work/rogue.txt" &&
	grep -q "^0 bound$" "$work/rogue.txt" && ! grep -q "^bound" "$work/rogue.txt"
result $? "an_untrusted_client_is_refused_every_action"
grep -q "^refused a 0$" "$work/rogue.txt" && grep -q "^refused f12 0$" "$work/rogue.txt" &&
	grep -q "^protocol error for a key name$" "$work/rogue.txt"
result $? "keys_are_no_actions_and_a_key_name_is_a_protocol_error"
! grep -q "^activated" "$work/rogue.txt"
result $? "the_rogue_hears_nothing_when_the_key_is_pressed"
[ $holder_heard -eq 0 ] && ! grep -q "^activated [^p]" "$work/holder.txt"
result $? "the_trusted_panel_hears_its_action_and_nothing_else"
kill "$victim_pid" 2>/dev/null
wait "$victim_pid" 2>/dev/null
# It got the drive's other key (a), so it was listening.
grep -q "^key 30 " "$work/victim.txt" && ! grep -q "^key 38 " "$work/victim.txt"
result $? "the_focused_window_does_not_get_the_shortcut_key"
grep -q "deny: pid [0-9]* uid [0-9]* exe $(readlink -f "$rogue") global-shortcut play-pause" \
	"$work/log"
result $? "the_refusal_is_logged_with_the_verified_identity"
