#!/bin/sh
# SPDX-License-Identifier: MIT
# `meson install` puts each file where the system reads it, whatever the prefix: the udev rule
# in udev.pc's directory, the PAM service where PAM reads services, the configuration under
# sysconfdir, the .pc files where pkg-config finds them, a man page for every program. The
# installed garnet carries no path of the build or source tree.
# usage: install-layout-test.sh BUILDDIR SOURCEDIR   (TAP output)
set -u
build=$(readlink -f "$1")
source=$(readlink -f "$2")
work=$(mktemp -d "${TMPDIR:-/tmp}/garnet-install-XXXXXX")
trap 'rm -rf "$work"' EXIT
n=0
result() {
	n=$((n + 1))
	if [ "$1" -eq 0 ]; then echo "ok $n $2"; else echo "not ok $n $2"; fi
}
option() { # the value of meson option $1 in the build
	meson introspect --buildoptions "$build" |
		python3 -c "import json, sys; print(next(o['value'] for o in json.load(sys.stdin) if o['name'] == '$1'))"
}
under() { # an option's directory, absolute (meson puts relative ones under the prefix)
	case $1 in
	/*) echo "$1" ;;
	*) echo "$prefix/$1" ;;
	esac
}
echo "1..9"
prefix=$(option prefix)
sysconfdir=$(under "$(option sysconfdir)")
bindir=$(under "$(option bindir)")
libdir=$(under "$(option libdir)")
mandir=$(under "$(option mandir)")
datadir=$(under "$(option datadir)")
udevdir=$(pkg-config --variable=udevdir udev 2>/dev/null || echo "$prefix/lib/udev")
echo "# prefix $prefix, sysconfdir $sysconfdir, udev $udevdir"

dest=$work/root
meson install -C "$build" --no-rebuild --quiet --destdir "$dest" >"$work/install.txt" 2>&1
status=$?
sed 's/^/# /' "$work/install.txt" | tail -n 20
[ $status -eq 0 ]
result $? "meson_install_into_a_destdir_succeeds"
(cd "$dest" && find . -type f -o -type l | sort) >"$work/files.txt"
sed 's/^/# /' "$work/files.txt"

[ -f "$dest$udevdir/rules.d/70-garnet-seat.rules" ]
result $? "udev_rule_is_in_udev_pc_rules_dir"

[ -f "$dest/etc/pam.d/garnet" ]
result $? "pam_service_is_where_pam_reads_it"

[ -f "$dest$sysconfdir/wmac/wmac.policy" ] && [ -f "$dest$sysconfdir/xdg/garnet/garnet.ini" ] &&
	[ -f "$dest$sysconfdir/garnet/garnet.ini" ]
result $? "policy_and_garnet_ini_are_under_sysconfdir"

[ -f "$dest$datadir/wayland-sessions/garnet.desktop" ]
result $? "session_entry_is_where_display_managers_look"

ok=0
for pc in garnet wmac; do
	file=$dest$libdir/pkgconfig/$pc.pc
	if [ ! -f "$file" ] || ! pkg-config --validate "$file"; then
		echo "# $pc.pc missing or invalid"
		ok=1
	fi
done
[ $ok -eq 0 ] && grep -q "^Requires:.*wayland-server" "$dest$libdir/pkgconfig/garnet.pc"
result $? "garnet_pc_and_wmac_pc_are_installed"

# Every installed program has its page in section 1.
ok=0
count=0
for program in "$dest$bindir"/*; do
	name=$(basename "$program")
	count=$((count + 1))
	if ! [ -f "$dest$mandir/man1/$name.1" ] && ! [ -f "$dest$mandir/man1/$name.1.gz" ]; then
		echo "# $name has no man page"
		ok=1
	fi
done
echo "# $count programs installed"
[ $ok -eq 0 ] && [ $count -ge 7 ]
result $? "every_installed_program_has_a_man_page"

# The build tree's marker stays in the build tree; the installed garnet reads the installed
# policy, and names no file of the source tree.
! grep -q "garnet-build-tree.ini" "$work/files.txt"
result $? "build_tree_marker_is_not_installed"

# (Debug information names the build directory, as it should: look at the program only.)
strip -o "$work/garnet" "$dest$bindir/garnet" && strings "$work/garnet" >"$work/strings.txt"
grep -qx "$sysconfdir/wmac/wmac.policy" "$work/strings.txt" && ! grep -qF "$source/" "$work/strings.txt"
result $? "installed_garnet_reads_the_installed_policy_and_no_source_path"
