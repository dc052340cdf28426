#!/bin/sh
# SPDX-License-Identifier: MIT
# Changing the mode of garnet.ko's connector at runtime through zwlr_output_manager_v1: the
# output-config client (garnet-rogue outman modes, launched by garnet as that role under the
# shipped policy) sets another of the connector's modes, and the display (read back through
# garnet.ko's debugfs) takes it; then the first mode again; then a custom mode the connector
# does not offer gets failed and the display keeps its mode.
# usage: mode-guest.sh BUILD_DIR SOURCE_DIR   (TAP output)
set -u
build=$1
src=$2
R=$GARNET_VM_RESULTS
garnet=$build/compositor/garnet
rogue=$build/clients/garnet-rogue
out=$R/outman.txt

. "$(dirname "$0")/../../tools/guest-desktop.sh"
echo "1..5"
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
display() { sed -n "s/^$1 //p" /sys/kernel/debug/dri/0/garnet_display; }
# shows SIZE: the display scans out at SIZE, and garnet's frames reach it (a commit after).
shows() {
	guest_wait_for 20 sh -c "[ \"\$(sed -n 's/^mode //p' /sys/kernel/debug/dri/0/garnet_display)\" = '$1' ]"
}

cat >"$R/garnet.ini" <<INI
[security]
policy=$src/data/wmac.policy
launcher-restarts=0

[launcher]
output-config=$rogue outman $out modes
INI
guest_desktop_start "$R" >>"$R/guest.log" 2>&1 || { echo "Bail out! no desktop services"; exit 1; }
first=$(display mode)
echo "# the display before garnet: $first"
guest_start_on_tty1 "exec '$garnet' --backend=drm --config='$R/garnet.ini' --debug \
	--log='$R/garnet.log' >'$R/garnet.out' 2>&1"
guest_wait_for 60 grep -qs "^to " "$out" || { echo "Bail out! the output-config client did not start"; cat "$R/garnet.out"; exit 1; }
guest_wait_for 30 grep -qs "^mode " "$out"
sed 's/^/# client: /' "$out"
start=$(sed -n 's/^head [^ ]* \([0-9]*x[0-9]*\) .*/\1/p' "$out" | head -n 1)
to=$(sed -n 's/^to //p' "$out" | head -n 1)
grep -q "^mode succeeded" "$out" && shows "$to"
result $? "another_mode_of_the_connector_is_what_the_display_shows"
# garnet took the new size for its output (the scanout has it: a modeset was committed).
sleep 1
[ "$(display modesets)" -ge 1 ] && grep -q "now $to " "$R/garnet.log"
result $? "garnet_repaints_the_output_at_the_new_size"

touch "$out.1"
guest_wait_for 30 sh -c "[ \$(grep -c '^mode ' '$out') -ge 2 ]"
sed -n '/^to /,$p' "$out" | tail -n +4 | sed 's/^/# client: /'
[ "$(grep '^mode ' "$out" | sed -n 2p)" = "mode succeeded" ] && shows "$start"
result $? "the_first_mode_again"

modesets=$(display modesets)
touch "$out.2"
guest_wait_for 30 grep -qs "^odd-custom-mode " "$out"
sleep 1
grep "^odd-custom-mode" "$out" | sed 's/^/# client: /'
grep -q "^odd-custom-mode failed" "$out" && [ "$(display mode)" = "$start" ] &&
	[ "$(display modesets)" = "$modesets" ]
result $? "a_mode_the_connector_does_not_offer_fails_and_changes_nothing"

kill -0 "$(pidof garnet)" && ! grep -qi "cannot show a frame" "$R/garnet.log"
result $? "garnet_shows_frames_throughout"
kill -TERM "$(pidof garnet)"
guest_wait_for 30 sh -c '! pidof garnet >/dev/null'
sed 's/^/# garnet: /' "$R/garnet.out" | tail -n 5
exit $failed
