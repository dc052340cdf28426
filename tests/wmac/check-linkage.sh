#!/bin/sh
# SPDX-License-Identifier: MIT
# libwmac stands alone: it links nothing but the C library (no libwayland, no libgarnet), its
# header compiles on its own as strict C99 and as C++, and pkg-config finds it.
# usage: check-linkage.sh LIBWMAC.so UNINSTALLED_PKGCONFIG_DIR CC SCRATCH_DIR
set -eu
lib=$1 pcdir=$2 cc=$3 scratch=$4
mkdir -p "$scratch"

needed=$(readelf -d "$lib" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
for so in $needed; do
	case "$so" in
	libc.so.*) ;;
	*) echo "libwmac must link only the C library, but needs $so"; exit 1 ;;
	esac
done

flags=$(PKG_CONFIG_PATH="$pcdir" pkg-config --cflags --libs wmac-uninstalled)
printf '#include <wmac.h>\nint main(void) { return wmac_check(0, 0, "screenshot", 0) != WMAC_DENY; }\n' \
	>"$scratch/pc.c"
# shellcheck disable=SC2086
"$cc" -std=c99 -Wall -Wextra -pedantic -Werror -o "$scratch/pc" "$scratch/pc.c" $flags
LD_LIBRARY_PATH=$(dirname "$lib") "$scratch/pc"

inc=$(PKG_CONFIG_PATH="$pcdir" pkg-config --cflags-only-I wmac-uninstalled)
printf '#include <wmac.h>\n' >"$scratch/header.cc"
if command -v g++ >/dev/null 2>&1; then
	# shellcheck disable=SC2086
	g++ -std=c++11 -Wall -Wextra -pedantic -Werror -fsyntax-only $inc "$scratch/header.cc"
fi
echo "libwmac needs: $needed; pkg-config: $flags"
