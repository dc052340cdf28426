#!/bin/sh
# SPDX-License-Identifier: MIT
# The sample on-screen keyboard (garnet-osk), launched by garnet as the input method: its keys
# appear under the text cursor of the focused text field, and a click on one types that letter
# into the field and nowhere else. Started by anyone else, it finds no input method manager.
# usage: on-screen-keyboard-test.sh GARNET ROGUE POLICY OSK   (TAP output)
set -u
garnet=$1
rogue=$2
policy=$3
osk=$4
. "$(dirname "$0")/lib.sh"
echo "1..4"

# The text field fills the 1024x768 output; its cursor rectangle is (0, 0, 1x20), so the keys
# (24 pixels each; "asdfghjkl" is the second row) begin at (0, 20): h is at (132, 56).
cat >"$work/garnet.ini" <<INI
[security]
policy=$policy
launcher-restarts=0

[launcher]
input-method=$osk
panel=$rogue drive $work/go $work/done click:132,56
INI
start_garnet --test-mode
open_window bystander_pid window "$work/bystander.txt" 100 100 "^mapped"
"$rogue" text-field "$work/field.txt" 1024 768 &
field_pid=$!
wait_for "$work/field.txt" "^text-enter"
result $? "the_focused_text_field_is_entered"
sleep 0.3
touch "$work/go"
wait_for "$work/field.txt" "^text h$"
result $? "a_click_on_a_key_types_its_letter_into_the_focused_field"
grep -q "launcher input-method: started" "$work/log" && ! grep -q "input method refused" "$work/log"
result $? "the_launched_osk_is_the_seats_input_method"
# Anyone else running the same program gets no input method at all.
"$osk" >"$work/untrusted.out" 2>&1
untrusted=$?
kill "$bystander_pid" "$field_pid" 2>/dev/null
wait "$bystander_pid" "$field_pid" 2>/dev/null
sed 's/^/# untrusted osk: /' "$work/untrusted.out"
[ $untrusted -ne 0 ] && grep -q "no input method manager" "$work/untrusted.out" &&
	! grep -q "^text" "$work/bystander.txt"
result $? "an_osk_started_by_anyone_else_finds_no_input_method"
