#!/bin/sh
# SPDX-License-Identifier: MIT
# A hostile X client of one domain against garnet's window manager, and a hostile Wayland client
# against the domains: floods, cycles, reparenting, focus taken through a window that changed
# kind, absurd geometry, the window manager's connection killed, connections closed in the
# handshake, a killed Xwayland, XRecord across domains, domains taken without end. Each with the
# legitimate path beside it.
# usage: xwayland-abuse-test.sh GARNET GARNET_X11 GARNET_DRIVE X_ATTACK X_DOMAINS X_OVERRIDE
#        POLICY ROGUE   (TAP output)
set -u
garnet=$1
x11=$2
drive=$3
xattack=$4
xdomains=$5
xover=$6
policy=$7
rogue=$8
if [ ! -x /usr/bin/Xwayland ]; then
	echo "1..0 # SKIP Xwayland is not installed (Debian package xwayland)"
	exit 0
fi
for tool in xterm xdpyinfo; do
	if ! command -v $tool >/dev/null; then
		echo "1..0 # SKIP $tool is not installed (x11-utils, xterm)"
		exit 0
	fi
done
. "$(dirname "$0")/../security/lib.sh"
. "$(dirname "$0")/lib.sh"
echo "1..17"

cat >"$work/garnet.ini" <<INI
[security]
policy=$policy

[xwayland]
idle-timeout=3

[launcher]
panel=$rogue toplevels $work/panel.txt
INI
start_garnet --test-mode

display_of() { sed -n 's/^DISPLAY=":\(.*\)"/\1/p' "$1"; }

# WM_TRANSIENT_FOR a->b->a and c->c: no cycle in the parents garnet publishes; an honest
# dialog keeps its parent.
x_env "$work/c.env"
in_env "$work/c.env" "$xattack" cycle 3 >"$work/cycle.txt" 2>&1 &
wait_for "$work/cycle.txt" "cycle set" 10
sleep 1
grep "^parent" "$work/panel.txt" | sed 's/^/# /'
grep -q "^parent child=cycle-dialog parent=cycle-b" "$work/panel.txt"
result $? "positive_control_an_x_dialog_has_its_parent"
! grep -q "^parent child=cycle-a parent=cycle-b" "$work/panel.txt" ||
	! grep -q "^parent child=cycle-b parent=cycle-a" "$work/panel.txt"
cycle=$?
! grep -q "^parent child=cycle-self" "$work/panel.txt"
[ $cycle -eq 0 ] && [ $? -eq 0 ] && garnet_serves_a_new_client
result $? "transient_for_cycle_makes_no_parent_cycle"

# A property flood: garnet keeps serving its Wayland clients on time.
x_env "$work/p.env"
in_env "$work/p.env" "$xattack" props 7 >"$work/props.txt" 2>&1 &
flood=$!
wait_for "$work/log" "'x-attack-props' (x-attack-props) mapped" 10 || echo "# the flooder never mapped"
sleep 1.5
"$rogue" frames "$work/frames.txt" 4 &
frames=$!
"$rogue" ping 4 >"$work/ping.txt" 2>&1
wait "$frames"
wait "$flood"
echo "# $(cat "$work/props.txt"); longest round trip $(max_rtt "$work/ping.txt") ms;" \
	"frames $(sed -n 's/^done //p' "$work/frames.txt")"
[ "$(max_rtt "$work/ping.txt")" -lt 500 ] &&
	[ "$(sed -n 's/^done //p' "$work/frames.txt")" -ge 20 ]
result $? "x_property_flood_leaves_garnet_responsive"

# A window that was override-redirect, mapped again as a managed one, takes the X focus: garnet
# puts it back, and the keys go to the window garnet focused.
x_env "$work/o.env"
in_env "$work/o.env" "$xattack" or-managed 4 >"$work/or.txt" 2>&1 &
wait_for "$work/or.txt" "managed" 10
in_env "$work/o.env" xterm -class XOrVictim -e sh -c "read v; echo \"\$v\" >$work/or.typed; sleep 5" &
xterm_o=$!
wait_for "$work/log" "window .* (XOrVictim) mapped" 10
wait_for "$work/or.txt" "focus taken" 10
sleep 0.5
"$drive" type 'for the focused xterm\n'
wait_for "$work/or.txt" "^keys" 10
wait_for "$work/or.typed" "for the focused xterm" 3
typed=$?
echo "# attacker: $(tr '\n' ' ' <"$work/or.txt")"
[ $typed -eq 0 ] && grep -q "^keys 0" "$work/or.txt"
result $? "window_turned_managed_cannot_take_the_x_focus"

# XRecord in domain A sees nothing of the keys typed into domain B; inside B it sees them.
x_env "$work/a.env"
in_env "$work/o.env" xterm -class XRecordVictim -e sh -c "read v; echo \"\$v\" >$work/rec.typed; sleep 60" &
xterm_r=$!
wait_for "$work/log" "window .* (XRecordVictim) mapped" 10
in_env "$work/a.env" "$xattack" record 4 >"$work/rec-a.txt" 2>&1 &
in_env "$work/o.env" "$xattack" record 4 >"$work/rec-b.txt" 2>&1 &
wait_for "$work/rec-a.txt" "recording" 5 && wait_for "$work/rec-b.txt" "recording" 5
"$drive" type 'recorded secret\n'
wait_for "$work/rec-a.txt" "^keys" 8
wait_for "$work/rec-b.txt" "^keys" 8
echo "# XRecord in A: $(tr '\n' ' ' <"$work/rec-a.txt"); in B: $(tr '\n' ' ' <"$work/rec-b.txt")"
grep -q "recorded secret" "$work/rec.typed" && grep -q "^keys [1-9]" "$work/rec-b.txt"
result $? "positive_control_xrecord_inside_one_domain_sees_its_keys"
grep -q "^keys 0" "$work/rec-a.txt"
result $? "xrecord_in_domain_a_sees_no_key_typed_into_domain_b"

# The window manager's client killed from inside the domain (XKillClient): garnet lives, and
# the domain's next client gets a server with a window manager again.
x_env "$work/k.env"
in_env "$work/k.env" "$xattack" kill-wm >"$work/kill.txt" 2>&1
echo "# $(cat "$work/kill.txt")"
sleep 1
in_env "$work/k.env" "$xover" 111 222 3 >/dev/null 2>&1 &
wait_for "$work/log" "override-redirect window 0x[0-9a-f]* at 111,222 mapped" 10
[ $? -eq 0 ] && garnet_serves_a_new_client
result $? "killing_the_window_manager_client_restarts_only_that_domain"

# Connections closed in the middle of X's handshake, before and after the server started.
x_env "$work/h.env"
"$xattack" handshake "$(display_of "$work/h.env")" 30 >"$work/hs.txt" 2>&1
in_env "$work/h.env" xdpyinfo >"$work/hs1.txt" 2>&1
"$xattack" handshake "$(display_of "$work/h.env")" 30 >>"$work/hs.txt" 2>&1
in_env "$work/h.env" xdpyinfo >"$work/hs2.txt" 2>&1
grep -q "name of display" "$work/hs1.txt" && grep -q "name of display" "$work/hs2.txt" &&
	garnet_serves_a_new_client
result $? "connections_closed_mid_handshake_leave_the_display_working"

# Absurd geometry and a configure request flood.
x_env "$work/g.env"
in_env "$work/g.env" "$xattack" geometry 4 >"$work/geo.txt" 2>&1 &
geo=$!
sleep 1.5
"$rogue" ping 3 >"$work/geo-ping.txt" 2>&1
wait "$geo"
echo "# $(cat "$work/geo.txt"); longest round trip $(max_rtt "$work/geo-ping.txt") ms"
grep -q "'geometry-managed' (geometry-managed) mapped" "$work/log" &&
	[ "$(max_rtt "$work/geo-ping.txt")" -lt 500 ] && garnet_serves_a_new_client
result $? "absurd_geometry_and_configure_flood_leave_garnet_responsive"

# Ten thousand windows made, mapped, unmapped and destroyed; then the domain still works.
x_env "$work/m.env"
in_env "$work/m.env" "$xattack" maps 10000 >"$work/maps.txt" 2>&1 &
maps=$!
"$rogue" ping 3 >"$work/maps-ping.txt" 2>&1 &
ping=$!
wait "$maps"
in_env "$work/m.env" "$xover" 123 45 3 >/dev/null 2>&1 &
wait "$ping"
echo "# $(cat "$work/maps.txt"); longest round trip $(max_rtt "$work/maps-ping.txt") ms"
wait_for "$work/log" "override-redirect window 0x[0-9a-f]* at 123,45 mapped" 10 &&
	grep -q "mapped 10000" "$work/maps.txt" && [ "$(max_rtt "$work/maps-ping.txt")" -lt 500 ]
result $? "ten_thousand_windows_mapped_and_unmapped_leave_the_domain_working"

# A window reparented away from the root is forgotten (its toplevel goes), one reparented back
# is managed again; windows destroyed away from the root leave nothing behind.
x_env "$work/r.env"
in_env "$work/r.env" "$xattack" reparent 5000 >"$work/rep.txt" 2>&1 &
wait_for "$work/rep.txt" "reparented away" 10
sleep 1
grep -q "^closed title=reparent-victim" "$work/panel.txt"
result $? "window_reparented_away_from_the_root_leaves_garnet"
wait_for "$work/log" "'reparent-back' (reparent-back) mapped" 10
result $? "window_reparented_to_the_root_is_managed_again"
wait_for "$work/rep.txt" "leaked" 20
in_env "$work/r.env" "$xover" 77 88 3 >/dev/null 2>&1 &
wait_for "$work/log" "override-redirect window 0x[0-9a-f]* at 77,88 mapped" 10
result $? "windows_destroyed_away_from_the_root_are_not_kept"

# Forged structure events (SendEvent of CreateNotify to the root) describe windows that never
# existed: taken as real, 5000 of them filled the domain's window table for good.
in_env "$work/r.env" "$xattack" forge 5000 >"$work/forge.txt" 2>&1
in_env "$work/r.env" "$xover" 66 99 3 >/dev/null 2>&1 &
wait_for "$work/log" "override-redirect window 0x[0-9a-f]* at 66,99 mapped" 10 &&
	grep -q "forged 5000" "$work/forge.txt"
result $? "forged_create_notify_events_make_no_windows"

# Xwayland killed while its window has the keyboard and keys are typed: garnet lives, the
# next client of the domain gets a new server.
in_env "$work/o.env" xterm -class XKilled -e sh -c "sleep 30" &
wait_for "$work/log" "window .* (XKilled) mapped" 10
"$drive" type 'typed as the server dies' &
o_server=$(pgrep -f "Xwayland :$(display_of "$work/o.env") ")
kill -9 "$o_server"
wait_for "$work/log" "(:$(display_of "$work/o.env")): Xwayland exited" 5
in_env "$work/o.env" xdpyinfo >"$work/o.dpyinfo" 2>&1
grep -q "name of display" "$work/o.dpyinfo" && garnet_serves_a_new_client
result $? "xwayland_killed_with_a_focused_window_is_replaced_and_garnet_lives"
kill "$xterm_o" "$xterm_r" 2>/dev/null

# Domains: one connection cannot take many; an idle private domain is closed and its display
# number freed; a full table says so.
"$xdomains" 40 6 >"$work/domains.txt" 2>&1 &
domains=$!
wait_for "$work/domains.txt" "refused" 5
echo "# one connection: $(grep -c ready "$work/domains.txt") ready," \
	"$(grep -c refused "$work/domains.txt") refused: $(grep -m1 refused "$work/domains.txt")"
[ "$(grep -c ready "$work/domains.txt")" -le 8 ] && x_env "$work/after.env"
result $? "one_client_cannot_take_every_x_domain"
kill "$domains" 2>/dev/null
x_env "$work/idle.env"
idle=$(display_of "$work/idle.env")
idle_name=$(sed -n 's/^domain //p' "$work/idle.env.raw")
in_env "$work/idle.env" xdpyinfo >/dev/null 2>&1
# by name: display numbers come back, and an earlier domain may have closed on this one
wait_for "$work/log" "domain $idle_name (:$idle): closed" 12
closed=$?
[ $closed -eq 0 ] && [ ! -e "/tmp/.X11-unix/X$idle" ] && [ ! -e "/tmp/.X$idle-lock" ]
result $? "an_idle_private_domain_is_closed_and_its_display_freed"

kill "$pid"
wait "$pid"
pid=
