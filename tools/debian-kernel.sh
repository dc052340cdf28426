#!/bin/sh
# SPDX-License-Identifier: MIT
# Names the kernel garnet builds against and boots: the one Debian's linux-image-amd64 depends on,
# never the running kernel (build machines may run a kernel without modules). With
# GARNET_KERNEL_ROOT set, the kernel of that tree instead (tools/debug-kernel.sh builds one):
# ROOT/boot/vmlinuz-RELEASE and ROOT/lib/modules/RELEASE.
# usage: debian-kernel.sh release|headers|vmlinuz|modules [RELEASE]
set -eu
root=${GARNET_KERNEL_ROOT:-}

what=${1:?usage: debian-kernel.sh release|headers|vmlinuz|modules [RELEASE]}
release=${2:-}

if [ -z "$release" ] && [ -n "$root" ]; then
	release=$(ls "$root/lib/modules" 2>/dev/null | head -n 1)
fi
if [ -z "$release" ] && [ -z "$root" ]; then
	release=$(dpkg-query -W -f='${Depends}' linux-image-amd64 2>/dev/null |
		sed -n 's/.*linux-image-\([0-9][^ ,]*\).*/\1/p')
fi
if [ -z "$release" ]; then
	# Without the metapackage, the newest installed module tree that has headers.
	for dir in $(ls -d "$root"/lib/modules/*/build 2>/dev/null | sort -V -r); do
		release=$(basename "$(dirname "$dir")")
		break
	done
fi
if [ -z "$release" ]; then
	echo "debian-kernel.sh: no kernel found: install linux-image-amd64 and linux-headers-amd64" >&2
	exit 1
fi

need() {
	if [ ! -e "$1" ]; then
		echo "debian-kernel.sh: $1 is missing (kernel $release): install $2" >&2
		exit 1
	fi
	echo "$1"
}

case "$what" in
release) echo "$release" ;;
headers) need "$root/lib/modules/$release/build/Makefile" "linux-headers-$release" >/dev/null
	echo "$root/lib/modules/$release/build" ;;
vmlinuz) need "$root/boot/vmlinuz-$release" "linux-image-$release" ;;
modules) need "$root/lib/modules/$release/modules.dep" "linux-image-$release" >/dev/null
	echo "$root/lib/modules/$release" ;;
*) echo "debian-kernel.sh: unknown query '$what'" >&2; exit 2 ;;
esac
