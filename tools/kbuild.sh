#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Builds an out-of-tree module with Kbuild. Kbuild wants the sources inside M=, so they are
# mirrored into the build directory first; make then rebuilds only what changed.
# usage: kbuild.sh KERNEL_HEADERS SOURCE_DIR WORK_DIR OUTPUT.ko
set -eu

kdir=$1
src=$2
out=$3
output=$4
module=$(basename "$output")

mkdir -p "$out"
# Copy only files whose content changed so make's timestamps stay meaningful.
(cd "$src" && find . -type f \( -name '*.c' -o -name '*.h' -o -name 'Kbuild' \)) |
while read -r f; do
	mkdir -p "$out/$(dirname "$f")"
	if ! cmp -s "$src/$f" "$out/$f"; then
		cp "$src/$f" "$out/$f"
	fi
done

# Kbuild prints progress on stdout; keep it out of meson's log unless something fails.
log="$out/kbuild.log"
if ! make -C "$kdir" M="$(cd "$out" && pwd)" modules >"$log" 2>&1; then
	cat "$log" >&2
	echo "kbuild.sh: building $module failed (log: $log)" >&2
	exit 1
fi
if grep -E 'warning:' "$log" | grep -v 'Skipping BTF generation' >&2; then
	echo "kbuild.sh: $module builds with warnings; garnet's kernel code must build clean" >&2
	exit 1
fi
cp "$out/$module" "$output"
