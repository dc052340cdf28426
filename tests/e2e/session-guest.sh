#!/bin/sh
# SPDX-License-Identifier: MIT
# The guest side of the session tests: brings up what a Debian desktop boot would (udev, seatd),
# then starts and stops garnet on tty1 as a user would from a login shell, one step each time
# the host (session-host.py) asks for it through marker files in the results directory.
# usage: session-guest.sh BUILD_DIR [legacy]   (legacy: garnet uses legacy KMS, not atomic)
set -u
E2E_WAYLAND_DEBUG=
build=$1
[ "${2:-}" = legacy ] && export GARNET_DRM_NO_ATOMIC=1
R=$GARNET_VM_RESULTS
garnet=$build/compositor/garnet
client=$build/tests/e2e/input-client
. "$(dirname "$0")/../../tools/guest-desktop.sh"

step() { echo "guest: $*" >>"$R/guest.log"; }
fail() { step "FAIL: $*"; touch "$R/guest-failed"; exit 1; }
# Waits for the host to ask for step $1 (the host gives up first if the guest stalls).
wait_host() {
	n=0
	while [ ! -e "$R/host.$1" ]; do
		if [ -e "$R/host-failed" ]; then
			for p in $(pidof garnet input-client); do
				step "$(cat /proc/$p/comm) $p: $(grep State /proc/$p/status) wchan $(cat /proc/$p/wchan)"
				cat /proc/$p/stack >>"$R/guest.log" 2>/dev/null
			done
			pidof garnet >/dev/null || step "garnet is not running"
			sync
			exit 1
		fi
		n=$((n + 1)); [ $n -gt 3000 ] && fail "the host never asked for $1"
		sleep 0.1
	done
}
done_step() { step "$1 done"; touch "$R/guest.$1"; }

config=--no-config
window="320 240"
start_garnet() { # start_garnet LOGNAME [--tty=N]; $config: --no-config or --config=FILE
	rm -f "$R/a.log" "$R/garnet.png"
	start=guest_start_on_tty1
	# --tty=N: started from no terminal at all (as over ssh); garnet switches to VT N itself.
	[ -n "${2:-}" ] && start="setsid -f sh -c"
	$start "WAYLAND_DEBUG=${E2E_WAYLAND_DEBUG:-} exec '$garnet' --backend=drm $config --debug ${2:-} \
		--log='$R/$1' --screenshot='$R/garnet.png' \
		--autostart=\"'$client' $window 0x00c000 '$R/a.log'\" >'$R/$1.out' 2>&1"
	guest_wait_for 60 grep -qs mapped "$R/a.log" || fail "garnet or its client did not come up"
	guest_wait_for 30 test -s "$R/garnet.png" || fail "garnet wrote no screenshot"
	pid=$(pidof garnet) || fail "garnet is not running"
	socket=$(sed -n 's/.*WAYLAND_DISPLAY=//p' "$R/$1.out")
}

# No display connector: the driver under test has no KMS (garnet.ko before its display landed).
if ! ls /sys/class/drm 2>/dev/null | grep -q '^card[0-9]*-'; then
	step "no KMS connector: skipped"
	touch "$R/guest-skipped"
	exit 77
fi
guest_desktop_start "$R" >>"$R/guest.log" 2>&1 || fail "the desktop services did not start"
ls /dev/input /dev/dri >>"$R/guest.log" 2>&1
# Text on tty1, tty2 and tty3, to recognise the text console in screendumps.
i=0
while [ $i -lt 20 ]; do
	echo "garnet e2e text console ########################################" >/dev/tty1
	echo "garnet e2e second console ######################################" >/dev/tty2
	echo "garnet e2e third console #######################################" >/dev/tty3
	i=$((i + 1))
done

start_garnet garnet1.log
if [ -n "${GARNET_DRM_NO_ATOMIC:-}" ]; then
	grep -q "legacy KMS" "$R/garnet1.log" || fail "garnet did not use legacy KMS"
else
	grep -q "atomic" "$R/garnet1.log" || fail "garnet did not use atomic KMS"
fi
done_step up

wait_host second-client
WAYLAND_DISPLAY=$socket "$client" 320 240 0x0000c0 "$R/b.log" &
guest_wait_for 30 grep -qs mapped "$R/b.log" || fail "the second client did not map"
sleep 1
done_step second-client

wait_host sigterm
kill -TERM "$pid"
guest_wait_for 30 sh -c "! kill -0 $pid 2>/dev/null" || fail "garnet did not exit on SIGTERM"
done_step sigterm

wait_host restart
start_garnet garnet2.log --tty=3
[ "$(cat /sys/class/tty/tty0/active)" = tty3 ] ||
	fail "garnet --tty=3 runs on $(cat /sys/class/tty/tty0/active), not tty3"
done_step restart

wait_host presentation
# The time a client is told its frame was presented is the time of the page flip that showed it.
WAYLAND_DISPLAY=$socket "$client" 64 64 0x808080 "$R/p.log" --presentation &
guest_wait_for 30 grep -qs "^presented " "$R/p.log" || fail "no presentation feedback: $(cat "$R/p.log")"
set -- $(grep "^presented " "$R/p.log")
flip="flip at $2.$(printf '%06d' $(($3 / 1000)))"
step "client: $*; garnet: $(grep -c 'flip at' "$R/garnet2.log") flips"
[ $(($3 % 1000)) -eq 0 ] && grep -q "$flip" "$R/garnet2.log" ||
	fail "presented at $2 s $3 ns, which is no page flip of garnet's"
done_step presentation

wait_host sigkill
kill -KILL "$pid"
guest_wait_for 30 sh -c "! kill -0 $pid 2>/dev/null" || fail "garnet survived SIGKILL"
sleep 1
done_step sigkill

# garnet.ini as a user writes it: the output's mode, scale and transform, libinput's natural
# scrolling and left-handed buttons; then devices come and go under the running session.
wait_host configured
cat >"$R/garnet.ini" <<INI
[output]
mode=800x600
scale=2
transform=90

[libinput]
natural-scroll=true
left-handed=true
accel-profile=flat
INI
config="--config=$R/garnet.ini"
window="100 80"
start_garnet garnet3.log
done_step configured

wait_host keyboard-added
keyboards=$(grep -c "device added: .*keyboard" "$R/garnet3.log")
guest_wait_for 30 sh -c "[ \$(grep -c 'device added: .*keyboard' '$R/garnet3.log') -gt $keyboards ]" ||
	fail "garnet did not take the keyboard plugged in"
sleep 1
done_step keyboard-added

wait_host keyboard-removed
guest_wait_for 30 grep -qs "device removed" "$R/garnet3.log" ||
	fail "garnet did not see the keyboard go"
kill -0 "$pid" || fail "garnet died when a keyboard was unplugged"
done_step keyboard-removed

wait_host touch
# A touch screen plugged in while garnet runs: a touch in the middle reaches the window there.
python3 "$(dirname "$0")/uinput-touch.py" >>"$R/guest.log" 2>&1 || fail "no uinput touch screen"
guest_wait_for 10 grep -qs "^touch-up" "$R/a.log" || fail "the touch did not reach the window"
done_step touch

wait_host output-off
connector=$(ls -d /sys/class/drm/card[0-9]*-Virtual-1 | head -n 1)
card=$(dirname "$(readlink -f "$connector")")
# The drivers here do not poll their connectors, so forcing one off sends no uevent by itself:
# the change event a hotplug-capable driver would send is made by hand.
echo off >"$connector/status"
echo change >"$card/uevent"
guest_wait_for 30 grep -qs "Virtual-1 unplugged" "$R/garnet3.log" || fail "garnet did not see Virtual-1 go"
kill -0 "$pid" || fail "garnet died when its only output went"
done_step output-off

wait_host output-on
echo detect >"$connector/status"
echo change >"$card/uevent"
guest_wait_for 30 sh -c "[ \$(grep -c 'Virtual-1: 800x600 scale 2 transform 1' '$R/garnet3.log') -ge 2 ]" ||
	fail "garnet did not bring Virtual-1 back as configured"
sleep 2
done_step output-on

wait_host finished
exit 0
