#!/bin/sh
# SPDX-License-Identifier: MIT
# The demo VM of ./run: garnet as the session on tty1 of a QEMU guest, its screen on VNC at
# 127.0.0.1:5901, keyboard and pointer from the VNC viewer. Runs until Ctrl+C.
# usage: vm-demo.sh SOURCE_DIR BUILD_DIR
set -eu
src=$1 build=$2
port=${GARNET_VNC_DISPLAY:-1}
echo "garnet: booting the demo VM (QEMU without KVM: allow a minute)..."
exec python3 "$src/tests/vm/garnet-vm" --bochs --input --vnc "$port" --timeout 86400 \
	--share "$src" --share "$build" --module virtio_input --module evdev \
	--host-cmd "while [ ! -e \"\$GARNET_VM_RESULTS/demo-up\" ]; do
			[ -e \"\$GARNET_VM_RESULTS/job.rc\" ] && exit 1; sleep 1; done;
		echo 'garnet: the demo is up. Connect a VNC viewer to 127.0.0.1:$((5900 + port))' \
		'(e.g. vncviewer 127.0.0.1:$port); Ctrl+C here stops it.'" \
	-- sh "$src/tools/vm-demo-guest.sh" "$src" "$build"
