#!/bin/sh
# SPDX-License-Identifier: MIT
# The session lock: only the trusted locker may lock; killing it leaves the session locked, no
# input reaches any other client, bindings are inert, and no untrusted client can take the
# abandoned lock over.
# usage: lock-test.sh GARNET ROGUE POLICY   (TAP output)
set -u
garnet=$1
rogue=$2
policy=$3
. "$(dirname "$0")/lib.sh"
echo "1..8"

cat >"$work/garnet.ini" <<INI
[security]
policy=$policy
launcher-restarts=0

[shell]
binding=ctrl+alt+BackSpace quit

[launcher]
lock-screen=$rogue locker $work/locker.txt $work/lock-now
panel=$rogue drive $work/go $work/done quit
INI
start_garnet --test-mode

# An untrusted client cannot lock the user out: no global, and a guessed name is an error.
"$rogue" lock "$work/untrusted.txt"
[ $? -eq 0 ] && grep -qx no-global "$work/untrusted.txt"
result $? "untrusted_client_cannot_lock"
"$rogue" bind-hidden ext_session_lock_manager_v1 >"$work/bind.txt"
[ $? -eq 0 ] && grep -q "protocol error" "$work/bind.txt"
result $? "untrusted_bind_of_lock_manager_is_a_protocol_error"

# The victim has the focus; then the trusted locker locks and shows its surface.
open_window victim_pid window "$work/victim.txt" 1024 768 "^keyboard-enter"
touch "$work/lock-now"
wait_for "$work/locker.txt" "^shown" && wait_for "$work/victim.txt" "^keyboard-leave"
result $? "trusted_locker_locks_and_victim_loses_focus"

# Kill the locker: the session stays locked.
locker_pid=$(sed -n 's/^locked //p' "$work/locker.txt")
[ -n "$locker_pid" ] && kill -9 "$locker_pid"
wait_for "$work/log" "stays locked"
result $? "killing_the_locker_keeps_the_session_locked"

# An untrusted client tries to take the abandoned lock over.
"$rogue" lock "$work/takeover.txt"
[ $? -eq 0 ] && ! grep -q "^locked" "$work/takeover.txt"
result $? "untrusted_client_cannot_take_over_the_abandoned_lock"

# The user types, clicks, touches and presses the quit binding: nothing reaches the victim,
# and the binding does nothing.
lines_before=$(wc -l <"$work/victim.txt")
touch "$work/go"
# The driver writes "done" only after garnet took every event it injected: without it the
# checks below would hold of a user who never typed.
wait_for "$work/done" "^done"
driven=$?
[ $driven -eq 0 ] || echo "# the driver did not finish"
sleep 0.3
tail -n +"$((lines_before + 1))" "$work/victim.txt" >"$work/victim-after.txt"
sed 's/^/# victim after the lock: /' "$work/victim-after.txt"
[ $driven -eq 0 ] &&
	! grep -Eq "^(key|button|axis|motion|touch|pointer-enter|keyboard-enter)" "$work/victim-after.txt"
result $? "no_input_reaches_the_victim_while_locked"
[ $driven -eq 0 ] && kill -0 "$pid" && ! grep -q "shutting down" "$work/log"
result $? "bindings_are_inert_while_locked"
grep -q "deny: pid [0-9]* uid [0-9]* exe $(readlink -f "$rogue") privileged-global ext_session_lock_manager_v1" \
	"$work/log"
result $? "refusals_are_logged"
kill "$victim_pid" 2>/dev/null
wait "$victim_pid" 2>/dev/null || true
