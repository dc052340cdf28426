#!/bin/sh
# SPDX-License-Identifier: MIT
# Builds, once, the debug kernel of `./check --deep`: Debian's linux-source-6.1 with KASAN,
# KFENCE, lockdep, debug objects, kmemleak, KCOV and fault injection, everything the VM tests
# need built in or as modules. The result is a tree laid out like a root file system, which
# debian-kernel.sh and garnet-vm use when GARNET_KERNEL_ROOT names it:
#   ROOT/boot/vmlinuz-RELEASE, ROOT/lib/modules/RELEASE/{modules.dep,build,...}
# A second run with the same source and configuration does nothing.
# usage: debug-kernel.sh build|root|release
#   GARNET_DEBUG_KERNEL_DIR: where the source, objects and ROOT live
#                            (default ${XDG_CACHE_HOME:-$HOME/.cache}/garnet/debug-kernel)
set -eu

here=$(cd "$(dirname "$0")" && pwd)
cache=${GARNET_DEBUG_KERNEL_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/garnet/debug-kernel}
tarball=$(ls /usr/src/linux-source-6.1.tar.* 2>/dev/null | head -n 1 || true)
fragment="$here/debug-kernel.config"
# Fixes the debug options need that Debian's source lacks (each patch says why).
patches="$here/debug-kernel-patches"
root="$cache/root"

# The configuration's identity: the source package's version, the fragment and the patches.
stamp_of() {
	{
		dpkg-query -W -f='${Version}\n' linux-source-6.1 2>/dev/null || echo unknown
		cat "$fragment" "$patches"/*.patch
	} | sha256sum | cut -c1-16
}

release_of() {
	[ -f "$cache/release" ] && cat "$cache/release"
}

case "${1:-}" in
root)
	[ -f "$cache/stamp" ] || { echo "debug-kernel.sh: not built yet (run: $0 build)" >&2; exit 1; }
	echo "$root"
	exit 0
	;;
release)
	release_of || { echo "debug-kernel.sh: not built yet (run: $0 build)" >&2; exit 1; }
	exit 0
	;;
build) ;;
*)
	echo "usage: debug-kernel.sh build|root|release" >&2
	exit 2
	;;
esac

if [ -z "$tarball" ]; then
	echo "debug-kernel.sh: /usr/src/linux-source-6.1.tar.xz is missing: install linux-source-6.1" >&2
	exit 1
fi
stamp=$(stamp_of)
if [ -f "$cache/stamp" ] && [ "$(cat "$cache/stamp")" = "$stamp" ]; then
	echo "debug-kernel.sh: $(release_of) is up to date in $root"
	exit 0
fi

mkdir -p "$cache"
src="$cache/src"
if [ ! -f "$src/Makefile" ]; then
	echo "debug-kernel.sh: unpacking $tarball"
	rm -rf "$src" "$cache/unpack"
	mkdir -p "$cache/unpack"
	tar -xf "$tarball" -C "$cache/unpack"
	mv "$cache/unpack"/linux-source-* "$src"
	rmdir "$cache/unpack"
fi

# A tree unpacked before a patch was added gets it now; one already applied is left alone.
for p in "$patches"/*.patch; do
	[ -f "$p" ] || continue
	patch -d "$src" -p1 -R -s -f --dry-run <"$p" >/dev/null 2>&1 && continue
	patch -d "$src" -p1 -N -s -f <"$p" || {
		echo "debug-kernel.sh: $p does not apply to $src" >&2
		exit 1
	}
done

# x86_64's defconfig, QEMU's guest drivers, then the fragment; olddefconfig settles the rest.
# Anything of the fragment the settled configuration lost is a mistake worth stopping for.
cd "$src"
make -s x86_64_defconfig
make -s kvm_guest.config
./scripts/kconfig/merge_config.sh -m .config "$fragment" >/dev/null
make -s olddefconfig
missing=0
while IFS= read -r line; do
	case "$line" in
	CONFIG_*=*)
		grep -qx -- "$line" .config || {
			echo "debug-kernel.sh: $line did not survive olddefconfig" >&2
			missing=1
		}
		;;
	"# CONFIG_"*" is not set")
		option=${line#\# }
		option=${option%% *}
		! grep -q "^$option=" .config || {
			echo "debug-kernel.sh: $option is still set after olddefconfig" >&2
			missing=1
		}
		;;
	esac
done <"$fragment"
[ $missing -eq 0 ] || exit 1

jobs=$(nproc)
echo "debug-kernel.sh: building with $jobs jobs (log: $cache/build.log)"
if ! make -j"$jobs" bzImage modules >"$cache/build.log" 2>&1; then
	tail -n 40 "$cache/build.log" >&2
	echo "debug-kernel.sh: the kernel build failed (log: $cache/build.log)" >&2
	exit 1
fi
release=$(make -s kernelrelease)
rm -rf "$root"
mkdir -p "$root/boot"
make -s INSTALL_MOD_PATH="$root" modules_install >>"$cache/build.log" 2>&1
cp arch/x86/boot/bzImage "$root/boot/vmlinuz-$release"
# External modules (garnet.ko) build against the object tree, as against Debian's headers.
ln -sfn "$src" "$root/lib/modules/$release/build"
echo "$release" >"$cache/release"
echo "$stamp" >"$cache/stamp"
echo "debug-kernel.sh: built $release into $root"
