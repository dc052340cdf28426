#!/bin/sh
# SPDX-License-Identifier: MIT
# Sourced inside a garnet-vm guest: starts what a Debian desktop boot has running before anyone
# logs in on a VT (udev, which libinput needs for its device properties, and seatd), so garnet
# can then be started on tty1 exactly as from a login shell.
# usage: . tools/guest-desktop.sh; guest_desktop_start LOGDIR || exit 1

guest_wait_for() { # guest_wait_for SECONDS COMMAND...
	limit=$(($1 * 10))
	shift
	n=0
	until "$@"; do
		n=$((n + 1))
		[ $n -gt $limit ] && return 1
		sleep 0.1
	done
}

guest_desktop_start()
{
	logdir=$1
	/lib/systemd/systemd-udevd --daemon 2>>"$logdir/udevd.log" ||
		{ echo "systemd-udevd did not start"; return 1; }
	# udevadm trigger and settle refuse to work in a chroot: announce the devices by hand and
	# wait until udev has recorded the input ones (libinput skips untagged devices).
	for f in /sys/class/input/*/uevent /sys/class/drm/*/uevent; do echo add >"$f"; done
	guest_wait_for 30 sh -c 'ls /run/udev/data 2>/dev/null | grep -q "^c13:"' ||
		{ echo "udev recorded no input device"; return 1; }
	sleep 1
	seatd -g root >"$logdir/seatd.log" 2>&1 &
	guest_wait_for 10 test -S /run/seatd.sock || { echo "seatd did not start"; return 1; }
	export LIBSEAT_BACKEND=seatd
}

# Starts COMMAND on tty1, switching to it and making it the controlling terminal, as getty and
# login do for a user's shell.
guest_start_on_tty1()
{
	busybox openvt -c 1 -s sh -c "$1"
}
