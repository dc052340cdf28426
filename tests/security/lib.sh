# SPDX-License-Identifier: MIT
# Shared by the security suite's scripts: a private runtime dir, TAP results, waiting, and a
# garnet started with a given garnet.ini. Sourced after `set -u`; expects $garnet.
if [ "$(id -u)" -ne 0 ]; then
	# libwmac trusts only a root-owned system policy; a source tree owned by a user is not.
	echo "1..0 # SKIP the policy file must be owned by root"
	exit 0
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/garnet-security-XXXXXX")
pid=
cleanup() {
	status=0
	if [ -n "$pid" ] && kill "$pid" 2>/dev/null; then
		wait "$pid"
		status=$?
	fi
	# SIGTERM ends garnet with status 0; anything else (a sanitizer's report at exit, a
	# crash on the way out) fails the test.
	if [ $status -ne 0 ]; then
		echo "Bail out! garnet exited with status $status when stopped"
		tail -n 20 "$work/out" | sed 's/^/# /'
	fi
	[ -n "${KEEP:-}" ] || rm -rf "$work"
	[ $status -eq 0 ]
}
trap cleanup EXIT
mkdir -m 0700 "$work/runtime"
export XDG_RUNTIME_DIR="$work/runtime" XDG_CONFIG_HOME="$work/config"
unset WAYLAND_DISPLAY WAYLAND_SOCKET
n=0
result() {
	n=$((n + 1))
	if [ "$1" -eq 0 ]; then echo "ok $n $2"; else echo "not ok $n $2"; fi
}
wait_for() { # FILE PATTERN [SECONDS]: up to 5 s unless told
	i=0
	while [ $i -lt $((${3:-5} * 10)) ]; do
		grep -q -- "$2" "$1" 2>/dev/null && return 0
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}
# open_window VAR KIND LOG WIDTH HEIGHT PATTERN: a garnet-rogue KIND (window, text-field)
# logging to LOG, its pid in $VAR; waits until PATTERN is in LOG (or says it never came).
open_window() {
	"$rogue" "$2" "$3" "$4" "$5" &
	eval "$1=\$!"
	wait_for "$3" "$6" || echo "# $3 never logged $6"
}
# start_garnet ARGS...: garnet with $work/garnet.ini, log in $work/log, on socket security-test
start_garnet() {
	# Emptied here, not by the redirection below: that happens in the background child,
	# maybe after wait_for has read the previous garnet's "WAYLAND_DISPLAY".
	: >"$work/out"
	"$garnet" --config "$work/garnet.ini" --socket security-test --log "$work/log" "$@" \
		>"$work/out" 2>&1 &
	pid=$!
	wait_for "$work/out" "WAYLAND_DISPLAY" || { echo "Bail out! garnet did not start"; exit 1; }
	export WAYLAND_DISPLAY=security-test
}
# garnet_serves_a_new_client: garnet is alive and a client connecting now gets a round trip
# answered (the rogue's `ping`), which a process that merely exists would not.
garnet_serves_a_new_client() {
	kill -0 "$pid" && "$rogue" ping 1 >"$work/ping.txt" 2>&1 && grep -q "^rtt" "$work/ping.txt"
}
