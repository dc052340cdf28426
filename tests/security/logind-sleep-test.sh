#!/bin/sh
# SPDX-License-Identifier: MIT
# Suspend while unlocked: garnet holds a logind delay inhibitor, and on PrepareForSleep(true)
# locks and releases the inhibitor only once the lock is on every screen, so that the system
# never sleeps, nor wakes, with a window on screen. LockedHint and IdleHint follow garnet's lock
# and the user's input; outputs go dark after [shell] dpms-after-idle and light on input.
# logind is a stand-in on a private system bus that records every event in order.
# usage: logind-sleep-test.sh GARNET ROGUE POLICY FAKE_LOGIND SCREENSHOOTER   (TAP output)
set -u
garnet=$1
rogue=$2
policy=$3
fake_logind=$4
shooter=$5
png_equal=$(dirname "$0")/png-equal.py
. "$(dirname "$0")/lib.sh"
if ! command -v dbus-daemon >/dev/null; then
	echo "1..0 # SKIP dbus-daemon is needed for a private system bus"
	exit 0
fi
echo "1..10"

. "$(dirname "$0")/logind-stand-in.sh"
start_logind_stand_in "$fake_logind"

# line_of PATTERN: the number of the first line of logind.txt matching PATTERN (0: none).
line_of() {
	n_=$(grep -n -- "$1" "$work/logind.txt" | head -n 1 | cut -d: -f1)
	echo "${n_:-0}"
}

# No locker: garnet locks with its own lock screen at once. The window is the colour
# rogue_fill_surface gives it.
window_colour=64,128,191
cat >"$work/garnet.ini" <<INI
[security]
policy=$policy
launcher-restarts=0

[launcher]
screenshooter=$shooter --wait-for $work/shot-go $work/shot.png
INI
XDG_SESSION_ID=c7 start_garnet
wait_for "$work/logind.txt" "^inhibit sleep delay" && wait_for "$work/log" "holding a sleep delay"
result $? "garnet_holds_a_sleep_delay_inhibitor"
open_window victim_pid window "$work/victim.txt" 1024 768 "^mapped"

kill -HUP "$logind_pid"
wait_for "$work/logind.txt" "^released"
sed 's/^/# logind: /' "$work/logind.txt"
locked=$(line_of "^locked-hint true")
released=$(line_of "^released")
[ "$locked" -gt 0 ] && [ "$released" -gt "$locked" ] &&
	grep -q "the lock is on every screen: the system may sleep" "$work/log"
result $? "suspend_while_unlocked_locks_before_the_inhibitor_is_released"

kill -ALRM "$logind_pid"
wait_for "$work/log" "the system woke up" && sleep 0.5
[ "$(grep -c "^inhibit sleep delay" "$work/logind.txt")" -eq 2 ]
result $? "waking_up_takes_a_new_inhibitor"

touch "$work/shot-go"
wait_for "$work/log" "launcher screenshooter exited" || echo "# no screenshot"
wait_for "$work/shot.png" "" || echo "# no shot.png" # written after the shooter disconnects
python3 - "$png_equal" "$work/shot.png" "$window_colour" <<'PY'
import importlib.util, sys
spec = importlib.util.spec_from_file_location('png_equal', sys.argv[1])
png = importlib.util.module_from_spec(spec)
spec.loader.exec_module(png)
width, height, rows = png.decode(sys.argv[2])
want = [int(v) for v in sys.argv[3].split(',')]
seen = sum(1 for y in range(height) for x in range(width)
           if all(abs(rows[y][x * 3 + i] - want[i]) <= 2 for i in range(3)))
print(f'# {seen} pixels of the window after waking')
sys.exit(0 if seen == 0 else 1)
PY
result $? "no_pixel_of_the_window_is_shown_after_waking_until_unlock"
grep -q "^mapped" "$work/victim.txt" && kill -0 "$victim_pid"
result $? "the_window_was_mapped_and_stays"
kill "$victim_pid" 2>/dev/null
wait "$victim_pid" 2>/dev/null
kill "$pid" 2>/dev/null
wait "$pid"
pid=

# Hints and darkness: idle after 1 s (the outputs go dark), input (the trusted driver's
# garnet_test) clears both, and the locker's lock and unlock set LockedHint.
cp "$work/logind.txt" "$work/logind-before.txt"
cat >"$work/garnet.ini" <<INI
[security]
policy=$policy
launcher-restarts=0

[shell]
dpms-after-idle=1

[launcher]
lock-screen=$rogue locker $work/locker.txt $work/lock-now
panel=$rogue drive $work/go $work/done
INI
XDG_SESSION_ID=c7 start_garnet --test-mode
before=$(wc -l <"$work/logind-before.txt")
wait_for "$work/logind.txt" "^idle-hint true" 4 && wait_for "$work/log" "HEADLESS-1: powered off"
result $? "idle_hint_and_darkness_after_dpms_after_idle"
touch "$work/go"
wait_for "$work/done" "^done" || echo "# the driver did not finish"
wait_for "$work/logind.txt" "^idle-hint false" && grep -q "HEADLESS-1: powered on" "$work/log"
result $? "input_clears_the_idle_hint_and_lights_the_outputs"
touch "$work/lock-now"
wait_for "$work/locker.txt" "^locked" || echo "# the locker did not lock"
sleep 0.3
[ "$(tail -n +"$((before + 1))" "$work/logind.txt" | grep -c "^locked-hint true")" -ge 1 ]
result $? "locking_sets_the_locked_hint"
touch "$work/locker.txt.unlock"
wait_for "$work/log" "session unlocked" && sleep 0.3
tail -n +"$((before + 1))" "$work/logind.txt" | grep -q "^locked-hint false"
result $? "unlocking_clears_the_locked_hint"
tail -n +"$((before + 1))" "$work/logind.txt" | sed 's/^/# logind: /'
kill "$pid" 2>/dev/null
wait "$pid"
pid=

# A value that is not seconds is refused at its line.
printf '[shell]\ndpms-after-idle=soon\n' >"$work/bad.ini"
$as_system "$garnet" --config "$work/bad.ini" --socket security-test-bad >"$work/bad.txt" 2>&1
grep -q "bad.ini:2: dpms-after-idle 'soon' is not seconds from 0 to 86400" "$work/bad.txt"
result $? "a_bad_dpms_after_idle_is_refused_at_its_line"
sed 's/^/# /' "$work/bad.txt"
