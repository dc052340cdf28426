# SPDX-License-Identifier: MIT
# Sourced after lib.sh by the tests that talk to logind: a private system bus in $work and the
# logind stand-in (tests/compositor/fake-logind.c) for session c7 on it, both stopped at exit.
# usage: start_logind_stand_in FAKE_LOGIND; its log is $work/logind.txt.
start_logind_stand_in() {
	cat >"$work/bus.conf" <<XML
<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>system</type>
  <listen>unix:path=$work/system_bus_socket</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow user="*"/>
    <allow own="*"/>
    <allow send_destination="*"/>
    <allow receive_sender="*"/>
  </policy>
</busconfig>
XML
	dbus-daemon --config-file="$work/bus.conf" --nofork --nopidfile --print-address=1 \
		>"$work/bus.txt" 2>&1 &
	bus_pid=$!
	logind_pid=
	trap 'kill $logind_pid $bus_pid 2>/dev/null; cleanup' EXIT
	wait_for "$work/bus.txt" "unix:" || { echo "Bail out! no private bus"; exit 1; }
	export DBUS_SYSTEM_BUS_ADDRESS="unix:path=$work/system_bus_socket"
	"$1" c7 >"$work/logind.txt" 2>&1 &
	logind_pid=$!
	wait_for "$work/logind.txt" "^ready" ||
		{ echo "Bail out! the logind stand-in did not start"; exit 1; }
}
