#!/bin/sh
# SPDX-License-Identifier: MIT
# Direct scanout on garnet.ko's display: a fullscreen GPU client at the output's size is put on
# the primary plane as it is (no frame painted while it animates), garnet.ko's virtual output
# reads it in place (no byte copied), and the screen is the client's last frame exactly; a
# window above it, and the client going, bring composition back.
# usage: scanout-guest.sh BUILD_DIR   (TAP output)
set -u
build=$1
R=$GARNET_VM_RESULTS
garnet=$build/compositor/garnet
demo=$build/clients/garnet-gem-demo
reference=$build/tests/e2e/demo-reference

. "$(dirname "$0")/../../tools/guest-desktop.sh"
echo "1..7"
test_number=0
failed=0
result() { # result STATUS NAME
	test_number=$((test_number + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $test_number - $2"
	else
		echo "not ok $test_number - $2"
		failed=1
	fi
}
# display FIELD: a counter of garnet.ko's display.
display() { sed -n "s/^$1 //p" /sys/kernel/debug/dri/0/garnet_display; }
# count PATTERN: lines of garnet's log from line $mark on that match PATTERN.
count() { tail -n +"$mark" "$R/garnet.log" | grep -c -- "$1"; }

guest_desktop_start "$R" >>"$R/guest.log" 2>&1 || { echo "Bail out! no desktop services"; exit 1; }
guest_start_on_tty1 "exec '$garnet' --backend=drm --no-config --debug --log='$R/garnet.log' \
	>'$R/garnet.out' 2>&1"
guest_wait_for 60 grep -qs "WAYLAND_DISPLAY=" "$R/garnet.out" || { echo "Bail out! garnet did not start"; exit 1; }
export WAYLAND_DISPLAY=$(sed -n 's/.*WAYLAND_DISPLAY=//p' "$R/garnet.out")
export XDG_RUNTIME_DIR=${XDG_RUNTIME_DIR:-/run/user/0}
size=$(sed -n 's/.*output: \([^:]*\): \([0-9]*x[0-9]*\) scale 1 .*/\2/p' "$R/garnet.log" | head -n 1)
echo "# output ${size:-unknown}"

mark=$(($(wc -l <"$R/garnet.log") + 1))
bytes=$(display bytes_copied) in_place=$(display in_place_commits)
"$demo" --size "$size" --fullscreen --frames 90 --done-file scanout-done >"$R/demo.out" 2>&1 &
demo_pid=$!
guest_wait_for 120 test -s "$XDG_RUNTIME_DIR/scanout-done" || echo "# the demo did not finish: $(cat "$R/demo.out")"
scanned=$(count "repaint (scanned out)")
painted=$(count "repaint (painted)")
echo "# while the demo animated: $scanned frames scanned out, $painted painted"
grep -q "direct scanout of a client's buffer" "$R/garnet.log" && [ "$scanned" -ge 60 ] &&
	[ "$painted" -le 2 ]
result $? "a_fullscreen_gpu_client_is_scanned_out_with_no_frame_painted"

# Nor does garnet.ko copy it: its virtual output reads the client's buffer where it is.
bytes=$(($(display bytes_copied) - bytes)) in_place=$(($(display in_place_commits) - in_place))
echo "# garnet.ko's display: $in_place commits shown in place, $bytes bytes copied"
[ "$bytes" -eq 0 ] && [ "$in_place" -ge "$scanned" ]
result $? "the_scanned_out_frames_cost_the_display_no_copy"

# The screen is the demo's last frame (89) exactly, as the demo's scene computes it on the
# CPU, but for garnet's pointer on the cursor plane (at most 64 x 64): read back from
# garnet.ko's scanout, which for the virtual output is its screendump.
cat /sys/kernel/debug/dri/0/garnet_scanout >"$R/scanout.raw" 2>/dev/null
"$reference" 89 "$size" "$R/reference.raw"
python3 - "$R/scanout.raw" "$R/reference.raw" "$size" <<'PY'
import sys
screen, reference = (open(path, 'rb').read() for path in sys.argv[1:3])
width, height = map(int, sys.argv[3].split('x'))
if len(screen) != len(reference) or len(screen) != width * height * 4:
    print(f'# the screen has {len(screen)} bytes, the reference {len(reference)}')
    sys.exit(1)
differ = [(i // 4 % width, i // 4 // width) for i in range(0, len(screen), 4)
          if screen[i:i + 3] != reference[i:i + 3]]
if differ:
    xs, ys = [x for x, _ in differ], [y for _, y in differ]
    box = (min(xs), min(ys), max(xs) + 1 - min(xs), max(ys) + 1 - min(ys))
    print(f'# {len(differ)} pixels differ from the reference, within {box[2]}x{box[3]} '
          f'at {box[0]},{box[1]} (the pointer)')
    sys.exit(0 if box[2] <= 64 and box[3] <= 64 else 1)
print('# the screen equals the reference')
PY
result $? "the_display_shows_the_clients_pixels_exactly"

# A smaller fullscreen window above it (garnet stacks the newer one on top, the first one shows
# around it): garnet paints again.
mark=$(($(wc -l <"$R/garnet.log") + 1))
"$demo" --size 320x240 --fullscreen >"$R/above.out" 2>&1 &
above_pid=$!
guest_wait_for 60 sh -c "tail -n +$mark '$R/garnet.log' | grep -q 'composited again'" && sleep 1
[ "$(count "composited again")" -ge 1 ] && [ "$(count "repaint (painted)")" -ge 1 ]
result $? "a_window_above_brings_composition_back"
kill "$above_pid" 2>/dev/null
wait "$above_pid" 2>/dev/null

# Alone again, then the client goes while its buffer is on screen: garnet stays up and paints.
guest_wait_for 30 sh -c "tail -n +$mark '$R/garnet.log' | grep -q 'direct scanout of a client'"
result $? "alone_again_it_is_scanned_out_again"
mark=$(($(wc -l <"$R/garnet.log") + 1))
kill -KILL "$demo_pid"
wait "$demo_pid" 2>/dev/null
sleep 1
kill -0 "$(pidof garnet)" && [ "$(count "composited again")" -ge 1 ]
result $? "the_client_killed_while_scanned_out_leaves_garnet_painting"
# A window animating under composition: garnet tells the display what changed
# (FB_DAMAGE_CLIPS), about the window, not the whole screen, per frame (what bochs-display
# would copy; the virtual output copies nothing).
bytes=$(display damage_bytes) commits=$(display commits)
rm -f "$XDG_RUNTIME_DIR/window-done"
"$demo" --size 256x192 --frames 40 --done-file window-done >"$R/window.out" 2>&1 &
window_pid=$!
guest_wait_for 120 test -s "$XDG_RUNTIME_DIR/window-done" || echo "# the window did not finish: $(cat "$R/window.out")"
bytes=$(($(display damage_bytes) - bytes)) commits=$(($(display commits) - commits))
echo "# $commits display commits, $bytes bytes of the screen changed"
[ "$commits" -ge 30 ] && [ "$bytes" -le $((commits * 256 * 192 * 4 * 2)) ]
result $? "a_window_animating_tells_the_display_only_its_damage"
kill "$window_pid" 2>/dev/null
wait "$window_pid" 2>/dev/null

kill -TERM "$(pidof garnet)"
guest_wait_for 30 sh -c '! pidof garnet >/dev/null'
sed 's/^/# garnet: /' "$R/garnet.out" | tail -n 5
exit $failed
