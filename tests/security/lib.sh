# SPDX-License-Identifier: MIT
# Shared by the security suite's scripts: a private runtime dir, TAP results, waiting, and a
# garnet started with a given garnet.ini. Sourced after `set -u`; expects $garnet.
#
# The script runs again in namespaces of its own, so that it needs no root and changes nothing
# on the host: a user namespace when it is not root (there the user is root, and the policy
# and garnet.ini it writes are root-owned, as libwmac and garnet require of system files), a
# mount namespace (bind mounts stay private) and a pid namespace (whatever a test started dies
# with it, /proc shows only its processes). A script that needs the host's view itself sets
# own_namespaces=no before sourcing this file and runs garnet as the system with $as_system.
if [ "$(id -u)" -eq 0 ]; then
	as_system=
else
	as_system="unshare --user --map-root-user --"
fi
if [ "${own_namespaces:-yes}" = yes ] && [ -z "${GARNET_SECURITY_NS:-}" ]; then
	export GARNET_SECURITY_NS=1
	user=
	[ "$(id -u)" -eq 0 ] || user="--user --map-root-user"
	# shellcheck disable=SC2086 # $user is two options or none
	exec unshare $user --mount --propagation private --pid --fork --mount-proc -- \
		sh "$0" "$@"
fi
unset GARNET_SECURITY_NS
# As the first process of its pid namespace the script gets no signal it has no handler for;
# meson's SIGTERM at a timeout must end it (and so everything it started) through cleanup.
trap 'exit 143' HUP INT TERM
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
# The policy as a file of the test's: the source tree may belong to someone who is not root
# here (another user's checkout, or root's seen from a user namespace).
if [ -n "${policy:-}" ]; then
	cp "$policy" "$work/system.policy" && chmod 0644 "$work/system.policy"
	policy=$work/system.policy
fi
export XDG_RUNTIME_DIR="$work/runtime" XDG_CONFIG_HOME="$work/config"
unset WAYLAND_DISPLAY WAYLAND_SOCKET
n=0
# A failed subtest first shows the last lines of each file in $failure_logs (garnet's log):
# a run elsewhere (CI) is often all there is to read.
result() {
	n=$((n + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $n $2"
		return
	fi
	for log in ${failure_logs:-}; do
		tail -n 20 "$log" 2>/dev/null | sed "s|^|# $(basename "$log"): |"
	done
	echo "not ok $n $2"
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
	# The rogue appends to its log: a line of an earlier window there would end the wait
	# before this one mapped.
	: >"$3"
	"$rogue" "$2" "$3" "$4" "$5" &
	eval "$1=\$!"
	wait_for "$3" "$6" || echo "# $3 never logged $6"
}
# start_garnet ARGS...: garnet with $work/garnet.ini, log in $work/log, on socket security-test
start_garnet() {
	# Emptied here, not by the redirection below: that happens in the background child,
	# maybe after wait_for has read the previous garnet's "WAYLAND_DISPLAY".
	: >"$work/out"
	$as_system "$garnet" --config "$work/garnet.ini" --socket security-test --log "$work/log" "$@" \
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
# max_rtt FILE: the longest round trip (ms) of a `garnet-rogue ping`, 99999 if none
max_rtt() {
	awk '/^rtt/ { if ($2 > m) m = $2; n++ } END { print n ? int(m / 1000) : 99999 }' "$1"
}
