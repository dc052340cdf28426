#!/bin/sh
# SPDX-License-Identifier: MIT
# The side-by-side on the DRM backend in VM guests: garnet on garnet.ko's display (its virtual
# output), and as the anchor Weston 10's DRM backend (pixman) on Debian's own bochs driver
# and QEMU's bochs-display, one boot each per repetition (tests/bench/vm-side-by-side-guest.sh).
# Prints side-by-side.sh's table of the medians; -o also writes the JSON.
# usage: vm-side-by-side.sh [-s SECONDS] [-r REPETITIONS] [-o OUT.json] GARNET_VM GARNET
#                           GARNET_KO FULLSCREEN_CLIENT
set -u
seconds=10
reps=1
out=
while getopts s:r:o: opt; do
	case $opt in
	s) seconds=$OPTARG ;;
	r) reps=$OPTARG ;;
	o) out=$OPTARG ;;
	*) sed -n 's/^# usage: /usage: /p; s/^#                           /                           /p' "$0" >&2
	   exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -eq 4 ] || { sed -n 's/^# usage: /usage: /p' "$0" >&2; exit 2; }
vm=$1 garnet=$(readlink -f "$2") garnet_ko=$(readlink -f "$3") fullscreen=$(readlink -f "$4")
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
build=$(cd "$(dirname "$garnet")/.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/garnet-vm-sbs-XXXXXX")
trap 'rm -rf "$work"' EXIT
: >"$work/samples"

# boot NAME ARGS...: one guest measuring compositor NAME; its samples are kept.
boot() {
	name=$1
	shift
	python3 "$vm" --input --share "$top" --share "$build" --module virtio_input --module evdev \
		--timeout $((seconds * 8 + 240)) "$@" -- \
		sh "$here/vm-side-by-side-guest.sh" "$name" "$seconds" "$garnet" "$fullscreen" \
		>"$work/$name.out" 2>&1
	if ! grep -q "^sample: $name/" "$work/$name.out"; then
		tail -n 30 "$work/$name.out" | sed 's/^/# /' >&2
		echo "vm-side-by-side: $name printed no sample" >&2
		return 1
	fi
	sed -n 's/^sample: //p' "$work/$name.out" >>"$work/samples"
	sed -n "s/^mode /# $name: the output's mode is /p" "$work/$name.out" | head -n 1
}

rep=1
while [ "$rep" -le "$reps" ]; do
	boot garnet --module drm_kms_helper --module drm_shmem_helper --insmod "$garnet_ko" ||
		exit 1
	boot weston --bochs --module bochs || exit 1
	rep=$((rep + 1))
done
mode=$(sed -n 's/^mode //p' "$work/garnet.out" | head -n 1)
sh "$here/side-by-side.sh" -t "$work/samples" -d -s "$seconds" -r "$reps" -g "${mode:-drm}" \
	${out:+-o "$out"} "$garnet"
