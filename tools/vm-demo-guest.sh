#!/bin/sh
# SPDX-License-Identifier: MIT
# Inside the demo VM: garnet as the desktop session on tty1 with the demo client, until the VM
# is stopped. Uses garnet.ko's display when it has one, else Debian's bochs driver.
# usage: vm-demo-guest.sh SOURCE_DIR BUILD_DIR
set -u
src=$1 build=$2
R=$GARNET_VM_RESULTS
. "$src/tools/guest-desktop.sh"

# garnet.ko drives the display once it has KMS; until then (or if it does not load) Debian's
# bochs module does.
if [ -f "$build/kernel/garnet.ko" ]; then
	modprobe -a drm_kms_helper drm_shmem_helper && insmod "$build/kernel/garnet.ko" ||
		echo "garnet.ko did not load: using Debian's bochs driver"
fi
if ! ls /sys/class/drm 2>/dev/null | grep -q '^card[0-9]*-'; then
	modprobe bochs || { echo "no KMS driver for the display"; exit 1; }
fi
guest_desktop_start "$R" || exit 1
guest_start_on_tty1 "exec '$build/compositor/garnet' --backend=drm --no-config \
	--autostart='$build/clients/garnet-demo' >'$R/garnet.log' 2>&1"
guest_wait_for 60 grep -qs 'running on the drm backend' "$R/garnet.log" ||
	{ cat "$R/garnet.log"; exit 1; }
touch "$R/demo-up"
while pidof garnet >/dev/null; do sleep 1; done
cat "$R/garnet.log"
