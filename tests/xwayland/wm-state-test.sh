#!/bin/sh
# SPDX-License-Identifier: MIT
# _NET_WM_STATE of X windows: xterm -fullscreen asks for fullscreen and garnet gives it the
# output, as to an xdg toplevel; the window's _NET_WM_STATE says so.
# usage: wm-state-test.sh GARNET GARNET_X11 POLICY   (TAP)
set -u
garnet=$1
x11=$2
policy=$3
if [ ! -x /usr/bin/Xwayland ]; then
	echo "1..0 # SKIP Xwayland is not installed (Debian package xwayland)"
	exit 0
fi
for tool in xterm xwininfo xprop; do
	if ! command -v $tool >/dev/null; then
		echo "1..0 # SKIP $tool is not installed (xterm, x11-utils)"
		exit 0
	fi
done
. "$(dirname "$0")/../security/lib.sh"
echo "1..3"

cat >"$work/garnet.ini" <<INI
[security]
policy=$policy
INI
start_garnet --test-mode

"$x11" --print sh -c "xterm -class XFull -fullscreen & xterm -class XPlain & sleep 30" \
	>"$work/env.raw" 2>&1 &
runner=$!
wait_for "$work/log" "window .* (XFull) mapped" 10 && wait_for "$work/log" "window .* (XPlain) mapped" 10
sed -n 's/^\(DISPLAY\|XAUTHORITY\)=\(.*\)$/export \1="\2"/p' "$work/env.raw" >"$work/env"
. "$work/env"
i=0
while [ $i -lt 20 ]; do
	full=$(xwininfo -root -tree 2>/dev/null | grep -i 'XFull' | head -n 1 | awk '{print $1}')
	xwininfo -id "$full" 2>/dev/null | grep -q 'Width: 1024' && break
	sleep 0.5
	i=$((i + 1))
done
full=$(xwininfo -root -tree 2>/dev/null | grep -i 'XFull' | head -n 1 | awk '{print $1}')
plain=$(xwininfo -root -tree 2>/dev/null | grep -i 'XPlain' | head -n 1 | awk '{print $1}')
xwininfo -id "$full" 2>/dev/null | grep -E 'Width|Height' | tr '\n' ' ' | sed 's/^/# fullscreen xterm: /'
echo
xwininfo -id "$plain" 2>/dev/null | grep -E 'Width|Height' | tr '\n' ' ' | sed 's/^/# plain xterm: /'
echo
xwininfo -id "$full" 2>/dev/null | grep -q 'Width: 1024' && xwininfo -id "$full" | grep -q 'Height: 768'
result $? "x_window_asking_fullscreen_gets_the_output"
xprop -id "$full" _NET_WM_STATE 2>/dev/null | grep -q _NET_WM_STATE_FULLSCREEN
result $? "x_window_net_wm_state_says_fullscreen"
! xwininfo -id "$plain" 2>/dev/null | grep -q 'Width: 1024' &&
	! xprop -id "$plain" _NET_WM_STATE 2>/dev/null | grep -q FULLSCREEN
result $? "positive_control_a_plain_x_window_is_not_fullscreen"
kill "$runner" 2>/dev/null
