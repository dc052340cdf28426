#!/bin/sh
# SPDX-License-Identifier: MIT
# The Debian packages build from a clean copy of the tree (dpkg-buildpackage -us -uc -b, outside
# the source directory, which stays as it was), lintian finds nothing (or only the overrides
# explained in debian/*.lintian-overrides), and each package holds what doc/packaging.md says.
# The kernel module is packaged as source for DKMS, not built here.
# A hook for the deeper test that installs the packages into a Debian root and boots it:
# GARNET_DEB_OUT=DIR keeps the .deb files there.
# usage: debian-packages-test.sh SOURCEDIR   (TAP output; 77: dpkg-buildpackage is missing)
set -u
source=$(readlink -f "$1")
if ! command -v dpkg-buildpackage >/dev/null 2>&1; then
	echo "1..0 # SKIP dpkg-buildpackage is missing (apt install dpkg-dev debhelper dh-dkms lintian)"
	exit 77
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/garnet-deb-XXXXXX")
trap '[ -n "${KEEP:-}" ] || rm -rf "$work"' EXIT
n=0
result() {
	n=$((n + 1))
	if [ "$1" -eq 0 ]; then echo "ok $n $2"; else echo "not ok $n $2"; fi
}
version=$(dpkg-parsechangelog -l "$source/debian/changelog" -S Version)
echo "1..10"

# The copy: what git tracks (and new files not ignored), or the whole tree without build
# directories when it is no git checkout.
state() { git -C "$source" status --porcelain --ignored 2>/dev/null | grep -v '^!! build' ; }
state >"$work/state-before.txt"
tree=$work/garnet-$version
mkdir "$tree"
if git -C "$source" rev-parse --git-dir >/dev/null 2>&1; then
	(cd "$source" && git ls-files -z --cached --others --exclude-standard |
		xargs -0 cp --parents -t "$tree" 2>/dev/null)
	# Deleted files still listed by --cached are not an error of the copy.
	true
else
	(cd "$source" && tar --exclude='./build*' -cf - .) | (cd "$tree" && tar -xf -)
fi

(cd "$tree" && DEB_BUILD_OPTIONS="nocheck parallel=2" dpkg-buildpackage -us -uc -b) \
	>"$work/build.txt" 2>&1
status=$?
tail -n 30 "$work/build.txt" | sed 's/^/# /'
[ $status -eq 0 ]
result $? "dpkg_buildpackage_builds_the_packages"

state >"$work/state-after.txt"
cmp -s "$work/state-before.txt" "$work/state-after.txt"
result $? "source_tree_stays_as_it_was"

changes=$(ls "$work"/garnet_*.changes 2>/dev/null | head -n 1)
if [ -n "$changes" ]; then
	# (Not --show-overrides: lintian would count an overridden warning as reported.)
	lintian --fail-on error,warning --display-info "$changes" >"$work/lintian.txt" 2>&1
	status=$?
else
	echo "no .changes file" >"$work/lintian.txt"
	status=1
fi
sed 's/^/# /' "$work/lintian.txt"
# Overrides are allowed, each with its reason (a comment above it) in the override file.
[ $status -eq 0 ] && ! grep -q "^[EW]:" "$work/lintian.txt"
result $? "lintian_finds_no_error_or_warning"

ok=0
for f in "$source"/debian/*.lintian-overrides; do
	[ -e "$f" ] || continue
	awk 'NF && !/^#/ && prev !~ /^#/ { bad = 1; print FILENAME ": " $0 " has no reason" }
	     { prev = $0 } END { exit bad }' "$f" || ok=1
done
[ $ok -eq 0 ]
result $? "every_lintian_override_says_why"

# contents PACKAGE: its paths, one a line, without the leading dot
contents() {
	deb=$(ls "$work/$1"_*.deb 2>/dev/null | head -n 1)
	[ -n "$deb" ] || return 1
	dpkg-deb -c "$deb" | awk '{ print $6 }' | sed 's|^\./|/|' >"$work/$1.list"
	sed "s/^/# $1: /" "$work/$1.list"
}
has() { # PACKAGE PATH...: each PATH (a grep -x pattern) is in PACKAGE
	pkg=$1
	shift
	for p in "$@"; do
		grep -qx -- "$p" "$work/$pkg.list" || { echo "# $pkg lacks $p"; return 1; }
	done
}
conffile() { # PACKAGE PATH...: each PATH is a conffile of PACKAGE
	pkg=$1
	shift
	deb=$(ls "$work/$pkg"_*.deb | head -n 1)
	dpkg-deb -e "$deb" "$work/$pkg.control"
	for p in "$@"; do
		grep -qx -- "$p" "$work/$pkg.control/conffiles" ||
			{ echo "# $p is no conffile of $pkg"; return 1; }
	done
}
multiarch=$(dpkg-architecture -qDEB_HOST_MULTIARCH)

contents garnet &&
	has garnet /usr/bin/garnet /usr/bin/garnet-demo /usr/bin/garnet-gem-demo \
		/usr/bin/garnet-osk /usr/bin/garnet-panel /usr/bin/garnet-sandbox /usr/bin/garnet-x11 \
		/usr/bin/garnet-screenshooter /etc/garnet/garnet.ini \
		/usr/share/wayland-sessions/garnet.desktop \
		"$(pkg-config --variable=udevdir udev)/rules.d/70-garnet-seat.rules" \
		/etc/pam.d/garnet /etc/wmac/wmac.policy /etc/xdg/garnet/garnet.ini \
		/usr/share/man/man1/garnet.1.gz /usr/share/man/man1/garnet-osk.1.gz \
		/usr/share/man/man5/garnet.ini.5.gz /usr/share/man/man5/wmac.policy.5.gz &&
	conffile garnet /etc/pam.d/garnet /etc/wmac/wmac.policy /etc/xdg/garnet/garnet.ini \
		/etc/garnet/garnet.ini
result $? "garnet_holds_the_compositor_clients_and_conffiles"

contents garnet-dkms &&
	has garnet-dkms "/usr/src/garnet-[^/]*/dkms.conf" "/usr/src/garnet-[^/]*/Kbuild" \
		"/usr/src/garnet-[^/]*/garnet_drv.c" \
		"/usr/src/garnet-[^/]*/include/uapi/drm/garnet_drm.h" &&
	grep -q 'AUTOINSTALL="yes"' "$tree"/debian/garnet-dkms/usr/src/garnet-*/dkms.conf &&
	! grep -q "#MODULE_VERSION#" "$tree"/debian/garnet-dkms/usr/src/garnet-*/dkms.conf &&
	! grep -q '\.ko$' "$work/garnet-dkms.list" &&
	conffile garnet-dkms /etc/modprobe.d/garnet-dkms.conf
result $? "garnet_dkms_holds_the_module_source_dkms_conf_and_its_modprobe_file"

contents libwmac1 && has libwmac1 "/usr/lib/$multiarch/libwmac.so.1.*" &&
	! grep -q "/usr/include\|\.pc$" "$work/libwmac1.list"
result $? "libwmac1_holds_the_shared_library"

contents libwmac-dev &&
	has libwmac-dev /usr/include/wmac.h "/usr/lib/$multiarch/libwmac.so" \
		"/usr/lib/$multiarch/pkgconfig/wmac.pc" /usr/bin/wmac-check-policy \
		/usr/share/man/man1/wmac-check-policy.1.gz
result $? "libwmac_dev_holds_the_header_pc_and_checker"

contents libgarnet0 && has libgarnet0 "/usr/lib/$multiarch/libgarnet.so.0.*" &&
	contents libgarnet-dev &&
	has libgarnet-dev /usr/include/garnet/compositor.h "/usr/lib/$multiarch/libgarnet.so" \
		"/usr/lib/$multiarch/pkgconfig/garnet.pc"
result $? "libgarnet0_and_libgarnet_dev_hold_the_library_headers_and_pc"

if [ -n "${GARNET_DEB_OUT:-}" ]; then
	mkdir -p "$GARNET_DEB_OUT" && cp "$work"/*.deb "$GARNET_DEB_OUT"/
fi
ls "$work"/*.deb 2>/dev/null | sed 's|.*/|# built |'
# (and the -dbgsym packages debhelper adds for each one holding programs or libraries)
[ "$(ls "$work"/*.deb 2>/dev/null | grep -cv -- -dbgsym_)" -eq 6 ]
result $? "six_packages_are_built"
