#!/bin/sh
# SPDX-License-Identifier: MIT
# Real X clients as the user sees them: xterm with what was typed into it, xclock and xeyes,
# each in a domain of its own, compared with reference screenshots; and the pointer over an X
# window that defines no cursor of its own is the window manager's arrow, its tip at the
# pointer, not X's default "X" centred on it.
# usage: x-screenshots-test.sh GARNET GARNET_X11 GARNET_DRIVE POLICY ROGUE PNG_EQUAL REFERENCE_DIR
#        (TAP; REGENERATE=1 writes the references instead of comparing)
set -u
garnet=$1
x11=$2
drive=$3
policy=$4
rogue=$5
png_equal=$6
references=$7
for tool in Xwayland xterm xclock xeyes xdotool; do
	if ! command -v "$tool" >/dev/null; then
		echo "1..0 # SKIP $tool is not installed (xwayland, xterm, x11-apps, xdotool)"
		exit 0
	fi
done
. "$(dirname "$0")/../security/lib.sh"
. "$(dirname "$0")/lib.sh"
echo "1..5"

printf '[security]\npolicy=%s\n' "$policy" >"$work/garnet.ini"
start_garnet --test-mode --debug
# Where nothing is: garnet's own arrow there, and no X window under it.
away() { "$drive" motion 1010 750; }
away

# show ENV-NAME CLASS TITLE CMD...: runs CMD in a new domain; its window's geometry in $geo
show() {
	env_file=$work/$1.env
	class=$2
	title=$3
	shift 3
	# A window that never shows leaves a 1x1 crop that matches no reference.
	geo="0 0 1 1"
	x_env "$env_file" || return 1
	in_env "$env_file" "$@" >"$work/$class.log" 2>&1 &
	shown=$!
	if ! wait_for "$work/log" "window 0x[0-9a-f]* '$title' ($class) mapped" 15 ||
		! where=$(x_geometry "$env_file" --class "$class"); then
		echo "# $class did not show"
		return 1
	fi
	geo=$where
	echo "# $class at $geo"
	# Xwayland draws after it maps; the frame with the content follows.
	sleep 1.5
}

# xterm shows what is typed into it (echoed by the shell it runs) in its fixed font.
show xterm XTerm xterm xterm -title xterm -geometry 30x4 -fn fixed +bc -e sh -c 'read x; sleep 60'
"$drive" type "typed in garnet"
sleep 1
"$drive" capture "$work/xterm.ppm" >/dev/null
set -- $geo
matches_reference x-xterm-typed "$work/xterm.ppm" "$@"
result $? "xterm_with_typed_text_matches_the_reference_screenshot"
kill "$shown" 2>/dev/null

# xclock, digital, showing a fixed text instead of the time.
show xclock XClock xclock xclock -digital -strftime 'garnet 12:34' -geometry 200x40
set -- $geo
clock_x=$1 clock_y=$2 clock_w=$3 clock_h=$4
"$drive" capture "$work/clock.ppm" >/dev/null
matches_reference x-xclock "$work/clock.ppm" "$@"
result $? "xclock_matches_the_reference_screenshot"

# The pointer over xclock, which sets no cursor: the root's cursor shows. What the capture
# gains is the cursor alone (xclock does not change), so where it lies against the pointer
# tells an arrow (its hot spot at its tip: all of it right of and below the pointer) from X's
# default "X" (its hot spot in its centre).
px=$((clock_x + clock_w / 2)) py=$((clock_y + clock_h / 2))
"$drive" motion "$px" "$py"
sleep 1
"$drive" capture "$work/clock-pointer.ppm" >/dev/null
box=$(python3 - "$work/clock.ppm" "$work/clock-pointer.ppm" "$px" "$py" <<'PY'
import sys
def load(path):
    data = open(path, "rb").read()
    end = data.index(b"\n") + 1
    return int(data[:end].split()[1]), data[end:]
width, a = load(sys.argv[1])
_, b = load(sys.argv[2])
px, py = int(sys.argv[3]), int(sys.argv[4])
# Within 40 pixels of the pointer: garnet's own arrow, where the pointer was, is gone too.
changed = [(x - px, y - py) for y in range(py - 40, py + 41) for x in range(px - 40, px + 41)
           if a[3 * (y * width + x):3 * (y * width + x) + 3] !=
              b[3 * (y * width + x):3 * (y * width + x) + 3]]
if changed:
    print(min(x for x, _ in changed), min(y for _, y in changed),
          max(x for x, _ in changed), max(y for _, y in changed))
PY
)
echo "# what the cursor added, relative to the pointer (left top right bottom): ${box:-nothing}"
set -- ${box:-99 99 -99 -99}
[ "$1" -ge -2 ] && [ "$2" -ge -2 ] && [ "$3" -ge 6 ] && [ "$4" -ge 10 ]
result $? "over_an_x_window_without_a_cursor_the_pointer_is_an_arrow_with_its_tip_at_the_pointer"
away
kill "$shown" 2>/dev/null

# xeyes (unshaped, so the window is all of its rectangle) looks at the pointer, which is inside
# it at a fixed place: the eyes' pupils and the arrow are in the picture.
show xeyes XEyes xeyes xeyes +shape -geometry 160x100
set -- $geo
"$drive" motion $(($1 + 120)) $(($2 + 80))
sleep 1.5
"$drive" capture "$work/xeyes.ppm" >/dev/null
matches_reference x-xeyes "$work/xeyes.ppm" "$@"
result $? "xeyes_looking_at_the_pointer_matches_the_reference_screenshot"
kill "$shown" 2>/dev/null

# The clients' deaths leave garnet serving.
garnet_serves_a_new_client
result $? "garnet_serves_after_the_x_clients_end"
