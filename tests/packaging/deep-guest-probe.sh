#!/bin/sh
# SPDX-License-Identifier: MIT
# Inside the booted Debian root of the deep install test, as a systemd service: reports to the
# host, through files on the 9p share "results", what the host cannot see from outside (DKMS,
# the loaded module, logind's session, garnet's process), runs the untrusted client once the
# host has taken its screendump, collects the journal and powers the guest off.
# Each stage ends with a marker file STAGE.done; the host (deep-install-test.py) waits for them.
# usage: deep-guest-probe.sh USER
set -u
user=$1
R=/run/deep-results
mkdir -p $R
mount -t 9p -o trans=virtio,version=9p2000.L,cache=none results $R || exit 1
log() { echo "$(cut -d' ' -f1 /proc/uptime) $*" >>$R/probe.log; }
mark() { log "$1"; touch "$R/$1.done"; }
# wait_for SECONDS COMMAND...: polls every half second; gives up when the host has (a stage
# failed there), collecting what explains it.
wait_for() {
	n=$(($1 * 2))
	shift
	while ! "$@" >/dev/null 2>&1; do
		[ -e $R/host-failed.done ] && { log "the host gave up"; finish; }
		n=$((n - 1))
		[ $n -gt 0 ] || return 1
		sleep 0.5
	done
}
finish() {
	cp "$(getent passwd "$user" | cut -d: -f6)/garnet-session.log" $R/ 2>>$R/probe.log
	journalctl -b --no-pager >$R/journal.txt 2>&1
	dmesg >$R/dmesg.txt
	mark finished
	sync
	systemctl poweroff
	exit 0
}

# Boot: the system settles (units failing at boot are reported, not fatal here).
wait_for 300 sh -c '! systemctl is-system-running | grep -qx starting'
systemctl is-system-running >$R/system-state.txt 2>&1
systemctl --failed --no-legend >>$R/system-state.txt 2>&1
dkms status >$R/dkms.txt 2>>$R/probe.log
lsmod >$R/lsmod.txt
# Which driver holds the display: garnet.ko's PCI driver has the bochs-display (1234:1111), not
# Debian's bochs, and DRM has a card with a connector.
for d in /sys/bus/pci/devices/*; do
	[ "$(cat "$d/vendor")" = 0x1234 ] && [ "$(cat "$d/device")" = 0x1111 ] &&
		echo "bochs-display $(basename "$d") driver $(basename "$(readlink "$d/driver")")"
done >$R/drm.txt 2>&1
ls /sys/class/drm >>$R/drm.txt 2>&1
modinfo -n garnet >>$R/dkms.txt 2>&1
mark booted

# The login prompt on tty1: agetty there, then login once the host typed the user name.
wait_for 300 pgrep -t tty1 -x agetty || { log "no agetty on tty1"; finish; }
mark getty
wait_for 300 pgrep -t tty1 -x login || { log "login never started on tty1"; finish; }
mark login

# The session: logind has it on seat0, tty1, and garnet runs in it as the user.
uid=$(id -u "$user")
wait_for 300 pgrep -u "$uid" -x garnet || { log "garnet never started"; finish; }
pid=$(pgrep -u "$uid" -x garnet | head -n 1)
wait_for 300 sh -c "ls /run/user/$uid/wayland-[0-9] >/dev/null" ||
	{ log "garnet made no socket"; finish; }
socket=$(basename "$(ls /run/user/$uid/wayland-[0-9] | head -n 1)")
session=$(loginctl list-sessions --no-legend | awk -v u="$user" '$3 == u { print $1; exit }')
loginctl show-session "$session" >$R/session.txt 2>&1
echo "pid=$pid" >>$R/session.txt
echo "cmdline=$(tr '\0' ' ' </proc/$pid/cmdline)" >>$R/session.txt
echo "cgroup=$(cat /proc/$pid/cgroup)" >>$R/session.txt
mark garnet

# The untrusted client: the user's own program, started outside garnet (so no launcher
# identity), asks for screencopy once the host has seen the desktop.
wait_for 600 test -e $R/host-screendump.done || { log "the host took no screendump"; finish; }
gid=$(id -g "$user")
setpriv --reuid="$uid" --regid="$gid" --init-groups \
	env XDG_RUNTIME_DIR=/run/user/$uid WAYLAND_DISPLAY=$socket HOME=/tmp \
	garnet-screenshooter /tmp/untrusted.png >$R/untrusted.txt 2>&1 &
cpid=$!
wait $cpid
echo "$?" >$R/untrusted.rc
echo "$cpid" >$R/untrusted.pid
sleep 2
journalctl -t garnet-audit --no-pager -o short >$R/audit.txt 2>&1
journalctl -t garnet-audit --no-pager -o json >$R/audit.json 2>&1
cp "$(getent passwd "$user" | cut -d: -f6)/garnet-session.log" $R/ 2>>$R/probe.log
mark untrusted
finish
