#!/bin/sh
# SPDX-License-Identifier: MIT
# Debian's modetest (libdrm-tests), which garnet did not write, lists garnet's connector and
# modes and sets a mode; while it holds the mode, the display runs it.
set -u
fail() { echo "FAIL: $*"; exit 1; }
command -v modetest >/dev/null || { echo "modetest is not installed (libdrm-tests)"; exit 77; }
dbg=
for d in /sys/kernel/debug/dri/*; do
	[ "$(cut -d' ' -f1 "$d/name" 2>/dev/null)" = garnet ] && { dbg=$d; break; }
done
[ -n "$dbg" ] || fail "no garnet debugfs directory"
value() { sed -n "s/^$1 //p" "$dbg/garnet_display"; }

out=$(modetest -M garnet -c) || fail "modetest -c failed"
echo "$out" | sed -n 1,8p
conn=$(echo "$out" | awk '$3 == "connected" { print $1; exit }')
[ -n "$conn" ] || fail "modetest lists no connected connector"
for m in 1024x768 1280x720 1920x1080 1280x800; do
	echo "$out" | grep -q "[[:space:]]$m[[:space:]]" || fail "mode $m not listed"
done
echo "$out" | grep -q "1280x800.*preferred" || fail "1280x800 is not the preferred mode"

dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
mkfifo "$dir/in"
modesets=$(value modesets)
modetest -M garnet -s "$conn:1024x768" <"$dir/in" >"$dir/out" 2>&1 &
pid=$!
exec 3>"$dir/in"
n=0
until [ "$(value mode)" = 1024x768 ]; do
	n=$((n + 1)); [ $n -gt 100 ] && { cat "$dir/out"; fail "the mode never became 1024x768"; }
	sleep 0.1
done
[ "$(value modesets)" -gt "$modesets" ] || fail "no modeset counted"
# modetest's SMPTE pattern starts with seven colour bars; a blank or console screen has fewer
# colours in its first 16 rows.
colours=$(head -c $((1024 * 16 * 4)) "$dbg/garnet_scanout" | od -An -tx4 -v -w4 | sort -u | wc -l)
echo "modetest on screen: $colours distinct pixel values in the first rows"
[ "$colours" -ge 7 ] || fail "the screen does not show modetest's pattern"
echo >&3
exec 3>&-
wait $pid || { cat "$dir/out"; fail "modetest -s failed"; }
grep -q "setting mode 1024x768" "$dir/out" || { cat "$dir/out"; fail "unexpected modetest output"; }
echo "PASS"
