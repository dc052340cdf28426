#!/bin/sh
# SPDX-License-Identifier: MIT
# garnet-panel and garnet_panel_v1. The panel garnet launches under the shipped policy draws
# its bar (checked against tests/reference/panel.png), lists the windows and activates the one
# clicked, starts a configured launcher and locks the session; clicks come from the trusted
# on-screen keyboard's virtual pointer. From the attacker's side: garnet-panel started by an
# ordinary client gets neither the window list nor the launchers and exits saying why; an
# ordinary client is not shown garnet_panel_manager_v1 and a guessed bind is refused; and even
# the launched panel cannot make garnet run a command of its own: it can only name a launcher
# of garnet.ini.
# usage: panel-test.sh GARNET ROGUE POLICY PANEL SHOOTER PNG_EQUAL REFERENCE SYSTEM_INI
#        (TAP output; SYSTEM_INI is data/garnet-system.ini, the shipped system file)
set -u
garnet=$1
rogue=$2
policy=$3
panel=$4
shooter=$5
png_equal=$6
reference=$7
system_ini=$8
. "$(dirname "$0")/lib.sh"
echo "1..15"

# The bar's buttons left to right (5x7 font at scale 2, 8 px padding, 4 px gaps): Touch
# 4-78, Term 82-144, Lock 148-210, then the windows from 222, 110 px for an 8-letter title.
export GARNET_PANEL_TIME=12:34
# panel_garnet CLICK_X [PANEL_COMMAND [LINE]]: garnet with the panel (or PANEL_COMMAND as the
# panel entry), the two [panel] launchers (and LINE in that section), a locker and the
# on-screen keyboard that clicks at CLICK_X on the bar once $work/osk.txt.go exists.
panel_garnet() {
	[ -n "$pid" ] && kill "$pid" 2>/dev/null && wait "$pid"
	pid=
	rm -f "$work"/osk.txt* "$work/locker.txt" "$work/shot.png" "$work/go" "$work/a.txt" \
		"$work/b.txt"
	cat >"$work/garnet.ini" <<INI
[security]
policy=$policy
launcher-restarts=0

[shell]
binding=super+l lock

[launcher]
panel=${2:-$panel}
on-screen-keyboard=$rogue vpointer $work/osk.txt $1 12 1024 768
lock-screen=$rogue locker $work/locker.txt
screenshooter=$shooter --wait-for $work/go $work/shot.png

[panel]
launcher=Touch:touch $work/launched
launcher=Term:true
${3:-}
INI
	start_garnet
	[ -n "${2:-}" ] || wait_for "$work/out" "garnet-panel: the bar is shown" ||
		echo "# the panel never showed its bar"
}
click() {
	touch "$work/osk.txt.go"
	wait_for "$work/osk.txt" "^clicked" || echo "# the on-screen keyboard did not click"
}

# ---- the shipped system file launches the panel by default ----
cp "$system_ini" "$work/garnet.ini" && chmod 0644 "$work/garnet.ini"
PATH="$(dirname "$panel"):$PATH" start_garnet
wait_for "$work/out" "garnet-panel: the bar is shown, 1024 px wide" &&
	grep -q "launcher panel: started .*/garnet-panel" "$work/log"
result $? "shipped_system_garnet_ini_launches_garnet_panel"

# ---- the attackers ----
panel_garnet 0
"$panel" >"$work/untrusted-panel.txt" 2>&1
status=$?
[ $status -eq 1 ] &&
	grep -q "garnet offers them only to the panel it launches itself" "$work/untrusted-panel.txt"
result $? "panel_started_by_an_ordinary_client_exits_saying_why"
grep -q "deny: .*privileged-global garnet_panel_manager_v1" "$work/log" &&
	grep -q "deny: .*privileged-global zwlr_foreign_toplevel_manager_v1" "$work/log"
result $? "its_denials_are_logged"
"$rogue" panel-launch "$work/unknown.txt" "touch $work/injected" >/dev/null 2>&1
grep -qx "no-global" "$work/unknown.txt"
result $? "ordinary_client_is_not_shown_the_panel_manager"
"$rogue" bind-hidden garnet_panel_manager_v1 >"$work/bind.txt" 2>/dev/null
[ $? -eq 0 ] && grep -q "all refused" "$work/bind.txt"
result $? "ordinary_clients_guessed_bind_of_the_panel_manager_is_refused"

# The launched panel itself names a command where a launcher's name belongs.
panel_garnet 0 "$rogue panel-launch $work/rogue-panel.txt 'touch $work/injected'"
wait_for "$work/rogue-panel.txt" "^asked"
sleep 0.3
grep -qx "launcher Touch" "$work/rogue-panel.txt" && grep -qx "launcher Term" "$work/rogue-panel.txt" &&
	grep -qx "protocol-error" "$work/rogue-panel.txt" && [ ! -e "$work/injected" ] &&
	! grep -q "touch $work/launched" "$work/rogue-panel.txt"
result $? "launched_panel_sees_only_launcher_names_and_cannot_launch_a_command_of_its_own"
garnet_serves_a_new_client
result $? "garnet_serves_clients_after_the_refusals"

# The launched panel asks for one launcher 300 times at once: each would be a process.
panel_garnet 0 "$rogue panel-launch $work/rogue-panel.txt Count 300" \
	"launcher=Count:echo x >>$work/count"
wait_for "$work/rogue-panel.txt" "^asked" 10
sleep 1
launches=$(wc -l <"$work/count" 2>/dev/null || echo 0)
echo "# $launches of 300 launches started"
grep -qx "connected" "$work/rogue-panel.txt" && [ "$launches" -ge 1 ] && [ "$launches" -le 2 ] &&
	grep -q "launches faster than one every 500 ms" "$work/log"
result $? "a_panel_flooding_launch_requests_starts_one_process_not_hundreds"

# ---- the panel: what it shows ----
panel_garnet 0
ROGUE_TITLE=secret-a open_window victim_a window "$work/a.txt" 300 200 "^keyboard-enter"
sleep 1
touch "$work/go"
wait_for "$work/log" "launcher screenshooter exited" && wait_for "$work/shot.png" "" &&
	python3 "$png_equal" "$reference" "$work/shot.png"
result $? "panel_bar_matches_the_reference_screenshot"
kill "$victim_a" 2>/dev/null
wait "$victim_a" 2>/dev/null

# ---- the window list: a click activates the window it names ----
panel_garnet 270
ROGUE_TITLE=secret-a open_window victim_a window "$work/a.txt" 300 200 "^keyboard-enter"
ROGUE_TITLE=secret-b open_window victim_b window "$work/b.txt" 300 200 "^keyboard-enter"
wait_for "$work/a.txt" "^keyboard-leave" || echo "# secret-a kept the keyboard"
sleep 1
click
wait_for "$work/a.txt" "^keyboard-enter" && [ "$(grep -c "^keyboard-enter" "$work/a.txt")" -eq 2 ] &&
	wait_for "$work/b.txt" "^keyboard-leave"
result $? "clicking_a_windows_title_in_the_panel_gives_it_the_keyboard"
! grep -q "^button" "$work/a.txt" && ! grep -q "^button" "$work/b.txt"
result $? "the_click_on_the_bar_reaches_no_window"
kill "$victim_a" "$victim_b" 2>/dev/null
wait "$victim_a" "$victim_b" 2>/dev/null

# ---- a launcher button starts its command ----
panel_garnet 40
click
i=0
while [ ! -e "$work/launched" ] && [ $i -lt 50 ]; do
	sleep 0.1
	i=$((i + 1))
done
[ -e "$work/launched" ] &&
	grep -q "panel pid [0-9]* launches Touch" "$work/log"
result $? "clicking_a_launcher_starts_its_configured_command"

# ---- the lock button ----
panel_garnet 180
[ ! -e "$work/locker.txt" ]
result $? "no_lock_before_the_click"
click
wait_for "$work/locker.txt" "^locked" && grep -q "the panel's lock button" "$work/log"
result $? "clicking_lock_locks_the_session"
garnet_serves_a_new_client
result $? "garnet_serves_clients_at_the_end"
exit 0
