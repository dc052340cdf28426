#!/bin/sh
# SPDX-License-Identifier: MIT
# The guest side of the session tests: brings up what a Debian desktop boot would (udev, seatd),
# then starts and stops garnet on tty1 as a user would from a login shell, one step each time
# the host (session-host.py) asks for it through marker files in the results directory.
# usage: session-guest.sh BUILD_DIR [legacy]   (legacy: garnet uses legacy KMS, not atomic)
set -u
build=$1
[ "${2:-}" = legacy ] && export GARNET_DRM_NO_ATOMIC=1
R=$GARNET_VM_RESULTS
garnet=$build/compositor/garnet
client=$build/tests/e2e/input-client
export LIBSEAT_BACKEND=seatd

step() { echo "guest: $*" >>"$R/guest.log"; }
fail() { step "FAIL: $*"; touch "$R/guest-failed"; exit 1; }
# Waits for the host to ask for step $1 (the host gives up first if the guest stalls).
wait_host() {
	n=0
	while [ ! -e "$R/host.$1" ]; do
		[ -e "$R/host-failed" ] && exit 1
		n=$((n + 1)); [ $n -gt 3000 ] && fail "the host never asked for $1"
		sleep 0.1
	done
}
wait_for() { # wait_for SECONDS COMMAND...
	limit=$(($1 * 10)); shift
	n=0
	until "$@"; do
		n=$((n + 1)); [ $n -gt $limit ] && return 1
		sleep 0.1
	done
}
done_step() { step "$1 done"; touch "$R/guest.$1"; }

start_garnet() { # start_garnet LOGNAME
	rm -f "$R/a.log" "$R/garnet.png"
	# openvt makes tty1 the active VT and the controlling terminal, as getty and login do.
	busybox openvt -c 1 -s sh -c "exec '$garnet' --backend=drm --no-config --debug \
		--log='$R/$1' --screenshot='$R/garnet.png' \
		--autostart=\"'$client' 320 240 0x00c000 '$R/a.log'\" >'$R/$1.out' 2>&1"
	wait_for 60 grep -qs mapped "$R/a.log" || fail "garnet or its client did not come up"
	wait_for 30 test -s "$R/garnet.png" || fail "garnet wrote no screenshot"
	pid=$(pidof garnet) || fail "garnet is not running"
	socket=$(sed -n 's/.*WAYLAND_DISPLAY=//p' "$R/$1.out")
}

# What a desktop boot has started by now: udev (libinput needs its device properties) and the
# seat daemon.
/lib/systemd/systemd-udevd --daemon 2>>"$R/guest.log" || fail "systemd-udevd did not start"
# udevadm trigger and settle refuse to work in a chroot: announce the devices by hand and wait
# until udev has recorded the input ones (libinput skips devices udev has not tagged).
for f in /sys/class/input/*/uevent /sys/class/drm/*/uevent; do echo add >"$f"; done
wait_for 30 sh -c 'ls /run/udev/data 2>/dev/null | grep -q "^c13:"' ||
	fail "udev recorded no input device"
sleep 1
seatd -g root >"$R/seatd.log" 2>&1 &
wait_for 10 test -S /run/seatd.sock || fail "seatd did not start"
ls /dev/input /dev/dri >>"$R/guest.log" 2>&1
# Text on tty1 and tty2, to recognise the text console in screendumps.
i=0
while [ $i -lt 20 ]; do
	echo "garnet e2e text console ########################################" >/dev/tty1
	echo "garnet e2e second console ######################################" >/dev/tty2
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
wait_for 30 grep -qs mapped "$R/b.log" || fail "the second client did not map"
sleep 1
done_step second-client

wait_host sigterm
kill -TERM "$pid"
wait_for 30 sh -c "! kill -0 $pid 2>/dev/null" || fail "garnet did not exit on SIGTERM"
done_step sigterm

wait_host restart
start_garnet garnet2.log
done_step restart

wait_host sigkill
kill -KILL "$pid"
wait_for 30 sh -c "! kill -0 $pid 2>/dev/null" || fail "garnet survived SIGKILL"
sleep 1
done_step sigkill

wait_host finished
exit 0
