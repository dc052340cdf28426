#!/bin/sh
# SPDX-License-Identifier: MIT
# Virtual keyboards: wtype, launched by garnet as the on-screen keyboard, types into the
# focused window and nowhere else; the same wtype started by anyone from the public socket
# finds no virtual keyboard at all, and binding the hidden global (or the input method's) by
# name is an error.
# usage: trusted-typist-test.sh GARNET ROGUE POLICY   (TAP output)
set -u
garnet=$1
rogue=$2
policy=$3
. "$(dirname "$0")/lib.sh"
if ! command -v wtype >/dev/null; then
	echo "1..0 # SKIP wtype is not installed"
	exit 0
fi
echo "1..6"

# The on-screen keyboard waits for the victim, then becomes wtype on the same connection.
cat >"$work/osk.sh" <<SH
#!/bin/sh
while [ ! -e $work/go ]; do sleep 0.1; done
exec wtype hi
SH
chmod +x "$work/osk.sh"
cat >"$work/garnet.ini" <<INI
[security]
policy=$policy
launcher-restarts=0

[launcher]
on-screen-keyboard=$work/osk.sh
INI
start_garnet --test-mode

# The bystander maps first, small; the victim maps over the whole output and takes the focus.
open_window bystander_pid window "$work/bystander.txt" 100 100 "^mapped"
open_window victim_pid window "$work/victim.txt" 1024 768 "^keyboard-enter"
touch "$work/go"
# wtype sends its own keymap, in which h and i are keys 1 and 2.
wait_for "$work/victim.txt" "^key 2 0"
result $? "trusted_wtype_types_into_the_focused_window"
[ "$(grep "^key " "$work/victim.txt" | tr '\n' ' ')" = "key 1 1 key 1 0 key 2 1 key 2 0 " ]
result $? "the_focused_window_gets_exactly_those_keys_in_order"

# Anyone else: no virtual keyboard to be found, and nothing reaches the victim.
before=$(grep -c "^key " "$work/victim.txt")
wtype intruder >"$work/untrusted.out" 2>&1
untrusted=$?
sleep 0.3
[ $untrusted -ne 0 ] && [ "$(grep -c "^key " "$work/victim.txt")" -eq "$before" ]
result $? "untrusted_wtype_cannot_type"
"$rogue" bind-hidden zwp_virtual_keyboard_manager_v1 >"$work/bind.txt"
[ $? -eq 0 ] && grep -q "protocol error" "$work/bind.txt"
result $? "untrusted_bind_of_the_virtual_keyboard_manager_is_a_protocol_error"
"$rogue" bind-hidden zwp_input_method_manager_v2 >"$work/bind-im.txt"
[ $? -eq 0 ] && grep -q "protocol error" "$work/bind-im.txt"
result $? "untrusted_bind_of_the_input_method_manager_is_a_protocol_error"
kill "$bystander_pid" "$victim_pid" 2>/dev/null
wait "$bystander_pid" "$victim_pid" 2>/dev/null
! grep -q "^key " "$work/bystander.txt"
result $? "the_unfocused_window_gets_no_key"
