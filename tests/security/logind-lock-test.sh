#!/bin/sh
# SPDX-License-Identifier: MIT
# `loginctl lock-session`: logind's Lock signal for garnet's session locks it (the trusted
# locker, or garnet's own lock screen when there is none). A Lock sent by anyone but logind,
# and logind's Unlock, change nothing. logind is a stand-in on a private system bus.
# usage: logind-lock-test.sh GARNET ROGUE POLICY FAKE_LOGIND   (TAP output)
set -u
garnet=$1
rogue=$2
policy=$3
fake_logind=$4
. "$(dirname "$0")/lib.sh"
if ! command -v dbus-daemon >/dev/null || ! command -v busctl >/dev/null; then
	echo "1..0 # SKIP dbus-daemon and busctl are needed for a private system bus"
	exit 0
fi
echo "1..8"

. "$(dirname "$0")/logind-stand-in.sh"
start_logind_stand_in "$fake_logind"

cat >"$work/garnet.ini" <<INI
[security]
policy=$policy
launcher-restarts=0

[shell]
binding=super+l launch lock-screen

[launcher]
lock-screen=$rogue locker $work/locker.txt
INI
XDG_SESSION_ID=c7 start_garnet
wait_for "$work/log" "locking on Lock of /org/freedesktop/login1/session/c7"
result $? "garnet_listens_to_its_own_logind_session"

# Any program on the bus can send a signal that looks like logind's: it is not from logind.
busctl --address="$DBUS_SYSTEM_BUS_ADDRESS" emit /org/freedesktop/login1/session/c7 \
	org.freedesktop.login1.Session Lock
sleep 0.5
! grep -q "lock-session: locking" "$work/log" && [ ! -e "$work/locker.txt" ]
result $? "a_lock_signal_from_another_program_is_ignored"
# Nor one addressed to garnet alone (the bus delivers that whatever garnet's match says).
garnet_name=$(busctl --address="$DBUS_SYSTEM_BUS_ADDRESS" list --no-legend 2>/dev/null |
	awk -v p="$pid" '$1 ~ /^:/ && $2 == p {print $1; exit}')
echo "# garnet is $garnet_name on the bus"
[ -n "$garnet_name" ] && busctl --address="$DBUS_SYSTEM_BUS_ADDRESS" emit \
	--destination="$garnet_name" /org/freedesktop/login1/session/c7 \
	org.freedesktop.login1.Session Lock &&
	wait_for "$work/log" "sent to garnet alone by .* ignored" &&
	! grep -q "lock-session: locking" "$work/log" && [ ! -e "$work/locker.txt" ]
result $? "a_lock_signal_sent_to_garnet_alone_is_ignored"

kill -USR1 "$logind_pid"
wait_for "$work/log" "loginctl lock-session: locking" && wait_for "$work/locker.txt" "^locked"
result $? "loginctl_lock_session_starts_the_trusted_locker_which_locks"

kill -USR2 "$logind_pid"
wait_for "$work/log" "logind asked to unlock; ignored"
result $? "logind_unlock_is_ignored"
sleep 0.3
! grep -q "session unlocked" "$work/log" && kill -0 "$(sed -n 's/^locked //p' "$work/locker.txt")"
result $? "the_session_stays_locked_by_the_locker"
kill "$pid" 2>/dev/null
wait "$pid"
pid=

# Without a locker, garnet locks with its own lock screen rather than not at all.
sed -i '/^lock-screen=/d; /^binding=/d' "$work/garnet.ini"
# garnet appends to its log: emptied, so that the waits below hear this garnet, not the last.
: >"$work/log"
XDG_SESSION_ID=c7 start_garnet
wait_for "$work/log" "locking on Lock of"
kill -USR1 "$logind_pid"
wait_for "$work/log" "locked with garnet's own lock screen"
result $? "without_a_locker_garnet_locks_with_its_own_lock_screen"

# A session garnet does not run in: the stand-in knows no session "c8", so there is nothing
# to listen to, and garnet says so and runs on.
kill "$pid" 2>/dev/null
wait "$pid"
pid=
: >"$work/log"
XDG_SESSION_ID=c8 start_garnet
wait_for "$work/log" "no session of ours" && kill -0 "$pid"
result $? "an_unknown_session_is_reported_and_garnet_runs_on"
