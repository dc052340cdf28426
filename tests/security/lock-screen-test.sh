#!/bin/sh
# SPDX-License-Identifier: MIT
# garnet's own lock screen: the locker is killed, the session stays locked, and garnet's
# prompt takes the keyboard. A wrong password keeps it locked, the right one (checked by PAM)
# unlocks, and the window behind never sees a key of either.
# usage: lock-screen-test.sh GARNET ROGUE POLICY   (TAP output)
set -u
garnet=$1
rogue=$2
policy=$3
. "$(dirname "$0")/lib.sh"
echo "1..6"

# A PAM service of the test's own, in a directory of its own that the system garnet.ini names
# (the host's /etc/pam.d is neither read nor written): pam_exec hands the password to a script
# that knows it.
service=garnet-test
pamfile=$work/pam.d/$service
mkdir "$work/pam.d"
cat >"$work/check-password.sh" <<'SH'
#!/bin/sh
[ "$(tr -d '\000')" = "sesame" ]
SH
chmod +x "$work/check-password.sh"
printf 'auth required pam_exec.so expose_authtok quiet %s\naccount required pam_permit.so\n' \
	"$work/check-password.sh" >"$pamfile"

cat >"$work/garnet.ini" <<INI
[security]
policy=$policy
launcher-restarts=0
unlock-pam-service=$service
unlock-pam-confdir=$work/pam.d

[launcher]
lock-screen=$rogue locker $work/locker.txt $work/lock-now
panel=$rogue drive $work/go $work/done type:nope,sesame,
INI
start_garnet --test-mode
open_window victim_pid window "$work/victim.txt" 1024 768 "^keyboard-enter"
touch "$work/lock-now"
wait_for "$work/locker.txt" "^locked" || echo "# the locker did not lock"
locker_pid=$(sed -n 's/^locked //p' "$work/locker.txt")
[ -n "$locker_pid" ] && kill -9 "$locker_pid"
wait_for "$work/log" "stays locked"
lines=$(wc -l <"$work/victim.txt")

touch "$work/go"
wait_for "$work/log" "authentication failed: still locked"
result $? "a_wrong_password_keeps_the_session_locked"
wait_for "$work/log" "unlocked by garnet's lock screen" 10
result $? "the_right_password_checked_by_pam_unlocks"
wait_for "$work/victim.txt" "^keyboard-enter" &&
	[ "$(grep -c '^keyboard-enter' "$work/victim.txt")" -ge 2 ]
result $? "the_window_gets_the_keyboard_back"
kill "$victim_pid" 2>/dev/null
wait "$victim_pid" 2>/dev/null
tail -n +"$((lines + 1))" "$work/victim.txt" >"$work/after.txt"
! grep -q "^key " "$work/after.txt"
result $? "the_window_never_saw_a_key_of_the_passwords"

# The trusted locker may still take an abandoned lock over from garnet's lock screen: killed
# once, it is restarted by garnet and locks again.
kill "$pid" 2>/dev/null
wait "$pid"
pid=
rm -f "$work/locker.txt"
sed -i 's/^launcher-restarts=0$/launcher-restarts=1/; /^panel=/d' "$work/garnet.ini"
start_garnet --test-mode
wait_for "$work/locker.txt" "^locked" || echo "# the locker did not lock"
locker_pid=$(sed -n 's/^locked //p' "$work/locker.txt" | head -n 1)
[ -n "$locker_pid" ] && kill -9 "$locker_pid"
wait_for "$work/log" "stays locked" && wait_for "$work/log" "the abandoned lock was taken over"
result $? "the_trusted_locker_takes_the_abandoned_lock_over"

# A PAM directory another user may write would let them choose the password: refused, and
# garnet's lock screen then accepts none. Control: the same directory, root's alone, above.
kill "$pid" 2>/dev/null
wait "$pid"
pid=
chmod 0777 "$work/pam.d"
start_garnet --test-mode
wait_for "$work/log" "no lock screen: PAM service $work/pam.d/$service is not root's alone"
result $? "a_pam_directory_others_may_write_is_refused"
