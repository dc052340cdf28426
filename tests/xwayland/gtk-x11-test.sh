#!/bin/sh
# SPDX-License-Identifier: MIT
# A real GTK application on X11 (gtk3-widget-factory with GDK_BACKEND=x11) in a domain of its
# own: its window maps, a combo box's menu opens where the combo is and takes the click that
# chooses an item, the menu bar's Help menu opens under "Help", and its About item opens a
# dialog that garnet shows as a transient of the main window (the taskbar's parent link).
# The open menu and the About dialog are compared with tests/reference/gtk-x11-*.png.
# usage: gtk-x11-test.sh GARNET GARNET_X11 GARNET_DRIVE POLICY ROGUE PNG_EQUAL REFERENCE_DIR
#        (TAP; REGENERATE=1 writes the references instead of comparing)
set -u
garnet=$1
x11=$2
drive=$3
policy=$4
rogue=$5
png_equal=$6
references=$7
if [ ! -x /usr/bin/Xwayland ] || ! command -v gtk3-widget-factory >/dev/null ||
	! command -v xdotool >/dev/null; then
	echo "1..0 # SKIP Xwayland, gtk3-widget-factory or xdotool is not installed (xwayland, gtk-3-examples, xdotool)"
	exit 0
fi
. "$(dirname "$0")/../security/lib.sh"
. "$(dirname "$0")/lib.sh"
echo "1..7"

cat >"$work/garnet.ini" <<INI
[security]
policy=$policy

[launcher]
panel=$rogue toplevels $work/panel.txt
INI
start_garnet --test-mode --debug

# or_at LEFT TOP RIGHT BOTTOM: an override-redirect window mapped with its corner in the box
or_at() {
	grep -o "override-redirect window 0x[0-9a-f]* at [0-9-]*,[0-9-]* mapped" "$work/log" |
		sed 's/.* at \([0-9-]*\),\([0-9-]*\) mapped/\1 \2/' |
		awk -v l="$1" -v t="$2" -v r="$3" -v b="$4" \
			'$1 >= l && $1 <= r && $2 >= t && $2 <= b { found = 1 } END { exit !found }'
}

x_env "$work/gtk.env" || echo "# $(cat "$work/gtk.env.err")"
GDK_BACKEND=x11 in_env "$work/gtk.env" gtk3-widget-factory >"$work/gtk.log" 2>&1 &
wait_for "$work/log" "window 0x[0-9a-f]* 'gtk3-widget-factory' (Gtk3-widget-factory) mapped" 30
result $? "gtk3_widget_factory_maps"
sleep 2

# Page 1's "Andrea" combo box, at (463, 266) on the 1024x768 test output: its menu is an
# override-redirect window over the combo; choosing "Otto" (the second item) closes it and the
# combo then shows Otto, which is drawn differently from Andrea.
"$drive" capture "$work/before.ppm" >/dev/null
"$drive" motion 463 266 && "$drive" click
sleep 1.5
or_at 370 230 420 280
result $? "a_combo_menu_opens_over_its_combo"
"$drive" capture "$work/menu.ppm" >/dev/null
matches_reference gtk-x11-combo-menu "$work/menu.ppm" 392 251 144 124
result $? "the_open_menu_matches_the_reference_screenshot"
"$drive" motion 463 300 && "$drive" click
sleep 1.5
"$drive" capture "$work/after.ppm" >/dev/null
changed=0
for x in 410 415 420 425 430; do
	[ "$(pixel "$work/before.ppm" $x 266)" != "$(pixel "$work/after.ppm" $x 266)" ] && changed=1
done
[ "$(pixel "$work/after.ppm" 463 330)" = "$(pixel "$work/before.ppm" 463 330)" ] && [ $changed -eq 1 ]
result $? "the_menu_takes_the_click_that_chooses_an_item"

# Page 2's menu bar: Help opens under "Help", and About opens a dialog whose parent is the
# main window.
"$drive" motion 682 40 && "$drive" click
sleep 1
"$drive" motion 451 93 && "$drive" click
sleep 1.5
or_at 420 95 460 125
result $? "the_help_menu_opens_under_its_title"
"$drive" motion 479 118 && "$drive" click
wait_for "$work/log" "window 0x[0-9a-f]* 'About GTK Widget Factory' .* mapped" 10 &&
	wait_for "$work/panel.txt" "^parent child=About GTK Widget Factory parent=gtk3-widget-factory" 5
result $? "about_opens_a_dialog_transient_for_the_main_window"
grep "About\|^parent" "$work/panel.txt" | sed 's/^/# /'
# The dialog as garnet shows it, where the shell put it.
sleep 1
"$drive" capture "$work/about.ppm" >/dev/null
about=$(x_geometry "$work/gtk.env" --name '^About GTK Widget Factory$') || about="0 0 1 1"
echo "# the About dialog at $about"
matches_reference gtk-x11-about "$work/about.ppm" $about
result $? "the_about_dialog_matches_the_reference_screenshot"
