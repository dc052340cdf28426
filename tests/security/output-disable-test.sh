#!/bin/sh
# SPDX-License-Identifier: MIT
# Turning outputs off through zwlr_output_manager_v1 (disable_head), as an attacker would: a
# launched client without garnet.output-config (the panel) cannot turn an output off or on
# (failed, an audit line, both outputs as they were); the output-config client turning the
# second output off and on again (at another size each time) in a loop leaves garnet serving
# with both outputs on, and its configuration with a stale serial is cancelled; an unknown
# client sees no manager at all; turning the last output off fails.
# usage: output-disable-test.sh GARNET ROGUE POLICY   (TAP output)
set -u
garnet=$1
rogue=$2
policy=$3
. "$(dirname "$0")/lib.sh"
echo "1..5"

stop() {
	kill "$pid" 2>/dev/null
	wait "$pid"
	pid=
	rm -f "$work/log"
}

two_outputs() { # two_outputs ROLE: garnet.ini with two outputs and the rogue in ROLE
	cat >"$work/garnet.ini" <<INI
[security]
policy=$policy
launcher-restarts=0

[output]
mode=320x240

[output]
mode=320x240

[launcher]
$1=$rogue outman $work/$1.txt toggle
INI
}

two_outputs panel
start_garnet
wait_for "$work/panel.txt" "^done"
sed 's/^/# panel: /' "$work/panel.txt"
grep -q "^toggled 0 succeeded 60 other" "$work/panel.txt" &&
	! grep -q "HEADLESS-2: disabled" "$work/log" &&
	grep -q "deny: .*garnet.output-config HEADLESS-" "$work/log"
result $? "launched_client_without_output_config_cannot_turn_an_output_off"
"$rogue" outman "$work/unknown.txt" toggle &
rogue_pid=$!
wait_for "$work/unknown.txt" "no-global\|done" && sleep 0.3
grep -q "^no-global" "$work/unknown.txt"
result $? "unknown_client_sees_no_manager_to_turn_outputs_off_with"
kill "$rogue_pid" 2>/dev/null
wait "$rogue_pid" 2>/dev/null
stop

two_outputs output-config
start_garnet
wait_for "$work/output-config.txt" "^done"
sed 's/^/# output-config: /' "$work/output-config.txt" | grep -v "^# output-config: second-"
grep -q "^toggled 60 succeeded 0 other" "$work/output-config.txt" &&
	[ "$(grep -c "HEADLESS-2: disabled" "$work/log")" -eq 30 ] &&
	[ "$(grep -c "HEADLESS-2: enabled" "$work/log")" -eq 30 ] &&
	grep -q "^head HEADLESS-2 [0-9x]* at [0-9,]* scale 1$" "$work/output-config.txt" &&
	garnet_serves_a_new_client
result $? "output_config_client_turns_an_output_off_and_on_in_a_loop_and_garnet_serves"
grep -q "^stale-serial cancelled" "$work/output-config.txt"
result $? "a_stale_configuration_is_cancelled"
stop

# One output: turning it off would leave nothing to show the lock on.
cat >"$work/garnet.ini" <<INI
[security]
policy=$policy
launcher-restarts=0

[launcher]
output-config=$rogue outman $work/one.txt extremes
INI
start_garnet
wait_for "$work/one.txt" "^done"
grep -q "^disable failed" "$work/one.txt" && ! grep -q "disabled" "$work/log" &&
	garnet_serves_a_new_client
result $? "the_last_output_cannot_be_turned_off"
stop
