#!/bin/sh
# SPDX-License-Identifier: MIT
# Screen sharing through the desktop portal: a private session bus, PipeWire and WirePlumber,
# garnet launching garnet-portal, xdg-desktop-portal choosing it (garnet.portal), and an
# application (consumer.py) asking through the public ScreenCast API. garnet's dialog asks
# the user (answered through garnet_test); yes gives a PipeWire stream whose frame is garnet's
# screen, no gives no stream. A running cast shows the indicator, pauses while locked, and the
# stop binding ends it at the consumer.
# usage: portal-test.sh GARNET ROGUE POLICY GARNET_PORTAL PORTAL_FILE SCREENSHOOTER PNG_EQUAL
set -u
garnet=$1
rogue=$2
policy=$3
garnet_portal=$(readlink -f "$4")
portal_file=$(readlink -f "$5")
screenshooter=$(readlink -f "$6")
png_equal=$(readlink -f "$7")
consumer=$(readlink -f "$(dirname "$0")/consumer.py")
for tool in pipewire wireplumber dbus-daemon gst-launch-1.0 /usr/libexec/xdg-desktop-portal; do
	if ! command -v "$tool" >/dev/null 2>&1; then
		echo "1..0 # SKIP $tool is not installed (data/debian-packages.txt lists it)"
		exit 0
	fi
done
if ! /usr/bin/python3 -c 'import dbus, gi' 2>/dev/null ||
	! gst-inspect-1.0 pipewiresrc >/dev/null 2>&1; then
	echo "1..0 # SKIP python3-dbus, python3-gi or gstreamer1.0-pipewire is not installed"
	exit 0
fi
. "$(dirname "$0")/../security/lib.sh"
echo "1..9"

# The session the application lives in: its bus, PipeWire, and the frontend finding
# garnet-portal through garnet.portal (UseIn=garnet).
mkdir -p "$work/portals" "$work/home"
cp "$portal_file" "$work/portals/"
export HOME="$work/home" XDG_CURRENT_DESKTOP=garnet XDG_DESKTOP_PORTAL_DIR="$work/portals"
export DBUS_SESSION_BUS_ADDRESS="unix:path=$work/bus"
export PIPEWIRE_RUNTIME_DIR="$XDG_RUNTIME_DIR" GST_REGISTRY="$work/gst-registry.bin"
dbus-daemon --session --address="$DBUS_SESSION_BUS_ADDRESS" --nofork >"$work/dbus.log" 2>&1 &
bus_pid=$!
wait_for_bus() {
	i=0
	while [ $i -lt 50 ]; do
		[ -S "$work/bus" ] && return 0
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}
wait_for_bus || { echo "Bail out! no session bus"; exit 1; }
pipewire >"$work/pipewire.log" 2>&1 &
pw_pid=$!
wait_for_pipewire() {
	i=0
	while [ $i -lt 50 ]; do
		[ -S "$XDG_RUNTIME_DIR/pipewire-0" ] && return 0
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}
wait_for_pipewire || { echo "Bail out! pipewire did not start"; tail "$work/pipewire.log"; exit 1; }
wireplumber >"$work/wireplumber.log" 2>&1 &
wp_pid=$!
frontend_pid=
stop_session() {
	kill $frontend_pid $wp_pid $pw_pid $bus_pid 2>/dev/null
}
trap 'stop_session; cleanup' EXIT

# The policy as shipped: applications are asked about screencasts.
cp "$policy" "$work/wmac.policy"
chmod 0644 "$work/wmac.policy"
# The test's hands (garnet_test keys, from the fifo keys) and its eyes (the screenshooter,
# whenever the file shoot appears), both started by garnet in their trusted roles.
rogue=$(readlink -f "$rogue")
cat >"$work/panel.sh" <<SH
exec "$rogue" script <"$work/keys" >"$work/script.out"
SH
cat >"$work/shooter.sh" <<SH
while [ ! -e "$work/shoot" ]; do sleep 0.1; done
rm "$work/shoot"
exec "$screenshooter" "$work/screen.png"
SH
# start_session: garnet with garnet-portal as its portal entry, a window to look at, and
# the frontend once garnet-portal owns its name.
start_session() {
	cat >"$work/garnet.ini" <<INI
[security]
policy=$work/wmac.policy
launcher-restarts=0

[launcher]
portal=$garnet_portal
panel=sh $work/panel.sh
screenshooter=sh $work/shooter.sh

[shell]
binding=super+l lock
binding=super+Escape stop-casts
INI
	rm -f "$work/keys"
	mkfifo "$work/keys"
	start_garnet --test-mode
	exec 3>"$work/keys"
	open_window window_pid window "$work/window.txt" 400 300 "^keyboard-enter"
	wait_for "$work/out" "garnet-portal: serving" 10 || echo "# garnet-portal did not start"
	if [ -z "$frontend_pid" ]; then
		/usr/libexec/xdg-desktop-portal -v >"$work/frontend.log" 2>&1 &
		frontend_pid=$!
		wait_for "$work/frontend.log" "ScreenCast" 10 || echo "# the frontend said nothing"
	fi
}
stop_garnet() {
	kill "$window_pid" 2>/dev/null
	wait "$window_pid" 2>/dev/null
	kill "$pid" 2>/dev/null
	wait "$pid"
	pid=
}

# answer KEY: once garnet's dialog asks, the user presses KEY (evdev code: 21 y, 49 n).
answer() {
	wait_for "$work/log" "consent: asking the user" 30 || echo "# garnet did not ask"
	sleep 1 # the dialog takes answers after half a second
	echo "key $1" >&3
}
key() {
	echo "$1" >&3
	sleep 0.5
}

start_session
/usr/bin/python3 "$consumer" "$work/frame.png" stream-until-closed >"$work/consumer.txt" 2>&1 &
consumer_pid=$!
answer 21
wait_for "$work/consumer.txt" "^streaming" 60
sed 's/^/# /' "$work/consumer.txt"
grep -q "^frame" "$work/consumer.txt"
result $? "an_application_asking_the_portal_gets_a_pipewire_stream_once_the_user_says_yes"
grep -q "the user allowed HEADLESS-1 for pid $consumer_pid exe /usr/bin/python3[0-9.]*$" "$work/log"
result $? "the_question_names_the_application_pid_not_the_portal"
