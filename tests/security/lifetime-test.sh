#!/bin/sh
# SPDX-License-Identifier: MIT
# Object lifetimes and coordinates as an attacker uses them: role objects whose wl_surface is
# gone, a toplevel committed after its destruction, an unmapped toplevel activated and then
# destroyed, INT32_MIN/INT32_MAX in every coordinate request. After each attack garnet still
# runs and serves another client; the legitimate paths get no protocol error.
# usage: lifetime-test.sh GARNET ROGUE POLICY   (TAP output)
set -u
garnet=$1
rogue=$2
policy=$3
. "$(dirname "$0")/lib.sh"
echo "1..15"

cat >"$work/garnet.ini" <<INI
[security]
policy=$policy
INI
start_garnet

# attack NAME TEST: the rogue's attack, then garnet alive and answering a new client.
attack() {
	"$rogue" lifetime "$1" >"$work/$1.txt" 2>&1
	status=$?
	sed "s/^/# $1: /" "$work/$1.txt"
	# Some attacks strike only when garnet cleans up after the rogue's exit: another client
	# is served first, then garnet is checked.
	"$rogue" globals "$work/globals-$1.txt"
	served=$?
	[ $status -eq 0 ] && kill -0 "$pid" 2>/dev/null
	result $? "$2"
	[ $served -eq 0 ] && grep -q wl_compositor "$work/globals-$1.txt"
	result $? "garnet_serves_another_client_after_$1"
	# A garnet that died is started again, so that each attack is judged on its own.
	if ! kill -0 "$pid" 2>/dev/null; then
		wait "$pid"
		echo "# garnet died: $(tail -n 3 "$work/out" | tr '\n' ' ')"
		start_garnet
	fi
}
# control NAME TEST: the legitimate path, answered without a protocol error.
control() {
	"$rogue" lifetime "$1" >"$work/$1.txt" 2>&1
	status=$?
	sed "s/^/# $1: /" "$work/$1.txt"
	[ $status -eq 0 ] && ! grep -q "protocol error" "$work/$1.txt"
	result $? "$2"
}

attack subsurface-orphan subsurface_requests_after_its_surface_is_destroyed_do_nothing
control subsurface-kept subsurface_requests_on_a_live_surface_work
attack roles-orphaned role_objects_after_their_surface_is_destroyed_are_inert
attack toplevel-destroy-commit toplevel_destroyed_then_committed_leaves_the_shell_lists
attack activate-unmapped unmapped_toplevel_activated_then_destroyed_leaves_the_shell_lists
control activate-mapped activating_a_mapped_toplevel_works
attack extreme-coordinates int32_extremes_in_coordinate_requests_never_overflow
control moderate-coordinates ordinary_coordinates_are_accepted
# Nothing left over: after every client is gone a new window still maps and is served.
"$rogue" window "$work/window.txt" 200 200 &
window_pid=$!
wait_for "$work/window.txt" "mapped"
result $? "a_new_window_maps_after_the_attacks"
kill "$window_pid" 2>/dev/null
wait "$window_pid" 2>/dev/null
kill -0 "$pid"
result $? "garnet_still_runs_after_all_attacks"
