#!/bin/sh
# SPDX-License-Identifier: MIT
# Hot-unplug of bochs-display (root removes the PCI device, as QEMU's device_del would) while
# Debian's modetest flips pages: composition never touches the unmapped VRAM (the guest log
# check catches the oops it would be), flips keep completing on the software vblank, and the
# display then reports no output. Runs last in its boot: the device does not come back.
set -u
fail() { echo "FAIL: $*"; exit 1; }
command -v modetest >/dev/null || { echo "modetest is not installed (libdrm-tests)"; exit 77; }
dbg=
for d in /sys/kernel/debug/dri/*; do
	[ "$(cut -d' ' -f1 "$d/name" 2>/dev/null)" = garnet ] && { dbg=$d; break; }
done
[ -n "$dbg" ] || fail "no garnet debugfs directory"
value() { sed -n "s/^$1 //p" "$dbg/garnet_display"; }
[ "$(value output)" = bochs ] || fail "the display is not on bochs-display"
pci=
for d in /sys/bus/pci/drivers/garnet/0000:*; do
	[ -e "$d" ] && pci=$(basename "$d")
done
[ -n "$pci" ] || fail "garnet drives no PCI device"

conn=$(modetest -M garnet -c | awk '$3 == "connected" { print $1; exit }')
[ -n "$conn" ] || fail "modetest lists no connected connector"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
# modetest flips until its stdin becomes readable: a fifo held open keeps it flipping.
mkfifo "$dir/in"
modetest -M garnet -s "$conn:1024x768" -v <"$dir/in" >"$dir/out" 2>&1 &
pid=$!
exec 3>"$dir/in"
n=0
until [ "$(value mode)" = 1024x768 ]; do
	n=$((n + 1)); [ $n -gt 100 ] && { cat "$dir/out"; fail "the mode never became 1024x768"; }
	sleep 0.1
done
sleep 1
copied=$(value bytes_copied)
echo "flipping; removing $pci"
echo 1 > "/sys/bus/pci/devices/$pci/remove" || fail "cannot remove $pci"
[ -e "/sys/bus/pci/devices/$pci" ] && fail "$pci is still there"
sleep 2
kill -0 $pid 2>/dev/null || { cat "$dir/out"; fail "modetest died with the device"; }
flips=$(grep -c "freq:" "$dir/out")
echo >&3
exec 3>&-
n=0
while kill -0 $pid 2>/dev/null; do
	n=$((n + 1)); [ $n -gt 100 ] && { cat "$dir/out"; fail "modetest does not stop"; }
	sleep 0.1
done
wait $pid
echo "output $(value output), $(value bytes_copied) bytes composed (was $copied), $flips fps reports"
[ "$(value output)" = none ] || fail "the display still reports output $(value output)"
head -c 4096 "$dbg/garnet_scanout" >/dev/null || fail "the scanout readback fails"
echo "PASS"
