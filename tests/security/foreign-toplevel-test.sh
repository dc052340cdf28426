#!/bin/sh
# SPDX-License-Identifier: MIT
# zwlr_foreign_toplevel_management_v1 from the attacker's side: every window's title (what the
# user reads and writes) and the power to activate or close any window. An unknown client is
# not shown the manager and a guessed bind is refused; a trusted client that holds other
# privileged globals but not the task bar's permission is told finished and no window; the
# launched panel lists the windows and activates, minimizes and closes them, but cannot move the
# keyboard while the session is locked.
# usage: foreign-toplevel-test.sh GARNET ROGUE POLICY   (TAP output)
set -u
garnet=$1
rogue=$2
policy=$3
. "$(dirname "$0")/lib.sh"
echo "1..14"

cat >"$work/garnet.ini" <<INI
[security]
policy=$policy
launcher-restarts=0

[launcher]
panel=$rogue toplevels $work/panel.txt
screenshooter=$rogue toplevels $work/shooter.txt
lock-screen=$rogue locker $work/locker.txt $work/lock-now
INI
# No --test-mode: nothing here needs garnet_test, and no client gets it.
start_garnet
wait_for "$work/panel.txt" "^bound"
# ask ACTION TITLE: the panel asks it of the window (the file appears whole, never half written)
ask() {
	echo "$1 $2" >"$work/cmd.tmp" && mv "$work/cmd.tmp" "$work/panel.txt.cmd"
	wait_for "$work/panel.txt" "^asked $1 $2"
}

# Two windows whose titles are the user's secrets; the second takes the keyboard from the
# first (nobody typed into it yet).
ROGUE_TITLE=secret-a open_window victim_a window "$work/a.txt" 200 100 "^keyboard-enter"
ROGUE_TITLE=secret-b open_window victim_b window "$work/b.txt" 200 100 "^keyboard-enter"
wait_for "$work/a.txt" "^keyboard-leave" || echo "# secret-a kept the keyboard"

# ---- the attackers ----
"$rogue" toplevels "$work/unknown.txt" 1 >/dev/null 2>&1
grep -qx "no-global" "$work/unknown.txt" && ! grep -q "secret" "$work/unknown.txt"
result $? "unknown_client_is_not_shown_the_foreign_toplevel_manager"
"$rogue" bind-hidden zwlr_foreign_toplevel_manager_v1 >"$work/bind.txt"
[ $? -eq 0 ] && grep -q "all refused" "$work/bind.txt"
result $? "unknown_clients_guessed_bind_of_the_manager_is_refused"
garnet_serves_a_new_client
result $? "garnet_serves_clients_after_the_refused_binds"
# The screenshooter holds privileged-global (it binds screencopy), not the task bar's power.
wait_for "$work/shooter.txt" "^finished" && ! grep -q "secret\|^window" "$work/shooter.txt"
result $? "trusted_client_without_the_taskbar_permission_gets_finished_and_no_window"
grep -q "denied: pid [0-9]* may not list other clients' windows" "$work/log"
result $? "taskbar_refusal_is_logged"

# ---- the panel: the positive control ----
wait_for "$work/panel.txt" "^window title=secret-a app_id= states=- outputs=1" &&
	wait_for "$work/panel.txt" "^window title=secret-b app_id= states=activated outputs=1"
result $? "launched_panel_lists_every_window_with_title_states_and_output"

ask activate secret-a
wait_for "$work/a.txt" "^keyboard-enter" && [ "$(grep -c "^keyboard-enter" "$work/a.txt")" -eq 2 ] &&
	wait_for "$work/panel.txt" "^window title=secret-a app_id= states=activated"
result $? "panels_activate_gives_the_window_the_keyboard"

ask minimize secret-b
wait_for "$work/panel.txt" "^window title=secret-b app_id= states=minimized"
result $? "panels_minimize_of_an_unfocused_window_is_reported"

# ---- locked: the task bar moves nothing ----
touch "$work/lock-now"
wait_for "$work/locker.txt" "^shown" || echo "# the locker did not lock"
enters=$(grep -c "^keyboard-enter" "$work/b.txt")
shown=$(grep -c "^window title=secret-b .*activated" "$work/panel.txt")
ask activate secret-b
wait_for "$work/log" "denied: task bar pid [0-9]* asked to activate a window while the lock"
denied=$?
sleep 0.3
[ $denied -eq 0 ] && [ "$(grep -c "^keyboard-enter" "$work/b.txt")" -eq "$enters" ] &&
	[ "$(grep -c "^window title=secret-b .*activated" "$work/panel.txt")" -eq "$shown" ]
result $? "panel_cannot_activate_a_window_while_the_session_is_locked"
ask close secret-a
sleep 0.3
kill -0 "$victim_a" && ! grep -q "^closed title=secret-a" "$work/panel.txt"
result $? "panel_cannot_close_a_window_while_the_session_is_locked"
touch "$work/locker.txt.unlock"
wait_for "$work/log" "unlocked" 2>/dev/null || sleep 0.5

# ---- a window that renames itself in a loop ----
# 3000 renames of 4 KB titles and app ids: the panel is told the last one, far fewer than 3000
# times, and keeps working.
before=$(grep -c "^window title=" "$work/panel.txt")
"$rogue" rename-flood "$work/flood.txt" 3000 >/dev/null 2>&1 &
flooder=$!
wait_for "$work/flood.txt" "^renamed 3000" 60 &&
	wait_for "$work/panel.txt" "^window title=flood-endjjj" 10
flood_ok=$?
told=$(($(grep -c "^window title=" "$work/panel.txt") - before))
echo "# the panel was told $told times"
[ $flood_ok -eq 0 ] && [ "$told" -lt 750 ]
result $? "a_window_renaming_itself_in_a_loop_reaches_the_panel_throttled"
kill "$flooder" 2>/dev/null
wait "$flooder" 2>/dev/null
ask minimize secret-a && wait_for "$work/panel.txt" "^window title=secret-a app_id= states=minimized"
result $? "the_panel_still_works_after_the_rename_flood"

# ---- a window that goes is closed for the task bar ----
kill "$victim_b" && wait "$victim_b" 2>/dev/null
wait_for "$work/panel.txt" "^closed title=secret-b"
result $? "a_window_that_goes_is_closed_for_the_panel"
garnet_serves_a_new_client
result $? "garnet_serves_clients_at_the_end"
kill "$victim_a" 2>/dev/null
wait "$victim_a" 2>/dev/null
# The victim's status (killed) is not the script's.
exit 0
