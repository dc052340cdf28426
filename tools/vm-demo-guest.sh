#!/bin/sh
# SPDX-License-Identifier: MIT
# Inside the demo VM: garnet as the desktop session on tty1 with the demo clients, until the VM
# is stopped. Uses garnet.ko's display when it has one, else Debian's bochs driver. With
# garnet.ko loaded, garnet-gem-demo (drawn by garnet's GPU, shared through garnet_buffer_v1)
# runs beside garnet-demo.
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
gpu_demo=
if [ -d /sys/module/garnet ]; then
	gpu_demo="--autostart='$build/clients/garnet-gem-demo --size 400x260'"
fi
if ! ls /sys/class/drm 2>/dev/null | grep -q '^card[0-9]*-'; then
	modprobe bochs || { echo "no KMS driver for the display"; exit 1; }
fi
guest_desktop_start "$R" || exit 1
guest_start_on_tty1 "exec '$build/compositor/garnet' --backend=drm --no-config \
	--autostart='$build/clients/garnet-demo' $gpu_demo >'$R/garnet.log' 2>&1"
guest_wait_for 60 grep -qs 'running on the drm backend' "$R/garnet.log" ||
	{ cat "$R/garnet.log"; exit 1; }
touch "$R/demo-up"
while pidof garnet >/dev/null; do sleep 1; done
cat "$R/garnet.log"
