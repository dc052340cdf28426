#!/bin/sh
# SPDX-License-Identifier: MIT
# The Debian 12 root the deep install test boots (tests/packaging/deep-install-test.sh): fetched
# once with debootstrap, with systemd, DKMS, gcc and the kernel image and headers of the release
# the host boots its VM tests with (tools/debian-kernel.sh), plus data/debian-root-packages.txt.
# Cached as a directory under ${XDG_CACHE_HOME:-~/.cache}/garnet/debian-root
# (GARNET_DEBIAN_ROOT_DIR to move it) with a stamp naming what it was built from; a second
# build with the same inputs does nothing. Needs root (debootstrap, chroot) and the network.
# usage: debian-root.sh build|path|key
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
cache=${GARNET_DEBIAN_ROOT_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/garnet/debian-root}
mirror=${GARNET_DEBIAN_MIRROR:-http://deb.debian.org/debian}
release=$(sh "$top/tools/debian-kernel.sh" release)
list=$top/data/debian-root-packages.txt
# How this script builds the root: raise it when a change of the steps below changes the root.
format=1
# What the root is made of: the suite, the kernel, the package list and how it is built.
key=$( (echo "bookworm $release $mirror format $format"; sed 's/#.*//' "$list") |
	sha256sum | cut -c1-16)

case "${1:-}" in
key)
	echo "$key"
	exit 0 ;;
path)
	[ "$(cat "$cache/stamp" 2>/dev/null)" = "$key" ] ||
		{ echo "debian-root.sh: no root for $key in $cache: run debian-root.sh build" >&2; exit 1; }
	echo "$cache/root"
	exit 0 ;;
build) ;;
*) echo "usage: debian-root.sh build|path|key" >&2; exit 2 ;;
esac

[ "$(cat "$cache/stamp" 2>/dev/null)" = "$key" ] && exit 0
[ "$(id -u)" -eq 0 ] || { echo "debian-root.sh: debootstrap and chroot need root" >&2; exit 1; }
command -v debootstrap >/dev/null ||
	{ echo "debian-root.sh: debootstrap is missing (apt install debootstrap)" >&2; exit 1; }

mkdir -p "$cache"
new=$cache/root.new
mounted=
cleanup() {
	for m in $mounted; do umount -l "$new$m" 2>/dev/null || true; done
}
trap cleanup EXIT
rm -rf "$new"
start=$(date +%s)
echo "debian-root.sh: debootstrap bookworm into $new"
debootstrap --arch=amd64 bookworm "$new" "$mirror" >"$cache/debootstrap.log" 2>&1 ||
	{ tail -n 20 "$cache/debootstrap.log" >&2; exit 1; }
echo "debian-root.sh: debootstrap took $(( $(date +%s) - start )) s"

# The kernel the host's VM tests boot comes from bookworm-security as often as from the release.
cat >"$new/etc/apt/sources.list" <<LIST
deb $mirror bookworm main
deb $mirror bookworm-updates main
deb http://deb.debian.org/debian-security bookworm-security main
LIST
for m in /proc /sys /dev /dev/pts; do
	mount --bind "$m" "$new$m"
	mounted="$m $mounted"
done
cp /etc/resolv.conf "$new/etc/resolv.conf"
packages=$(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$list" | tr '\n' ' ')
in_root() { chroot "$new" env DEBIAN_FRONTEND=noninteractive LC_ALL=C.UTF-8 "$@"; }
step=$(date +%s)
# shellcheck disable=SC2086
{ in_root apt-get update -q &&
	in_root apt-get install -y -q --no-install-recommends \
		"linux-image-$release" "linux-headers-$release" $packages &&
	in_root apt-get clean; } >"$cache/apt.log" 2>&1 ||
	{ tail -n 30 "$cache/apt.log" >&2; exit 1; }
echo "debian-root.sh: packages took $(( $(date +%s) - step )) s"
[ -e "$new/boot/vmlinuz-$release" ] && [ -e "$new/boot/initrd.img-$release" ] &&
	[ -e "$new/lib/modules/$release/build/Makefile" ] ||
	{ echo "debian-root.sh: the root has no kernel $release with headers and initrd" >&2; exit 1; }
cleanup
mounted=
rm -f "$new/etc/resolv.conf"
rm -rf "$cache/root"
mv "$new" "$cache/root"
echo "$key" >"$cache/stamp"
echo "debian-root.sh: $cache/root ready in $(( $(date +%s) - start )) s"
