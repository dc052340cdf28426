#!/bin/sh
# SPDX-License-Identifier: MIT
# Bindings pressed by the user (the trusted driver of the test protocol): Print starts the
# trusted screenshooter and super+l the trusted locker, each only when pressed (an entry a
# binding launches does not start with garnet); the quit binding shuts garnet down cleanly.
# usage: bindings-test.sh GARNET ROGUE POLICY SCREENSHOOTER   (TAP output)
set -u
garnet=$1
rogue=$2
policy=$3
shooter=$4
. "$(dirname "$0")/lib.sh"
echo "1..8"

# Print: the screenshooter is started then, and writes the screen.
cat >"$work/garnet.ini" <<INI
[security]
policy=$policy
launcher-restarts=0

[shell]
binding=Print launch screenshooter
binding=super+l launch lock-screen

[launcher]
screenshooter=$shooter $work/shot.png
lock-screen=$rogue locker $work/locker.txt $work/lock-now
panel=$rogue drive $work/go $work/done print
INI
touch "$work/lock-now"
start_garnet --test-mode
sleep 0.5
! grep -q "launcher screenshooter: started\|launcher lock-screen: started" "$work/log" &&
	[ ! -e "$work/shot.png" ] && [ ! -e "$work/locker.txt" ]
result $? "launched_entries_wait_for_their_binding"
touch "$work/go"
# garnet sees the screenshooter leave when it disconnects, before it has written the picture
# (whole, under its name, at once): wait for the file too.
wait_for "$work/log" "launcher screenshooter exited" && wait_for "$work/shot.png" "PNG" &&
	head -c 8 "$work/shot.png" | od -An -c | grep -q "P   N   G"
result $? "print_binding_starts_the_screenshooter_which_writes_a_png"
kill "$pid" 2>/dev/null
wait "$pid"
pid=

# super+l: the locker is started then, and locks the session.
sed -i "s|drive $work/go $work/done print|drive $work/go2 $work/done2 super-l|" "$work/garnet.ini"
start_garnet --test-mode
touch "$work/go2"
wait_for "$work/log" "launcher lock-screen: started .* on demand" &&
	wait_for "$work/locker.txt" "^locked"
result $? "lock_binding_starts_the_locker_which_locks"
kill "$pid" 2>/dev/null
wait "$pid"
pid=

# Idle time: after a second without input the locker is started, and locks.
rm -f "$work/locker.txt"
cat >"$work/idle.ini" <<INI
[security]
policy=$policy
launcher-restarts=0

[shell]
lock-after-idle=1

[launcher]
lock-screen=$rogue locker $work/locker.txt $work/lock-now
INI
"$garnet" --config "$work/idle.ini" --socket idle-test --log "$work/idle.log" >"$work/idle.out" 2>&1 &
idle_pid=$!
sleep 0.5
started_early=$(grep -c "launcher lock-screen: started" "$work/idle.log")
wait_for "$work/idle.log" "no input for 1 s: locking" && wait_for "$work/locker.txt" "^locked"
locked=$?
kill "$idle_pid" 2>/dev/null
wait "$idle_pid"
[ "$started_early" -eq 0 ] && [ $locked -eq 0 ]
result $? "idle_time_starts_the_locker_which_locks"

# The lock action with no locker configured: garnet locks with its own lock screen.
printf '[security]\npolicy=%s\n\n[shell]\nbinding=super+l lock\n' "$policy" >"$work/own-lock.ini"
"$garnet" --config "$work/own-lock.ini" --socket own-lock --test-mode --log "$work/own-lock.log" \
	>"$work/own-lock.out" 2>&1 &
own_pid=$!
wait_for "$work/own-lock.out" "WAYLAND_DISPLAY"
touch "$work/go-own"
WAYLAND_DISPLAY=own-lock "$rogue" drive "$work/go-own" "$work/done-own" super-l
wait_for "$work/own-lock.log" "locked with garnet's own lock screen"
result $? "lock_binding_without_a_locker_locks_with_garnets_own_screen"
kill "$own_pid" 2>/dev/null
wait "$own_pid"

# A binding that launches what is no launcher entry is an error naming the line.
printf '[shell]\nbinding=super+x launch terminal\n' >"$work/bad.ini"
"$garnet" --config "$work/bad.ini" --socket bad-binding >"$work/bad.out" 2>&1
[ $? -ne 0 ] && grep -q "bad.ini:2: .*launch 'terminal' is no \[launcher\] entry name" "$work/bad.out"
result $? "launching_an_unknown_entry_is_a_config_error"

# Quit, pressed while nothing is locked: status 0 and no socket left.
sed -i "s|drive $work/go2 $work/done2 super-l|drive $work/go3 $work/done3 quit|" "$work/garnet.ini"
printf '[shell]\nbinding=ctrl+alt+BackSpace quit\n' >>"$work/garnet.ini"
start_garnet --test-mode
touch "$work/go3"
i=0
while kill -0 "$pid" 2>/dev/null && [ $i -lt 100 ]; do
	sleep 0.1
	i=$((i + 1))
done
wait "$pid"
status=$?
pid=
sed 's/^/# garnet: /' "$work/log" | tail -n 5
[ $status -eq 0 ] && grep -q "quit binding: shutting down" "$work/log"
result $? "quit_binding_shuts_garnet_down_with_status_0"
[ ! -e "$XDG_RUNTIME_DIR/security-test" ]
result $? "garnet_removed_its_socket"
