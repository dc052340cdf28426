#!/bin/sh
# SPDX-License-Identifier: MIT
# Darkening the screens through zwlr_output_power_v1: an unknown client neither sees the
# manager nor darkens anything; a launched client without garnet.output-power gets failed and
# an audit line; the launched idle daemon darkens the output and lights it again, and garnet's
# lock screen lights an output it left dark.
# usage: output-power-test.sh GARNET ROGUE POLICY   (TAP output)
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
panel=$rogue power $work/panel.txt off
INI
start_garnet
"$rogue" power "$work/rogue.txt" off &
rogue_pid=$!
wait_for "$work/rogue.txt" "no-global\|done" && sleep 0.3
sed 's/^/# rogue: /' "$work/rogue.txt"
grep -q "^no-global" "$work/rogue.txt" && ! grep -q "powered off" "$work/log"
result $? "unknown_client_cannot_power_the_output_off"
kill "$rogue_pid" 2>/dev/null
wait "$rogue_pid" 2>/dev/null

# The panel may bind privileged globals, but darkening the screens is not its.
wait_for "$work/panel.txt" "^done"
sed 's/^/# panel: /' "$work/panel.txt"
grep -q "^failed" "$work/panel.txt" && ! grep -q "^mode" "$work/panel.txt" &&
	! grep -q "powered off" "$work/log" &&
	grep -q "deny: .*garnet.output-power HEADLESS-1" "$work/log"
result $? "launched_client_without_output_power_gets_failed_and_an_audit_line"
kill "$pid" 2>/dev/null
wait "$pid"
pid=

cat >"$work/garnet.ini" <<INI
[security]
policy=$policy
launcher-restarts=0

[launcher]
idle=$rogue power $work/idle.txt off,on
INI
start_garnet
wait_for "$work/idle.txt" "^done"
sed 's/^/# idle: /' "$work/idle.txt"
grep -q "HEADLESS-1: powered off by a client" "$work/log" &&
	[ "$(grep '^mode' "$work/idle.txt" | tr '\n' ' ')" = "mode on mode off mode on " ]
result $? "idle_daemon_powers_the_output_off_and_on"
grep -q "HEADLESS-1: powered on" "$work/log"
result $? "the_output_is_lit_again"
kill "$pid" 2>/dev/null
wait "$pid"
pid=

# Dark when garnet locks: the lock screen is not shown on a screen a client keeps dark.
rm -f "$work/idle.txt" "$work/log"
cat >"$work/garnet.ini" <<INI
[security]
policy=$policy
launcher-restarts=0

[launcher]
idle=$rogue power $work/idle.txt off
lock-screen=$rogue locker $work/locker.txt $work/lock-now
INI
start_garnet
wait_for "$work/idle.txt" "^done"
grep -q "powered off by a client" "$work/log"
result $? "the_idle_daemon_darkened_the_output_before_the_lock"
touch "$work/lock-now"
wait_for "$work/locker.txt" "^locked" || echo "# the locker did not lock"
wait_for "$work/idle.txt" "^mode on" 2 && [ "$(grep -c '^mode on' "$work/idle.txt")" -ge 2 ] &&
	grep -q "HEADLESS-1: powered on" "$work/log"
result $? "the_lock_screen_lights_an_output_a_client_darkened"
sed 's/^/# idle: /' "$work/idle.txt"
