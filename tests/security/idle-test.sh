#!/bin/sh
# SPDX-License-Identifier: MIT
# Timing keystrokes through ext-idle-notify: an untrusted client asks to be told after 1 ms
# without input, so that each idled/resumed pair would mark a key typed into another window.
# It gets a timeout of at least 10 s, and nothing at all while the session is locked. The
# trusted idle daemon (a launcher entry the policy grants garnet.idle-notify) keeps any
# timeout and hears about idleness while locked.
# usage: idle-test.sh GARNET ROGUE POLICY   (TAP output)
set -u
garnet=$1
rogue=$2
policy=$3
. "$(dirname "$0")/lib.sh"
echo "1..5"

# The victim types four letters, each followed by Return and a pause of 1.5 s.
cat >"$work/garnet.ini" <<INI
[security]
policy=$policy
launcher-restarts=0

[launcher]
lock-screen=$rogue idle $work/trusted.txt 1 20
panel=$rogue drive $work/go $work/done type:a,b,c,d,
INI
# --test-mode only for the trusted driver's garnet_test: the spy uses none of it.
start_garnet --test-mode
open_window victim_pid window "$work/victim.txt" 1024 768 "^keyboard-enter"
"$rogue" idle "$work/untrusted.txt" 1 12 &
spy=$!
wait_for "$work/untrusted.txt" "^watching" && wait_for "$work/trusted.txt" "^watching"
touch "$work/go"
wait_for "$work/done" "^done" 15 || echo "# the driver did not finish"
kill "$spy" 2>/dev/null
wait "$spy" 2>/dev/null
untrusted=$(grep -c "^resumed" "$work/untrusted.txt")
trusted=$(grep -c "^resumed" "$work/trusted.txt")
echo "# resumed events while the victim typed: untrusted $untrusted, trusted $trusted"
grep -q "^key 32 1" "$work/victim.txt"
result $? "victim_receives_the_keys"
[ "$untrusted" -le 1 ]
result $? "untrusted_idle_client_cannot_time_keystrokes"
[ "$trusted" -ge 4 ]
result $? "trusted_idle_daemon_keeps_its_timeout"
kill "$victim_pid" 2>/dev/null
wait "$victim_pid" 2>/dev/null
kill "$pid" && wait "$pid"
pid=

# Locked: both ask for 10 s (the floor) and the user leaves; only the trusted one is told.
rm -f "$work/trusted.txt" "$work/untrusted.txt"
cat >"$work/garnet.ini" <<INI
[security]
policy=$policy
launcher-restarts=0

[launcher]
lock-screen=$rogue locker $work/locker.txt $work/lock-now
panel=$rogue idle $work/trusted.txt 10000 14
INI
start_garnet
"$rogue" idle "$work/untrusted.txt" 10000 14 &
spy=$!
wait_for "$work/untrusted.txt" "^watching" && wait_for "$work/trusted.txt" "^watching"
touch "$work/lock-now"
wait_for "$work/locker.txt" "^shown" || echo "# the locker did not lock"
wait "$spy"
wait_for "$work/trusted.txt" "^done" 5
sed 's/^/# untrusted: /' "$work/untrusted.txt"
sed 's/^/# trusted: /' "$work/trusted.txt"
! grep -q "^idled" "$work/untrusted.txt" && grep -q "^done" "$work/untrusted.txt"
result $? "untrusted_idle_client_hears_nothing_while_locked"
grep -q "^idled" "$work/trusted.txt"
result $? "trusted_idle_daemon_is_told_while_locked"
