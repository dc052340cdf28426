#!/bin/sh
# SPDX-License-Identifier: MIT
# X11 applications in garnet's domains (one Xwayland each): real X clients map and take typed
# keys, an override-redirect window shows where X puts it, WM_DELETE_WINDOW closes, a killed
# Xwayland is replaced at the next connection; and the attacks of one domain on another, each
# with its positive control inside one domain: XInput2 raw keys, XTEST, naming another
# domain, and an Xwayland asking for privileged globals. The "user" types through garnet_test.
# usage: xwayland-test.sh GARNET GARNET_X11 GARNET_DRIVE X_OVERRIDE POLICY ROGUE   (TAP output)
set -u
garnet=$1
x11=$2
drive=$3
xover=$4
policy=$5
rogue=$6
if [ ! -x /usr/bin/Xwayland ]; then
	echo "1..0 # SKIP Xwayland is not installed (Debian package xwayland)"
	exit 0
fi
for tool in xterm xeyes xclock xdotool xinput xdpyinfo; do
	if ! command -v $tool >/dev/null; then
		echo "1..0 # SKIP $tool is not installed (x11-apps, x11-utils, xdotool, xinput, xterm)"
		exit 0
	fi
done
. "$(dirname "$0")/../security/lib.sh"
. "$(dirname "$0")/lib.sh"
echo "1..19"

cat >"$work/garnet.ini" <<INI
[security]
policy=$policy

[shell]
binding=F12 close

[xwayland]
domain=office:sh

[autostart]
command=sh -c 'echo "\$DISPLAY \$XAUTHORITY" >$work/office.env'
INI
start_garnet --test-mode

click_centre() {
	"$drive" motion 512 384 && "$drive" click
}

# xterm in a domain of its own takes the keys typed into it.
x_env "$work/b.env" || echo "# $(cat "$work/b.env.err")"
in_env "$work/b.env" xterm -e sh -c "read x; echo \"\$x\" >$work/b.typed; read y; echo \"\$y\" >$work/b.typed2" &
xterm_b=$!
wait_for "$work/log" "window .* (XTerm) mapped" 10
result $? "xterm_maps_in_a_domain_of_its_own"
sleep 0.5
click_centre
"$drive" type 'typed by the user\n'
wait_for "$work/b.typed" "typed by the user" 5
result $? "xterm_receives_the_keys_typed_into_it"

# xeyes and xclock, each through garnet-x11 (a domain each).
"$x11" xeyes >"$work/xeyes.log" 2>&1 &
xeyes=$!
"$x11" xclock >"$work/xclock.log" 2>&1 &
xclock=$!
wait_for "$work/log" "window .* (XEyes) mapped" 10 && wait_for "$work/log" "window .* (XClock) mapped" 10
result $? "xeyes_and_xclock_map"
grep -q "domain xeyes#" "$work/log" && grep -q "domain xclock#" "$work/log"
result $? "each_launch_through_garnet_x11_gets_its_own_domain"

# an override-redirect window (a menu, a tooltip) shows where X puts it.
in_env "$work/b.env" "$xover" 300 200 3 >"$work/override.txt" 2>&1 &
wait_for "$work/log" "override-redirect window 0x[0-9a-f]* at 300,200 mapped" 5
result $? "override_redirect_window_shows_where_x_puts_it"

# the attacks of domain A on domain B's xterm, which has the keyboard.
x_env "$work/a.env" || echo "# $(cat "$work/a.env.err")"
grep -q "DISPLAY" "$work/a.env" && ! cmp -s "$work/a.env" "$work/b.env"
result $? "two_domains_have_two_displays"
in_env "$work/a.env" xdpyinfo >/dev/null 2>&1 # A's server runs
a_display=$(sed -n 's/^DISPLAY="\(.*\)"/\1/p' "$work/a.env")
b_display=$(sed -n 's/^DISPLAY="\(.*\)"/\1/p' "$work/b.env")
a_server=$(pgrep -f "Xwayland $a_display ")
b_server=$(pgrep -f "Xwayland $b_display ")
[ -n "$a_server" ] && [ -n "$b_server" ] && [ "$a_server" != "$b_server" ]
result $? "two_domains_run_two_xwayland_servers"
# XTEST from A: B's windows are not in A's server, and what A types goes nowhere near B.
found=$(in_env "$work/a.env" xdotool search --class XTerm 2>/dev/null)
in_env "$work/a.env" xdotool type 'forged by A' 2>/dev/null
in_env "$work/a.env" xdotool key Return 2>/dev/null
sleep 0.5
# Positive control: XTEST inside B's own domain types into B's focused xterm.
in_env "$work/b.env" xdotool type 'sent inside B' 2>/dev/null
in_env "$work/b.env" xdotool key Return 2>/dev/null
wait_for "$work/b.typed2" "." 5
sed 's/^/# b typed: /' "$work/b.typed2" 2>/dev/null
[ -z "$found" ] && [ "$(cat "$work/b.typed2" 2>/dev/null)" = "sent inside B" ]
result $? "xtest_in_domain_a_neither_finds_nor_types_into_domain_b"
# XInput2 raw events: a spy in A and one in B (the positive control) while the user types into
# a new xterm of B.
in_env "$work/b.env" xterm -e sh -c "read z; echo \"\$z\" >$work/b.typed3" &
xterm_b3=$!
sleep 2
click_centre
in_env "$work/a.env" xinput test-xi2 --root >"$work/a.xi2" 2>&1 &
spy_a=$!
in_env "$work/b.env" xinput test-xi2 --root >"$work/b.xi2" 2>&1 &
spy_b=$!
sleep 1
"$drive" type 'secret\n'
wait_for "$work/b.typed3" "secret" 5 || echo "# B's xterm did not get the keys"
sleep 0.5
kill "$spy_a" "$spy_b" "$xterm_b3" 2>/dev/null
grep -c "RawKeyPress" "$work/b.xi2" | sed 's/^/# raw key presses seen in B: /'
grep -c "KeyPress\|KeyRelease" "$work/a.xi2" | sed 's/^/# key events seen in A: /'
grep -q "RawKeyPress" "$work/b.xi2" && ! grep -q "KeyPress\|KeyRelease" "$work/a.xi2"
result $? "xi2_raw_keys_typed_into_domain_b_reach_b_and_never_domain_a"

# GetImage: A's root shows nothing of B's xterm (rootless Xwayland refuses it, or one colour);
# B's own picture of its xterm (the positive control) shows the text in it.
in_env "$work/b.env" xterm -class XImage -e sh -c 'echo text on the screen; sleep 30' &
xterm_img=$!
wait_for "$work/log" "window .* (XImage) mapped" 10
sleep 1
b_window=$(in_env "$work/b.env" xdotool search --class XImage 2>/dev/null | head -n 1)
in_env "$work/a.env" xwd -root -silent >"$work/a-root.xwd" 2>/dev/null
in_env "$work/b.env" xwd -id "$b_window" -silent >"$work/b-xterm.xwd" 2>/dev/null
a_colours=$(python3 "$(dirname "$0")/xwd-colours.py" "$work/a-root.xwd" 2>/dev/null)
b_colours=$(python3 "$(dirname "$0")/xwd-colours.py" "$work/b-xterm.xwd" 2>/dev/null)
echo "# colours in A's root: ${a_colours:-none}, in B's xterm: ${b_colours:-none}"
[ "${a_colours:-0}" -le 1 ] && [ "${b_colours:-0}" -gt 1 ]
result $? "getimage_on_domain_a_root_shows_nothing_of_domain_b"
kill "$xterm_img" 2>/dev/null

# naming another app's domain gets nothing; only garnet.ini's own launches join a shared one.
! x_env "$work/join1.env" --domain "$(sed -n 's/^domain //p' "$work/b.env.raw")" &&
	! x_env "$work/join2.env" --domain office && grep -q ":" "$work/office.env"
result $? "a_client_cannot_join_another_domain_by_name"

# WM_DELETE_WINDOW: garnet's close binding asks the focused X window to close.
# (Clicked once it has mapped: two fixed seconds were once too few for an ASan build.)
in_env "$work/b.env" xterm -class XClose &
xterm_close=$!
wait_for "$work/log" "window .* (XClose) mapped" 20 || echo "# the xterm to close did not map"
sleep 0.5
click_centre
"$drive" key 88 # F12
i=0
while kill -0 "$xterm_close" 2>/dev/null && [ $i -lt 50 ]; do
	sleep 0.1
	i=$((i + 1))
done
! kill -0 "$xterm_close" 2>/dev/null
result $? "close_binding_sends_wm_delete_window"

# a killed Xwayland is replaced at the next connection; garnet and the other domain live.
kill -9 "$a_server"
wait_for "$work/log" "domain .* ($a_display): Xwayland exited" 5
in_env "$work/a.env" xdpyinfo >"$work/a.dpyinfo" 2>&1
grep -q "name of display" "$work/a.dpyinfo" && kill -0 "$pid" && kill -0 "$b_server" &&
	[ "$(pgrep -f "Xwayland $a_display ")" != "$a_server" ]
result $? "killed_xwayland_restarts_at_next_connection_and_garnet_lives"

# An X client moving the X focus itself (XSetInputFocus) is undone: the keys go to the window
# garnet gave the keyboard, not to the one the client chose.
in_env "$work/b.env" xterm -class XStolen -e sh -c "read s; echo \"\$s\" >$work/stolen.typed" &
xterm_s=$!
wait_for "$work/log" "window .* (XStolen) mapped" 10
in_env "$work/b.env" xterm -class XFocused -e sh -c "read f; echo \"\$f\" >$work/focused.typed" &
xterm_f=$!
wait_for "$work/log" "window .* (XFocused) mapped" 10
sleep 1
click_centre
stolen=$(in_env "$work/b.env" xdotool search --class XStolen 2>/dev/null | head -n 1)
in_env "$work/b.env" xdotool windowfocus "$stolen" 2>/dev/null
sleep 0.5
"$drive" type 'kept by garnet\n'
wait_for "$work/focused.typed" "kept by garnet" 5
[ $? -eq 0 ] && [ ! -s "$work/stolen.typed" ]
result $? "x_client_cannot_move_the_keyboard_focus_itself"
kill "$xterm_s" "$xterm_f" 2>/dev/null

# knowing a display's number is not enough: its server wants the domain's cookie.
DISPLAY=$b_display XAUTHORITY=/dev/null xdpyinfo >"$work/nocookie.txt" 2>&1
nocookie=$?
in_env "$work/b.env" xdpyinfo >"$work/cookie.txt" 2>&1
[ $nocookie -ne 0 ] && grep -q "name of display" "$work/cookie.txt"
result $? "a_display_admits_only_clients_with_its_cookie"

kill "$xterm_b" "$xeyes" "$xclock" 2>/dev/null
kill "$pid"
wait "$pid"
pid=

# an Xwayland never holds a privileged global, even where the policy gives every
# client all of them (the positive control: an ordinary client then sees them).
cp "$policy" "$work/generous.policy"
echo "allow privileged-global" >>"$work/generous.policy"
sed -i "s|^policy=.*|policy=$work/generous.policy|" "$work/garnet.ini"
printf '[launcher]\npanel=%s toplevels %s\n' "$rogue" "$work/panel.txt" >>"$work/garnet.ini"
start_garnet --test-mode --debug
"$drive" globals >"$work/globals.txt" 2>/dev/null
grep -q "^zwlr_screencopy_manager_v1" "$work/globals.txt"
result $? "positive_control_an_ordinary_client_sees_privileged_globals"
"$x11" xdpyinfo >"$work/dpyinfo.txt" 2>&1
grep -q "name of display" "$work/dpyinfo.txt"
result $? "xdpyinfo_connects_through_a_new_domain"
grep -q "privileged global zwlr_screencopy_manager_v1 hidden from an Xwayland" "$work/log" &&
	grep -q "privileged global zwp_virtual_keyboard_manager_v1 hidden from an Xwayland" "$work/log" &&
	! grep -q "denied: an Xwayland may not bind" "$work/log"
result $? "xwayland_never_sees_privileged_globals"

# The task bar (a launched panel) names an X window by its WM_NAME and the class of WM_CLASS.
"$x11" xterm -title x-title-for-the-taskbar -class XTaskbarClass >/dev/null 2>&1 &
xterm_t=$!
wait_for "$work/panel.txt" "^window title=x-title-for-the-taskbar app_id=XTaskbarClass" 10
result $? "taskbar_shows_an_x_windows_title_and_class"
kill "$xterm_t" 2>/dev/null
