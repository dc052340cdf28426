#!/bin/sh
# SPDX-License-Identifier: MIT
# A malformed --tap list is refused before anything boots, with the file and line named.
# usage: test-bad-list.sh GARNET_VM
set -u
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
printf '# comment\ngood\ttrue\nno-tab-here\n' >"$dir/bad.list"
out=$("$1" --tap "$dir/bad.list" 2>&1)
rc=$?
echo "$out"
[ "$rc" -eq 126 ] || { echo "FAIL: expected exit status 126, got $rc"; exit 1; }
echo "$out" | grep -q "bad.list:3: expected 'name<TAB>command'" ||
	{ echo "FAIL: the error does not name the file and line"; exit 1; }
echo "PASS"
