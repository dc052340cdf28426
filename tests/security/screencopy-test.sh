#!/bin/sh
# SPDX-License-Identifier: MIT
# Screenshots: only the trusted screenshooter gets pixels, and they are the screen's. An
# untrusted client neither sees nor binds zwlr_screencopy_manager_v1; a trusted client with
# another role (the lock screen) sees it but every capture of it fails. (The shipped policy
# asks the user about other programs' screenshots; ask-dialog-test.sh tests that. Here the
# policy's "ask" lines are left out, so nobody is asked and refusals are plain.)
# usage: screencopy-test.sh GARNET ROGUE POLICY SCREENSHOOTER DEMO PNG_EQUAL   (TAP output)
set -u
garnet=$1
rogue=$2
policy=$3
shooter=$4
demo=$5
png_equal=$6
. "$(dirname "$0")/lib.sh"
echo "1..7"
sed '/^ask /d' "$policy" >"$work/wmac.policy"
chmod 0644 "$work/wmac.policy"

cat >"$work/garnet.ini" <<INI
[security]
policy=$work/wmac.policy
launcher-restarts=0

[launcher]
screenshooter=$shooter --wait-for $work/go $work/shot.png
lock-screen=$rogue screencopy $work/lock-screen.txt
INI
start_garnet --autostart "$demo" --screenshot "$work/reference.png"

# The untrusted client: the global is not in its registry...
"$rogue" screencopy >"$work/public.txt"
status=$?
sed 's/^/# /' "$work/public.txt"
[ $status -eq 0 ] && grep -q "not visible" "$work/public.txt"
result $? "untrusted_client_does_not_see_screencopy"

# ...and a guessed name is a protocol error.
"$rogue" bind-hidden zwlr_screencopy_manager_v1 >"$work/bind.txt"
status=$?
sed 's/^/# /' "$work/bind.txt"
[ $status -eq 0 ] && grep -q "protocol error" "$work/bind.txt" && ! grep -q "^bound" "$work/bind.txt"
result $? "untrusted_bind_by_guessed_name_is_a_protocol_error"

# The lock screen may bind privileged globals, but not take screenshots: asked at capture time.
wait_for "$work/lock-screen.txt" "^status" && grep -q "capture failed" "$work/lock-screen.txt" &&
	grep -q "^status 0" "$work/lock-screen.txt"
result $? "capture_without_screenshot_permission_fails"

grep -q "deny: pid [0-9]* uid [0-9]* launcher lock-screen exe $(readlink -f "$rogue") screenshot HEADLESS-1" \
	"$work/log" && grep -q "screencopy: capture of HEADLESS-1 refused" "$work/log"
result $? "refused_capture_is_logged_with_identity"

# The trusted screenshooter's picture is the screen garnet shows (its own PNG of the output,
# taken once the window is up).
# (It writes the file after it disconnected: its exit is logged first.)
wait_for "$work/out" "screenshot of .* written" && touch "$work/go" &&
	wait_for "$work/log" "launcher screenshooter exited" && wait_for "$work/shot.png" "" &&
	sleep 0.3 && [ -s "$work/shot.png" ]
result $? "trusted_screenshooter_writes_png"

python3 "$png_equal" "$work/reference.png" "$work/shot.png"
result $? "screenshooter_png_matches_the_screen"

# garnet goes on serving after the capture: a client connecting now gets its round trips.
garnet_serves_a_new_client
result $? "garnet_serves_on"
