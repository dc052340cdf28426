#!/bin/sh
# SPDX-License-Identifier: MIT
# Real tools in garnet's trusted roles: grim as the screenshooter writes the screen garnet
# shows, swaylock as the locker locks the session. Started by anyone else, both fail, and
# killing swaylock leaves the session locked.
# usage: trusted-tools-test.sh GARNET ROGUE POLICY DEMO PNG_EQUAL   (TAP output)
set -u
garnet=$1
rogue=$2
policy=$3
demo=$4
png_equal=$5
. "$(dirname "$0")/lib.sh"
if ! command -v grim >/dev/null || ! command -v swaylock >/dev/null; then
	echo "1..0 # SKIP grim and swaylock are not installed"
	exit 0
fi
echo "1..8"
# swaylock checks passwords with its own PAM service, from /etc/pam.d; for the test it is a
# stack that knows one password, in a directory of the test's own mounted over /etc/pam.d in
# the test's mount namespace (the host's file is never touched). swaylock's password-checking
# children outlive a killed swaylock: pkill sees only the test's pid namespace.
trap 'pkill -f "^swaylock --color (102030|203040)"; cleanup' EXIT
mkdir "$work/pam.d"
# Each check leaves its outcome: swaylock drops the keys typed while it checks a password, so
# the next password is typed only once the last check is over.
cat >"$work/check-password.sh" <<SH
#!/bin/sh
[ "\$(tr -d '\\000')" = "sesame" ]
status=\$?
echo "checked \$status" >>"$work/checks.txt"
exit \$status
SH
chmod +x "$work/check-password.sh"
printf 'auth required pam_exec.so expose_authtok quiet %s\naccount required pam_permit.so\n' \
	"$work/check-password.sh" >"$work/pam.d/swaylock"
mount --bind "$work/pam.d" /etc/pam.d || { echo "Bail out! cannot mount over /etc/pam.d"; exit 1; }

# grim as the screenshooter, once the window is up (the wrapper execs grim, which keeps the
# socket garnet launched it with, and so the screenshooter's identity).
cat >"$work/garnet.ini" <<INI
[security]
policy=$policy
launcher-restarts=0

[launcher]
screenshooter=sh -c 'while [ ! -e $work/go ]; do sleep 0.1; done; exec grim $work/grim.png'
INI
start_garnet --autostart "$demo" --screenshot "$work/reference.png"
grim "$work/untrusted.png" >"$work/untrusted.txt" 2>&1
status=$?
sed 's/^/# /' "$work/untrusted.txt"
[ $status -ne 0 ] && [ ! -e "$work/untrusted.png" ]
result $? "grim_started_by_anyone_else_gets_no_picture"
wait_for "$work/out" "screenshot of .* written" && touch "$work/go" &&
	wait_for "$work/log" "launcher screenshooter exited" && python3 "$png_equal" \
	"$work/reference.png" "$work/grim.png"
result $? "trusted_grim_writes_the_screen_garnet_shows"
kill "$pid" 2>/dev/null
wait "$pid"
pid=

# swaylock as the locker, started by the lock binding.
cat >"$work/garnet.ini" <<INI
[security]
policy=$policy
launcher-restarts=0

[shell]
binding=super+l launch lock-screen

[launcher]
lock-screen=swaylock --color 203040
INI
start_garnet --test-mode --debug
timeout 10 swaylock --color 102030 >"$work/untrusted-lock.txt" 2>&1
status=$?
sed 's/^/# /' "$work/untrusted-lock.txt"
[ $status -ne 0 ] && grep -q "Missing ext-session-lock-v1" "$work/untrusted-lock.txt" &&
	! grep -q "session locked" "$work/log"
result $? "swaylock_started_by_anyone_else_cannot_lock"
"$rogue" drive "$work/go" "$work/done" super-l
wait_for "$work/log" "lock: session locked"
result $? "the_lock_binding_starts_swaylock_which_locks"
# A wrong password, then the right one, typed into swaylock (Escape first: it clears the key
# the drive always presses). "session locked" is logged at swaylock's lock request, before its
# lock surface is up and holds the keyboard; keys typed before that reach no one. So typing
# waits until every output shows swaylock's surface (on a loaded machine that took over 15 s),
# and the wrong password is typed again until swaylock has checked it, three times at most.
wait_for "$work/log" "every output shows the lock: locked" 60 ||
	echo "# swaylock's surface did not show on every output"
touch "$work/go-wrong" "$work/go-right"
tries=0
while ! grep -q "^checked 1" "$work/checks.txt" 2>/dev/null && [ $tries -lt 3 ]; do
	"$rogue" drive "$work/go-wrong" "$work/done-wrong" type:nope,
	wait_for "$work/checks.txt" "^checked 1" 5
	tries=$((tries + 1))
done
sleep 1
if grep -q "^checked 1" "$work/checks.txt" 2>/dev/null; then
	! grep -q "lock: session unlocked" "$work/log"
else
	echo "# swaylock never checked the wrong password"
	false
fi
result $? "a_wrong_password_typed_into_swaylock_keeps_the_session_locked"
"$rogue" drive "$work/go-right" "$work/done-right" type:sesame,
wait_for "$work/log" "lock: session unlocked" 10
result $? "the_right_password_typed_into_swaylock_unlocks"
# Locked again, for the attacks on an abandoned lock.
"$rogue" drive "$work/go" "$work/done" super-l
i=0
while [ "$(grep -c "lock: session locked" "$work/log")" -lt 2 ] && [ $i -lt 50 ]; do
	sleep 0.1
	i=$((i + 1))
done
# The oldest of garnet's swaylock processes: swaylock forks a child that checks passwords.
swaylock_pid=$(pgrep -o -f "^swaylock --color 203040")
[ -n "$swaylock_pid" ] && kill -9 "$swaylock_pid"
wait_for "$work/log" "the session stays locked"
result $? "killing_swaylock_leaves_the_session_locked"
"$rogue" lock "$work/takeover.txt"
[ $? -eq 0 ] && grep -q "^no-global\|^finished" "$work/takeover.txt"
result $? "nobody_else_takes_the_abandoned_lock_over"
