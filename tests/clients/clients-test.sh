#!/bin/sh
# SPDX-License-Identifier: MIT
# The real-clients matrix: Debian 12's own Wayland clients against a headless garnet --test-mode,
# each proven by its own output or by a capture of the screen (pixels it changed); then the
# desktop's tools under the shipped policy (desktop-tools.sh). TAP output.
# usage: clients-test.sh GARNET GARNET-DRIVE OUTPUT-DIR POLICY PANEL PANEL-REFERENCE.png
set -u
garnet=$1
drive=$2
out=$3
policy=$4
panel=$5
reference=$6
ppm_check=$(dirname "$0")/ppm-check.py
mkdir -p "$out"
work=$(mktemp -d "${TMPDIR:-/tmp}/garnet-clients-XXXXXX")
mkdir -m 0700 "$work/runtime"
export XDG_RUNTIME_DIR="$work/runtime"
export WAYLAND_DISPLAY=garnet-clients
# Clients must not find an X server or a session bus to fall back on.
unset DISPLAY DBUS_SESSION_BUS_ADDRESS
export GDK_BACKEND=wayland NO_AT_BRIDGE=1 SHELL=/bin/sh
garnet_pid=
n=0
failed=0

start_garnet() {
	"$garnet" --no-config --test-mode --socket="$WAYLAND_DISPLAY" --width=1024 --height=768 \
		>>"$work/garnet.log" 2>&1 &
	garnet_pid=$!
	# The socket file exists a moment before garnet listens on it: wait until a client is
	# served (the empty desktop captured), up to 10 s.
	i=0
	rm -f "$work/empty.ppm"
	while ! "$drive" capture "$work/empty.ppm" >/dev/null 2>&1 && [ $i -lt 200 ]; do
		sleep 0.05
		i=$((i + 1))
	done
	[ -s "$work/empty.ppm" ] || echo "# garnet did not serve a client within 10 s"
}

stop_garnet() {
	kill -TERM "$garnet_pid" 2>/dev/null
	wait "$garnet_pid"
	status=$?
	rm -f "$XDG_RUNTIME_DIR/$WAYLAND_DISPLAY" "$XDG_RUNTIME_DIR/$WAYLAND_DISPLAY.lock"
	return $status
}

ok() { n=$((n + 1)); echo "ok $n $1${2:+ # $2}"; }
not_ok() {
	n=$((n + 1))
	echo "not ok $n $1 # $2"
	[ -f "$work/client.log" ] && sed 's/^/# /' "$work/client.log" | tail -20
	failed=1
}
have() { command -v "$1" >/dev/null; }

# Waits until FILE exists and is not empty (up to 10 s).
wait_for_file() {
	i=0
	while [ ! -s "$1" ] && [ $i -lt 200 ]; do
		sleep 0.05
		i=$((i + 1))
	done
	[ -s "$1" ]
}

# Runs a client in the background (its stdout and stderr line-buffered into client.log).
launch() {
	rm -f "$work/client.log"
	timeout 20 stdbuf -oL -eL "$@" >"$work/client.log" 2>&1 &
	client_pid=$!
}

finish() {
	kill -TERM "$client_pid" 2>/dev/null
	wait "$client_pid" 2>/dev/null
}

# Captures the screen as NAME.ppm; prints how many pixels differ from the empty desktop.
changed_pixels() {
	"$drive" capture "$out/$1.ppm" "$work/empty.ppm" | sed -n 's/^changed //p'
}

# New windows are centred on the 1024x768 output, so its centre is inside them.

# A client whose window must cover at least MIN pixels of the screen within 10 s (GTK starts
# slowly on a loaded machine).
shows_window() {
	name=$1 min=$2
	shift 2
	if ! have "$1"; then
		ok "$name" "SKIP $1 not installed"
		return
	fi
	launch "$@"
	i=0
	while :; do
		sleep 0.5
		px=$(changed_pixels "$name")
		i=$((i + 1))
		[ "${px:-0}" -ge "$min" ] || [ $i -ge 20 ] && break
	done
	finish
	if [ "${px:-0}" -ge "$min" ]; then
		ok "$name"
	else
		not_ok "$name" "changed ${px:-no} pixels, expected at least $min"
	fi
}

start_garnet
echo "1..21"

# wayland-info lists every global garnet advertises, at its version.
if have wayland-info; then
	timeout 10 wayland-info >"$work/client.log" 2>&1
	"$drive" globals >"$work/globals"
	missing=
	while read -r iface version; do
		grep -Eq "interface: '$iface',.*version: +$version," "$work/client.log" ||
			missing="$missing $iface/$version"
	done <"$work/globals"
	if [ -s "$work/globals" ] && [ -z "$missing" ]; then
		ok wayland_info_lists_every_global
	else
		not_ok wayland_info_lists_every_global "missing:$missing"
	fi
else
	ok wayland_info_lists_every_global "SKIP wayland-info not installed"
fi

# A 250x250 window of its own pattern.
shows_window weston_simple_shm $((250 * 250)) weston-simple-shm
shows_window weston_simple_damage 20000 weston-simple-damage
shows_window weston_flower 5000 weston-flower

# Presentation feedback: every frame reported with commit-to-present and present-to-present.
if have weston-presentation-shm; then
	timeout 3 weston-presentation-shm -f >"$work/client.log" 2>&1
	frames=$(grep -c 'c2p .* p2p .* seq' "$work/client.log")
	if [ "$frames" -ge 60 ]; then
		ok weston_presentation_shm_gets_feedback
	else
		not_ok weston_presentation_shm_gets_feedback "$frames presented frames in 3 s"
	fi
else
	ok weston_presentation_shm_gets_feedback "SKIP weston not installed"
fi

# weston-eventdemo logs the keys and pointer events injected into its window.
if have weston-eventdemo; then
	launch weston-eventdemo --log-key --log-button --log-motion
	sleep 1.5
	"$drive" motion 512 384
	"$drive" motion 520 390
	"$drive" type "g"
	"$drive" click
	sleep 0.5
	finish
	if grep -q 'key: 34, unicode: 103, state: pressed' "$work/client.log" &&
		grep -q 'button .*state: pressed' "$work/client.log" &&
		grep -q 'motion' "$work/client.log"; then
		ok weston_eventdemo_gets_input
	else
		not_ok weston_eventdemo_gets_input "no key, button or motion logged"
	fi
else
	ok weston_eventdemo_gets_input "SKIP weston not installed"
fi

# wev prints the keysym of an injected key and the button.
if have wev; then
	launch wev
	sleep 1
	"$drive" motion 512 384
	"$drive" motion 520 390
	"$drive" type "q"
	"$drive" click
	sleep 0.5
	finish
	if grep -q "sym: q .*utf8: 'q'" "$work/client.log" &&
		grep -q 'button: 272 (left), state: 1 (pressed)' "$work/client.log"; then
		ok wev_prints_key_and_button
	else
		not_ok wev_prints_key_and_button "no key or button printed"
	fi
else
	ok wev_prints_key_and_button "SKIP wev not installed"
fi

# A terminal gets a command typed through the test protocol and its shell runs it.
types_command() {
	name=$1
	shift
	if ! have "$1"; then
		ok "$name" "SKIP $1 not installed"
		return
	fi
	result="$work/$name.out"
	launch "$@"
	sleep 2
	"$drive" type "echo garnet-\$((6*7)) >$result\\n"
	wait_for_file "$result"
	sleep 0.3
	px=$(changed_pixels "$name")
	finish
	if [ "$(cat "$result" 2>/dev/null)" = "garnet-42" ] && [ "${px:-0}" -gt 10000 ]; then
		ok "$name"
	else
		not_ok "$name" "shell wrote '$(cat "$result" 2>/dev/null)', window changed ${px:-no} pixels"
	fi
}
types_command foot_runs_typed_command foot
types_command weston_terminal_runs_typed_command weston-terminal

# wl-copy and wl-paste round trip through the data device.
if have wl-copy && have wl-paste; then
	echo "copied by wl-copy" | timeout 10 wl-copy
	got=$(timeout 10 wl-paste)
	if [ "$got" = "copied by wl-copy" ]; then
		ok wl_copy_wl_paste_round_trip
	else
		not_ok wl_copy_wl_paste_round_trip "pasted '$got'"
	fi
else
	ok wl_copy_wl_paste_round_trip "SKIP wl-clipboard not installed"
fi

# GTK 3 on its Wayland backend draws its widget gallery (it takes longest to start).
if have gtk3-widget-factory; then
	launch gtk3-widget-factory
	sleep 4
	px=$(changed_pixels gtk3_widget_factory)
	finish
	if [ "${px:-0}" -ge 200000 ]; then
		ok gtk3_widget_factory_shows_window
	else
		not_ok gtk3_widget_factory_shows_window "changed ${px:-no} pixels"
	fi
else
	ok gtk3_widget_factory_shows_window "SKIP gtk-3-examples not installed"
fi

if ! stop_garnet; then
	echo "# garnet did not shut down cleanly"
	sed 's/^/# /' "$work/garnet.log" | tail -20
	failed=1
fi
. "$(dirname "$0")/desktop-tools.sh"
rm -rf "$work"
exit $failed
