#!/bin/sh
# SPDX-License-Identifier: MIT
# In a VM guest: side-by-side.sh on the DRM backend for one compositor, as the session on tty1,
# each sample printed as a "sample: " line; first the output's mode ("mode WxH").
# usage: vm-side-by-side-guest.sh COMPOSITOR SECONDS GARNET FULLSCREEN_CLIENT
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../../tools/guest-desktop.sh"
R=$GARNET_VM_RESULTS
guest_desktop_start "$R" >>"$R/guest.log" 2>&1 || { echo "no desktop services"; exit 1; }
# The preferred mode, which each compositor takes.
echo "mode $(cat /sys/class/drm/card*-*/modes 2>/dev/null | head -n 1)"
export TMPDIR=/tmp
# (A compositor that does not start has its log printed by side-by-side.sh.)
exec sh "$here/side-by-side.sh" -d -c "$1" -s "$2" -r 1 -k -F "$4" "$3"
