#!/bin/sh
# SPDX-License-Identifier: MIT
# Arranging the screens through zwlr_output_manager_v1: an unknown client (garnet-rogue, or
# wlr-randr run by anyone) neither sees the manager nor changes an output; a launched client
# without garnet.output-config gets failed and an audit line; the launched output-config
# client changes mode and position (garnet-rogue and wlr-randr), and the values garnet
# cannot show, from that trusted client, fail without changing anything.
# usage: output-manager-test.sh GARNET ROGUE POLICY   (TAP output)
set -u
garnet=$1
rogue=$2
policy=$3
. "$(dirname "$0")/lib.sh"
echo "1..7"

stop() {
	kill "$pid" 2>/dev/null
	wait "$pid"
	pid=
	rm -f "$work/log"
}

cat >"$work/garnet.ini" <<INI
[security]
policy=$policy
launcher-restarts=0

[launcher]
panel=$rogue outman $work/panel.txt move
INI
start_garnet
"$rogue" outman "$work/rogue.txt" move &
rogue_pid=$!
wait_for "$work/rogue.txt" "no-global\|done" && sleep 0.3
sed 's/^/# rogue: /' "$work/rogue.txt"
grep -q "^no-global" "$work/rogue.txt" && ! grep -q "HEADLESS-1: now" "$work/log"
result $? "unknown_client_cannot_see_the_output_manager"
kill "$rogue_pid" 2>/dev/null
wait "$rogue_pid" 2>/dev/null

if command -v wlr-randr >/dev/null; then
	wlr-randr --output HEADLESS-1 --mode 640x480 --pos 10,20 >"$work/randr.txt" 2>&1
	status=$?
	sed 's/^/# wlr-randr: /' "$work/randr.txt"
	[ $status -ne 0 ] && ! grep -q "HEADLESS-1: now" "$work/log"
	result $? "wlr_randr_from_an_unknown_client_changes_nothing"
else
	result 0 "wlr_randr_from_an_unknown_client_changes_nothing # SKIP wlr-randr not installed"
fi

# The panel may bind every privileged global, but arranging the screens is not its.
wait_for "$work/panel.txt" "^done"
sed 's/^/# panel: /' "$work/panel.txt"
grep -q "^move failed" "$work/panel.txt" && ! grep -q "HEADLESS-1: now" "$work/log" &&
	grep -q "deny: .*garnet.output-config HEADLESS-1" "$work/log"
result $? "launched_client_without_output_config_gets_failed_and_an_audit_line"
stop

cat >"$work/garnet.ini" <<INI
[security]
policy=$policy
launcher-restarts=0

[launcher]
output-config=$rogue outman $work/config.txt extremes
INI
start_garnet
wait_for "$work/config.txt" "^done"
sed 's/^/# output-config: /' "$work/config.txt"
[ "$(grep -c '^huge-position failed$\|^tiny-scale failed$\|^huge-scale failed$\|^huge-mode failed$\|^disable failed$' "$work/config.txt")" -eq 5 ] &&
	grep -q "^stale-serial cancelled" "$work/config.txt" &&
	[ "$(grep -c 'HEADLESS-1: now' "$work/log")" -eq 1 ] && garnet_serves_a_new_client
result $? "values_garnet_cannot_show_fail_and_a_stale_configuration_is_cancelled"
grep -q "^move succeeded" "$work/config.txt" &&
	grep -q "^head HEADLESS-1 800x600 at 100,50 scale 1" "$work/config.txt" &&
	grep -q "HEADLESS-1: now 800x600 .* at 100,50" "$work/log"
result $? "output_config_client_changes_mode_and_position"
stop

# The real tool in the trusted role.
if command -v wlr-randr >/dev/null; then
	cat >"$work/garnet.ini" <<INI
[security]
policy=$policy
launcher-restarts=0

[launcher]
output-config=wlr-randr --output HEADLESS-1 --mode 640x480 --pos 10,20 --scale 2
INI
	start_garnet
	wait_for "$work/log" "HEADLESS-1: now"
	grep "HEADLESS-1: now" "$work/log" | sed 's/^/# /'
	grep -q "HEADLESS-1: now 640x480 scale 2 .* at 10,20" "$work/log"
	result $? "launched_wlr_randr_changes_mode_position_and_scale"
	"$rogue" outman "$work/after.txt" move &
	rogue_pid=$!
	wait_for "$work/after.txt" "no-global\|done" && sleep 0.3
	grep -q "^no-global" "$work/after.txt" && [ "$(grep -c 'HEADLESS-1: now' "$work/log")" -eq 1 ]
	result $? "an_unknown_client_still_sees_no_manager_after_the_tool_ran"
	kill "$rogue_pid" 2>/dev/null
	wait "$rogue_pid" 2>/dev/null || true
else
	result 0 "launched_wlr_randr_changes_mode_position_and_scale # SKIP wlr-randr not installed"
	result 0 "an_unknown_client_still_sees_no_manager_after_the_tool_ran # SKIP"
fi
