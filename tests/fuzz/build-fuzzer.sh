#!/bin/sh
# SPDX-License-Identifier: MIT
# Builds a libFuzzer target from C sources with clang (meson's own compiler is gcc): ASan and
# UBSan on, every UBSan report fatal. Inputs that are not .c files (generated headers) are
# only there for meson's dependency tracking. Adding zero to a NULL pointer is not reported:
# libwayland's own wl_array_for_each does it on every empty array. Warnings are off (the
# sources are checked by meson's gcc build), except a function called without a declaration or
# a pointer made from an integer: in a target built apart from that build, a missing include
# would otherwise truncate a returned pointer to an int and the fuzzer would report garnet's
# crash for its own.
# usage: build-fuzzer.sh CLANG OUTPUT "PKG-CONFIG MODULES" "-I... FLAGS" SOURCES...
set -eu
clang=$1 output=$2 modules=$3 flags=$4
shift 4
sources=
for f in "$@"; do
	case $f in
	*.c) sources="$sources $f" ;;
	esac
done
# shellcheck disable=SC2046,SC2086
exec "$clang" -g -O1 -std=gnu11 -D_GNU_SOURCE -pthread \
	-Wno-everything -Werror=implicit-function-declaration -Werror=int-conversion \
	-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined -fno-sanitize=pointer-overflow \
	$flags $(pkg-config --cflags $modules) -o "$output" $sources \
	$(pkg-config --libs $modules) -lm
