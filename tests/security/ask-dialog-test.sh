#!/bin/sh
# SPDX-License-Identifier: MIT
# The policy says "ask" for a program's screenshots: garnet's own dialog asks the user, with the
# program's verified identity, and libwmac gets the answer. While the dialog is up the focused
# window gets none of the user's clicks, keys or touches; "no" fails the capture; "until
# logout" lets the same program capture again without asking.
# usage: ask-dialog-test.sh GARNET ROGUE POLICY   (TAP output)
set -u
garnet=$1
rogue=$2
policy=$3
. "$(dirname "$0")/lib.sh"
echo "1..7"
rogue_exe=$(readlink -f "$rogue")

# The shipped policy, plus one line a site could add: this program may bind screencopy (so the
# policy's "ask screenshot" applies to it).
cp "$policy" "$work/wmac.policy"
echo "allow privileged-global:zwlr_screencopy_manager_v1 exe=$rogue_exe" >>"$work/wmac.policy"
chmod 0644 "$work/wmac.policy"

# run_asked ANSWER: garnet with a window, the rogue capturing, the user pressing ANSWER once
# the dialog is up (the panel plays the user through garnet_test, as in the keylogger test).
run_asked() {
	rm -f "$work/go" "$work/done" "$work/victim.txt"
	cat >"$work/garnet.ini" <<INI
[security]
policy=$work/wmac.policy
launcher-restarts=0

[launcher]
panel=$rogue drive $work/go $work/done keys:$1
INI
	start_garnet --test-mode
	open_window victim_pid window "$work/victim.txt" 1024 768 "^keyboard-enter"
	"$rogue" screencopy >"$work/asked.txt" &
	asked_pid=$!
	wait_for "$work/log" "consent: asking the user" || echo "# garnet did not ask"
	victim_lines=$(wc -l <"$work/victim.txt")
	sleep 1 # the dialog takes answers after half a second
	touch "$work/go"
	wait "$asked_pid"
	asked_status=$?
	sed 's/^/# /' "$work/asked.txt"
}

stop_garnet() {
	kill "$victim_pid" 2>/dev/null
	wait "$victim_pid" 2>/dev/null
	kill "$pid" 2>/dev/null
	wait "$pid"
	pid=
}

run_asked y
[ $asked_status -eq 1 ] && grep -q "got the pixels" "$work/asked.txt"
result $? "yes_gives_the_asking_program_its_picture"
grep -q "ask: pid [0-9]* uid [0-9]* exe $rogue_exe screenshot HEADLESS-1" "$work/log" &&
	grep -q "the user allowed HEADLESS-1 for pid [0-9]* uid [0-9]* exe $rogue_exe" "$work/log"
result $? "the_question_and_answer_are_logged_with_the_verified_identity"
# The drive clicked, typed, scrolled and touched in the window's middle while the dialog was
# up: none of it reached the window.
tail -n +"$((victim_lines + 1))" "$work/victim.txt" >"$work/during.txt"
! grep -Eq "^(key |button|axis|touch-down)" "$work/during.txt"
result $? "the_focused_window_gets_no_input_while_the_dialog_is_up"
grep -q "^keyboard-enter" "$work/during.txt"
result $? "the_window_gets_the_keyboard_back_afterwards"
stop_garnet

run_asked n
[ $asked_status -eq 0 ] && grep -q "the capture failed" "$work/asked.txt"
result $? "no_fails_the_capture"
stop_garnet

run_asked s
[ $asked_status -eq 1 ] && grep -q "got the pixels" "$work/asked.txt"
result $? "until_logout_gives_the_picture"
asks=$(grep -c "consent: asking the user" "$work/log")
"$rogue" screencopy >"$work/again.txt"
status=$?
sed 's/^/# /' "$work/again.txt"
[ $status -eq 1 ] && [ "$(grep -c "consent: asking the user" "$work/log")" -eq "$asks" ]
result $? "until_logout_the_same_program_captures_again_without_asking"
stop_garnet
