#!/bin/sh
# SPDX-License-Identifier: MIT
# Client memory read safely: a trusted virtual keyboard (launched by garnet as the on-screen
# keyboard) whose keymap file is shorter than the size it claims gets a protocol error, and
# garnet, which reads keymaps with pread into its own sealed copy, neither maps nor faults on
# it. Positive control: the same client's honest keymap is taken.
# usage: keymap-test.sh GARNET ROGUE POLICY   (TAP output)
set -u
garnet=$1
rogue=$2
policy=$3
. "$(dirname "$0")/lib.sh"
echo "1..3"

cat >"$work/garnet.ini" <<INI
[security]
policy=$policy
launcher-restarts=0

[launcher]
on-screen-keyboard=/bin/sh -c "exec $rogue bad-keymap >$work/keymap.txt 2>&1"
INI
start_garnet

wait_for "$work/log" "launcher on-screen-keyboard exited" 10
sed 's/^/# /' "$work/keymap.txt"
grep -q "an honest keymap was taken" "$work/keymap.txt"
result $? "honest_virtual_keymap_is_taken"
grep -q "a size larger than its file" "$work/keymap.txt" &&
	grep -q "sent a 4096-byte keymap file as 1 MiB; Invalid argument" "$work/keymap.txt"
result $? "keymap_shorter_than_its_size_is_a_protocol_error"
garnet_serves_a_new_client
result $? "garnet_serves_on"
