# SPDX-License-Identifier: MIT
# The desktop's own tools in the real-clients matrix (sourced by clients-test.sh, which has ok,
# not_ok, have, launch, finish, wait_for_file, $work, $drive): garnet under the shipped policy
# (data/wmac.policy) with the tools in the [launcher] roles the policy names, and as anyone
# else where the policy lets anyone. Each proven by what it shows on a capture (or a reference
# screenshot) or by what it does: a file an idle timeout touched, an output's new mode seen by
# an ordinary client. The same tools started by an unknown client fail where the policy says.
# Needs: $policy (data/wmac.policy), $panel (garnet-panel), $reference (tests/reference/panel.png),
# $ppm_check (ppm-check.py).

if [ "$(id -u)" -eq 0 ]; then
	as_system=
else
	# [launcher] and [security] are read only from a root-owned file: garnet runs as root of
	# a user namespace of its own, where the test's files are root's.
	as_system="unshare --user --map-root-user --"
fi
desktop_pid=
bus_pid=

# start_desktop: garnet --test-mode with $work/desktop.ini (written by the caller below the
# common sections in $work/desktop-launchers.ini), waits until a capture is served.
start_desktop() {
	cp "$policy" "$work/wmac.policy" && chmod 0644 "$work/wmac.policy"
	{
		printf '[security]\npolicy=%s\nlauncher-restarts=0\n\n' "$work/wmac.policy"
		printf '[output]\nmode=1024x768\n\n[shell]\nbackground-color=0xff2e3440\n\n'
		cat "$work/desktop-launchers.ini"
	} >"$work/desktop.ini"
	rm -f "$work/desktop.log"
	$as_system "$garnet" --config "$work/desktop.ini" --test-mode --socket="$WAYLAND_DISPLAY" \
		--log "$work/desktop.log" >"$work/desktop.out" 2>&1 &
	desktop_pid=$!
	i=0
	rm -f "$work/desktop-empty.ppm"
	while ! "$drive" capture "$work/desktop-empty.ppm" >/dev/null 2>&1 && [ $i -lt 200 ]; do
		sleep 0.05
		i=$((i + 1))
	done
	[ -s "$work/desktop-empty.ppm" ] || echo "# garnet did not serve a client within 10 s"
}

stop_desktop() {
	kill -TERM "$desktop_pid" 2>/dev/null
	wait "$desktop_pid"
	status=$?
	desktop_pid=
	rm -f "$XDG_RUNTIME_DIR/$WAYLAND_DISPLAY" "$XDG_RUNTIME_DIR/$WAYLAND_DISPLAY.lock"
	if [ $status -ne 0 ]; then
		echo "# garnet (desktop) exited with status $status"
		tail -20 "$work/desktop.log" | sed 's/^/# /'
		failed=1
	fi
}

# Waits up to 10 s for a line matching PATTERN in FILE.
wait_for_line() {
	i=0
	while ! grep -q -- "$2" "$1" 2>/dev/null && [ $i -lt 100 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	grep -q -- "$2" "$1" 2>/dev/null
}

# capture NAME: the screen as $out/NAME.ppm.
capture() {
	"$drive" capture "$out/$1.ppm" >/dev/null
}

# changed_in NAME BASE X Y W H: "inside N outside M" against BASE.ppm.
changed_in() {
	python3 "$ppm_check" changed "$out/$1.ppm" "$2" "$3" "$4" "$5" "$6"
}

# A private session bus for mako and notify-send, and only for them.
if have dbus-daemon; then
	dbus-daemon --session --fork --address="unix:path=$work/bus" --print-pid=1 \
		>"$work/bus.pid" 2>/dev/null
	bus_pid=$(cat "$work/bus.pid" 2>/dev/null)
fi
bus="unix:path=$work/bus"

# ---- the panel, the notification daemon and the idle daemon in their roles ----
cat >"$work/mako.conf" <<EOF
font=monospace 12
background-color=#ffcc00
text-color=#000000
border-size=0
default-timeout=0
EOF
{
	echo "[launcher]"
	echo "panel=$panel"
	have mako && echo "notifications=mako -c $work/mako.conf"
	have swayidle && echo "idle=swayidle -w timeout 1 'touch $work/idle-fired'"
	printf '\n[panel]\nlauncher=Touch:true\nlauncher=Term:true\n'
} >"$work/desktop-launchers.ini"
GARNET_PANEL_TIME=12:34 DBUS_SESSION_BUS_ADDRESS=$bus start_desktop

# garnet-panel draws its bar: its buttons as the panel test's reference screenshot shows them
# (tests/reference/panel.png, the same [panel] launchers; the window list differs there).
wait_for_line "$work/desktop.out" "garnet-panel: the bar is shown"
capture garnet_panel
if python3 "$ppm_check" matches "$out/garnet_panel.ppm" "$reference" 0 0 212 28 >"$work/check" &&
	[ "$(python3 "$ppm_check" colour "$out/garnet_panel.ppm" 2e3440 0 40 1024 728)" -eq 0 ]; then
	ok garnet_panel_shows_its_bar
else
	not_ok garnet_panel_shows_its_bar "$(cat "$work/check") (or more than the bar changed)"
fi

# swayidle, the idle daemon, hears a 1 s timeout (shorter than ordinary clients may ask) and
# runs its command.
if have swayidle; then
	if wait_for_file "$work/idle-fired" || [ -e "$work/idle-fired" ]; then
		ok swayidle_timeout_fires
	else
		not_ok swayidle_timeout_fires "no file touched within 10 s"
	fi
else
	ok swayidle_timeout_fires "SKIP swayidle not installed"
fi

# mako, the notification daemon: a notify-send shows a yellow box at the top right.
if have mako && have notify-send && [ -n "$bus_pid" ]; then
	sleep 0.5
	capture before_notification
	DBUS_SESSION_BUS_ADDRESS=$bus timeout 10 notify-send "garnet" "a notification" \
		>"$work/client.log" 2>&1
	sleep 1
	capture mako_notification
	set -- $(changed_in mako_notification "$out/before_notification.ppm" 624 0 400 200)
	yellow=$((1024 * 200 - $(python3 "$ppm_check" colour "$out/mako_notification.ppm" ffcc00 \
		0 0 1024 200)))
	if [ "${2:-0}" -ge 5000 ] && [ "${4:-1}" -eq 0 ] && [ "$yellow" -ge 5000 ]; then
		ok mako_shows_a_notify_send
	else
		not_ok mako_shows_a_notify_send "changed ${2:-?} at the top right, ${4:-?} elsewhere, $yellow yellow"
	fi
else
	ok mako_shows_a_notify_send "SKIP mako, notify-send or dbus-daemon not installed"
fi

# swaybg, anyone's wallpaper (the background layer): red wherever nothing else is.
if have swaybg; then
	launch swaybg -c '#ff0000'
	sleep 1.5
	capture swaybg
	finish
	px=$(python3 "$ppm_check" colour "$out/swaybg.ppm" ff0000 0 250 1024 518)
	if [ "$px" -eq 0 ]; then
		ok swaybg_draws_the_wallpaper
	else
		not_ok swaybg_draws_the_wallpaper "$px pixels below the bar are not red"
	fi
else
	ok swaybg_draws_the_wallpaper "SKIP swaybg not installed"
fi

# waybar, anyone's bar (the top layer), at the bottom edge with one module.
if have waybar; then
	cat >"$work/waybar.json" <<EOF
{ "layer": "top", "position": "bottom", "height": 30, "modules-left": ["clock"],
  "clock": { "format": "garnet" } }
EOF
	cat >"$work/waybar.css" <<EOF
* { font-family: monospace; font-size: 14px; }
window#waybar { background: #00ff00; color: #000000; }
EOF
	capture before_waybar
	launch waybar -c "$work/waybar.json" -s "$work/waybar.css"
	i=0
	while :; do
		sleep 0.5
		capture waybar
		green=$((1024 * 30 - $(python3 "$ppm_check" colour "$out/waybar.ppm" 00ff00 \
			0 738 1024 30)))
		i=$((i + 1))
		[ "$green" -ge 20000 ] || [ $i -ge 20 ] && break
	done
	set -- $(changed_in waybar "$out/before_waybar.ppm" 0 738 1024 30)
	finish
	if [ "$green" -ge 20000 ] && [ "${4:-1}" -eq 0 ]; then
		ok waybar_shows_its_bar
	else
		not_ok waybar_shows_its_bar "$green green pixels in the bottom 30 rows, ${4:-?} changed elsewhere"
	fi
else
	ok waybar_shows_its_bar "SKIP waybar not installed"
fi

# fuzzel in the overlay layer from an unknown client: refused, so nothing is shown. (In its
# default top layer anyone's fuzzel shows, without the keyboard held exclusively.)
if have fuzzel; then
	capture before_fuzzel
	launch fuzzel --layer=overlay
	sleep 2
	capture fuzzel_unknown
	set -- $(changed_in fuzzel_unknown "$out/before_fuzzel.ppm" 0 0 1024 768)
	finish
	if [ "${2:-1}" -eq 0 ] && grep -q "deny: .*garnet.layer overlay" "$work/desktop.log"; then
		ok fuzzel_overlay_from_an_unknown_client_is_refused
	else
		not_ok fuzzel_overlay_from_an_unknown_client_is_refused "${2:-?} pixels changed"
	fi
else
	ok fuzzel_overlay_from_an_unknown_client_is_refused "SKIP fuzzel not installed"
fi
stop_desktop

# ---- fuzzel as the launcher: its overlay shows in the middle ----
if have fuzzel; then
	printf '[launcher]\nlauncher=fuzzel --layer=overlay\n' >"$work/desktop-launchers.ini"
	start_desktop
	i=0
	while :; do
		sleep 0.5
		capture fuzzel
		px=$(python3 "$ppm_check" colour "$out/fuzzel.ppm" 2e3440 312 284 400 200)
		i=$((i + 1))
		[ "$px" -ge 20000 ] || [ $i -ge 20 ] && break
	done
	if [ "$px" -ge 20000 ]; then
		ok fuzzel_launcher_shows_its_menu
	else
		not_ok fuzzel_launcher_shows_its_menu "changed $px pixels in the middle"
		tail -5 "$work/desktop.log" | sed 's/^/# /'
	fi
	stop_desktop
else
	ok fuzzel_launcher_shows_its_menu "SKIP fuzzel not installed"
fi

# ---- arranging the outputs: kanshi and wlr-randr in the output-config role ----
# mode WIDTH HEIGHT: the first output's mode as an ordinary client (wayland-info) sees it.
mode_is() {
	timeout 10 wayland-info 2>/dev/null | grep -A12 "interface: 'wl_output'" |
		grep -q "width: $1 px, height: $2 px"
}
if have kanshi && have wayland-info; then
	cat >"$work/kanshi.conf" <<EOF
profile {
	output HEADLESS-1 mode 800x600 position 0,0
}
EOF
	printf '[launcher]\noutput-config=kanshi -c %s\n' "$work/kanshi.conf" \
		>"$work/desktop-launchers.ini"
	start_desktop
	wait_for_line "$work/desktop.log" "HEADLESS-1: now"
	capture kanshi
	if mode_is 800 600 && [ "$(python3 "$ppm_check" size "$out/kanshi.ppm")" = 800x600 ]; then
		ok kanshi_profile_changes_the_mode
	else
		not_ok kanshi_profile_changes_the_mode "$(grep 'HEADLESS-1' "$work/desktop.log" | tail -2)"
	fi
	# wlr-randr from an unknown client: no manager, and the mode stays.
	if have wlr-randr; then
		timeout 10 wlr-randr --output HEADLESS-1 --mode 1024x768 >"$work/client.log" 2>&1
		status=$?
		if [ $status -ne 0 ] && mode_is 800 600 && [ "$(grep -c 'HEADLESS-1: now' "$work/desktop.log")" -eq 1 ]; then
			ok wlr_randr_from_an_unknown_client_changes_nothing
		else
			not_ok wlr_randr_from_an_unknown_client_changes_nothing "status $status"
		fi
	else
		ok wlr_randr_from_an_unknown_client_changes_nothing "SKIP wlr-randr not installed"
	fi
	stop_desktop
else
	ok kanshi_profile_changes_the_mode "SKIP kanshi or wayland-info not installed"
	ok wlr_randr_from_an_unknown_client_changes_nothing "SKIP kanshi or wayland-info not installed"
fi

if have wlr-randr && have wayland-info; then
	printf '[launcher]\noutput-config=wlr-randr --output HEADLESS-1 --mode 1280x720\n' \
		>"$work/desktop-launchers.ini"
	start_desktop
	wait_for_line "$work/desktop.log" "HEADLESS-1: now"
	if mode_is 1280 720; then
		ok wlr_randr_output_config_changes_the_mode
	else
		not_ok wlr_randr_output_config_changes_the_mode "$(grep 'HEADLESS-1' "$work/desktop.log" | tail -2)"
	fi
	stop_desktop
else
	ok wlr_randr_output_config_changes_the_mode "SKIP wlr-randr or wayland-info not installed"
fi

[ -n "$bus_pid" ] && kill "$bus_pid" 2>/dev/null
