#!/bin/sh
# SPDX-License-Identifier: MIT
# Shared first half of ./run and ./check: install the Debian packages that are missing (the list
# is data/debian-packages.txt), then configure a meson build directory.
# usage: . tools/setup.sh; garnet_install_packages [LIST]; garnet_configure BUILDDIR [OPTIONS...]

garnet_top=$(cd "$(dirname "$0")" && pwd)

garnet_missing_packages()
{
	sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$garnet_top/${1:-data/debian-packages.txt}" |
	while read -r pkg; do
		status=$(dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null)
		case "$status" in
		*" installed") ;;
		*) echo "$pkg" ;;
		esac
	done
}

garnet_install_packages()
{
	missing=$(garnet_missing_packages "$@" | tr '\n' ' ')
	[ -z "$missing" ] && return 0
	echo "garnet: installing missing Debian packages: $missing"
	if [ "$(id -u)" -eq 0 ]; then
		sudo=
	elif command -v sudo >/dev/null 2>&1; then
		sudo=sudo
	else
		echo "garnet: not root and no sudo: install these packages, then try again: $missing" >&2
		return 1
	fi
	# shellcheck disable=SC2086
	$sudo apt-get update -q >/dev/null &&
		DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends \
			$missing >/dev/null || {
		echo "garnet: apt-get could not install: $missing" >&2
		return 1
	}
}

garnet_configure()
{
	builddir=$1
	shift
	if [ -f "$builddir/build.ninja" ]; then
		meson configure "$builddir" "$@" >/dev/null || return 1
	else
		meson setup "$builddir" "$garnet_top" "$@" || return 1
	fi
}
