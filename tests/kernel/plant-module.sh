#!/bin/sh
# SPDX-License-Identifier: MIT
# Builds a second garnet.ko with one line of one source file taken out (tests/fuzz/plant.py):
# a bug planted on purpose for the ioctl fuzzer's inverted self-test, never in the source tree.
# usage: plant-module.sh PYTHON PLANT_PY KBUILD_SH KERNEL_HEADERS KERNEL_SRC FILE LINE WORK OUT.ko
set -eu
python=$1 plant=$2 kbuild=$3 kdir=$4 src=$5 file=$6 line=$7 work=$8 out=$9

mkdir -p "$work/src"
# The module's own sources, as kbuild.sh would take them, then the planted file over its copy.
(cd "$src" && find . -type f \( -name '*.c' -o -name '*.h' -o -name 'Kbuild' \)) |
while read -r f; do
	mkdir -p "$work/src/$(dirname "$f")"
	cmp -s "$src/$f" "$work/src/$f" || cp "$src/$f" "$work/src/$f"
done
"$python" "$plant" "$src/$file" "$work/src/$file.new" "$line"
if cmp -s "$work/src/$file.new" "$work/src/$file"; then
	rm "$work/src/$file.new"
else
	mv "$work/src/$file.new" "$work/src/$file"
fi
exec sh "$kbuild" "$kdir" "$work/src" "$work/kbuild" "$out"
