#!/bin/sh
# SPDX-License-Identifier: MIT
# xdg-activation tokens as a way to steal the keyboard: a token used twice, one kept until it
# expired, one made by a client without the keyboard, one whose client is gone: none moves the
# focus. A flood of 300000 tokens leaves garnet's memory where it was. A new window of another
# client maps without the keyboard while the user works elsewhere. The controls: a token the
# focused client made after a click activates another window, and a program garnet launched
# activates its window with the token garnet gave it.
# The "user" is a trusted client (launched as the panel) driving garnet_test.
# usage: activation-test.sh GARNET ROGUE POLICY   (TAP output)
set -u
garnet=$1
rogue=$2
policy=$3
. "$(dirname "$0")/lib.sh"
echo "1..9"

# session NAME [COMBO]: garnet.ini with the driver (pressing COMBO), garnet started; more
# sections come from stdin.
session() {
	{
		printf '[security]\npolicy=%s\nlauncher-restarts=0\n' "$policy"
		cat
		printf '\n[launcher]\npanel=%s drive %s %s %s\n' "$rogue" "$work/go-$1" \
			"$work/done-$1" "${2:-}"
	} >"$work/garnet.ini"
	start_garnet --test-mode
}
stop() {
	kill "$@" 2>/dev/null
	wait "$@" 2>/dev/null
	kill "$pid" && wait "$pid"
	pid=
}
rss() { awk '/^VmRSS/ {print $2}' "/proc/$pid/status"; }

# 1. Replayed, unfocused and orphaned tokens, after the one good use.
session replay </dev/null
"$rogue" activation "$work/replay.txt" replay &
rogue_pid=$!
wait_for "$work/replay.txt" "^L mapped" || echo "# L never mapped"
touch "$work/go-replay"
wait_for "$work/replay.txt" "token-of-gone-client" 20 || echo "# the rogue did not finish"
stop "$rogue_pid"
sed 's/^/# /' "$work/replay.txt" | grep -v " key "
grep -q "^L pressed" "$work/replay.txt" && grep -q "^A focus valid-token yes" "$work/replay.txt"
result $? "token_of_the_focused_client_after_a_click_activates_another_window"
grep -q "^B focus used-token no" "$work/replay.txt"
result $? "token_used_twice_does_not_activate"
grep -q "^B focus token-without-focus no" "$work/replay.txt"
result $? "token_made_without_the_keyboard_does_not_activate"
grep -q "^B focus token-of-gone-client no" "$work/replay.txt"
result $? "token_of_a_disconnected_client_does_not_activate"

# 2. A token kept past its 10 s.
session expire </dev/null
"$rogue" activation "$work/expire.txt" expire &
rogue_pid=$!
wait_for "$work/expire.txt" "^L mapped" || echo "# L never mapped"
touch "$work/go-expire"
wait_for "$work/expire.txt" "expired-token" 25 || echo "# the rogue did not finish"
stop "$rogue_pid"
sed 's/^/# /' "$work/expire.txt"
grep -q "^L pressed" "$work/expire.txt" && grep -q "^A focus expired-token no" "$work/expire.txt"
result $? "expired_token_does_not_activate"

# 3. 300000 tokens from the focused client, with the request limit off. (Under AddressSanitizer
# freed memory waits in its quarantine: kept small, so RSS still shows what garnet keeps.)
saved_asan=${ASAN_OPTIONS-}
[ -z "$saved_asan" ] || export ASAN_OPTIONS="$saved_asan:quarantine_size_mb=1"
session flood <<INI
max-requests-per-second=0
INI
[ -z "$saved_asan" ] || export ASAN_OPTIONS="$saved_asan"
"$rogue" token-flood "$work/flood.txt" 300000 &
rogue_pid=$!
wait_for "$work/flood.txt" "^rogue mapped" || echo "# the flooder never mapped"
touch "$work/go-flood"
wait_for "$work/flood.txt" "^rogue pressed" 10 || echo "# the flooder got no click"
before=$(rss)
wait_for "$work/flood.txt" "^rogue flooded\|^rogue cut-off" 50 || echo "# the flood did not end"
after=$(rss)
stop "$rogue_pid"
echo "# garnet RSS ${before} kB before, ${after} kB after 300000 tokens"
grep -q "^rogue flooded 300000" "$work/flood.txt" && [ $((after - before)) -lt 4096 ]
result $? "token_flood_leaves_garnet_rss_bounded"

# 4. A program garnet launches on a binding, while the user works in another window.
session launch print <<INI

[shell]
binding=Print launch screenshooter
INI
kill "$pid" && wait "$pid"
printf 'screenshooter=%s launched %s\n' "$rogue" "$work/launched.txt" >>"$work/garnet.ini"
start_garnet --test-mode
open_window victim_pid window "$work/victim.txt" 1024 768 "^keyboard-enter"
touch "$work/go-launch"
wait_for "$work/launched.txt" "focus launch-token\|focus at-map yes" 15 ||
	echo "# the launched program did not finish"
stop "$victim_pid"
sed 's/^/# /' "$work/launched.txt"
grep -q "^launched focus at-map no" "$work/launched.txt" && grep -q "^key 30 1" "$work/victim.txt"
result $? "new_window_of_another_client_maps_unfocused_while_the_user_works"
grep -q "^launched token given" "$work/launched.txt" &&
	grep -q "^launched focus launch-token yes" "$work/launched.txt"
result $? "launched_program_activates_with_garnets_token"
grep -q "demands attention" "$work/log"
result $? "unfocused_new_window_is_logged_as_demanding_attention"
