#!/bin/sh
# SPDX-License-Identifier: MIT
# Buffers shown in place: garnet reads a client's memory at every repaint and holds the buffer
# while it is shown, so what one client commits costs garnet no copy. Attacked from outside: a
# 64 MiB pool on 16 windows and a 2 GiB sparse buffer must add less than 100 MiB to garnet
# and stall nobody; a pool truncated while shown is the client's protocol error; a buffer or
# pool destroyed while shown, surfaces destroyed right after their commit with their ids
# reused, and commits that never wait for a release leave garnet running and every buffer
# given back. Throughout, a victim window animates and its frames keep coming.
# usage: zerocopy-test.sh GARNET ROGUE POLICY   (TAP output)
set -u
garnet=$1
rogue=$2
policy=$3
. "$(dirname "$0")/lib.sh"
echo "1..13"

cat >"$work/garnet.ini" <<INI
[security]
policy=$policy
INI
start_garnet
status_kb() { awk -v k="$1:" '$1 == k { print $2 }' "/proc/$pid/status"; }
# frame_gaps FROM_MS TO_MS: the victim's frames in that window of time (CLOCK_REALTIME ms) and
# the longest time without one, as "COUNT MAX_GAP_MS".
frame_gaps() {
	awk -v from="$1" -v to="$2" '$1 == "frame" && $2 >= from && $2 <= to {
		if (last) { g = $2 - last; if (g > max) max = g }
		last = $2; n++ }
		END { printf "%d %d\n", n, max }' "$work/victim.txt"
}
now_ms() { date +%s%3N; }

"$rogue" frames "$work/victim.txt" 110 &
victim_pid=$!
wait_for "$work/victim.txt" "^frame" || echo "# the victim never animated"

# Positive control: one window shows the 64 MiB buffer.
"$rogue" shown-pool 1 1 >"$work/pool1.txt" 2>&1
sed 's/^/# shown-pool 1: /' "$work/pool1.txt"
grep -q "shown on 1 of 1 windows; still connected" "$work/pool1.txt"
result $? "a_64mib_buffer_is_shown_in_a_window"

before=$(status_kb VmRSS)
"$rogue" shown-pool 16 3 >"$work/pool16.txt" 2>&1 &
attacker=$!
wait_for "$work/pool16.txt" "^shown" 60
during=$(status_kb VmRSS)
wait "$attacker"
peak=$(status_kb VmHWM)
sed 's/^/# shown-pool 16: /' "$work/pool16.txt"
echo "# garnet VmRSS before $before kB, with 16 windows of the pool $during kB, peak $peak kB"
grep -q "shown on 16 of 16 windows; still connected" "$work/pool16.txt"
result $? "pool_on_16_windows_is_shown_on_all_of_them"
# The peak since garnet started: whatever the attack made garnet hold at any moment.
[ -n "$during" ] && [ $((during - before)) -lt 102400 ] && [ $((peak - before)) -lt 102400 ]
result $? "pool_on_16_windows_adds_less_than_100_mb_to_garnet"

# One commit of a 16384x32767 buffer (2 GiB less a row) of a sparse file.
before=$(status_kb VmRSS)
start=$(now_ms)
"$rogue" sparse 16384 32767 3 >"$work/sparse.txt" 2>&1 &
attacker=$!
wait_for "$work/sparse.txt" "buffer" 30
during=$(status_kb VmRSS)
wait "$attacker"
end=$(now_ms)
peak=$(status_kb VmHWM)
sed 's/^/# sparse: /' "$work/sparse.txt"
echo "# garnet VmRSS before $before kB, with the sparse buffer shown $during kB, peak $peak kB"
grep -q "buffer shown in .*; still connected" "$work/sparse.txt"
result $? "sparse_2gib_buffer_is_shown"
[ -n "$during" ] && [ $((during - before)) -lt 102400 ] && [ $((peak - before)) -lt 102400 ]
result $? "sparse_2gib_buffer_adds_less_than_100_mb_to_garnet"
set -- $(frame_gaps "$start" "$end")
echo "# victim: $1 frames in $((end - start)) ms, longest gap $2 ms"
[ "$1" -gt 10 ] && [ "$2" -lt 500 ]
result $? "victim_frames_keep_coming_during_the_sparse_commit"

# Lifetimes.
"$rogue" truncate-shown >"$work/truncate.txt" 2>&1
sed 's/^/# truncate-shown: /' "$work/truncate.txt"
grep -q "^shown" "$work/truncate.txt" && grep -q "protocol error" "$work/truncate.txt" &&
	kill -0 "$pid"
result $? "pool_truncated_while_shown_is_the_clients_protocol_error"

for what in buffer pool; do
	"$rogue" destroy-shown "$what" ffff00ff 1 >"$work/destroy-$what.txt" 2>&1
	sed "s/^/# destroy-shown $what: /" "$work/destroy-$what.txt"
	grep -q "destroyed the $what while shown" "$work/destroy-$what.txt" &&
		grep -q "still connected" "$work/destroy-$what.txt" && kill -0 "$pid"
	result $? "${what}_destroyed_while_shown_leaves_garnet_running"
done

"$rogue" reuse-ids 300 >"$work/reuse.txt" 2>&1
sed 's/^/# reuse-ids: /' "$work/reuse.txt"
grep -q "300 surfaces committed and destroyed; still connected" "$work/reuse.txt" &&
	kill -0 "$pid"
result $? "surfaces_destroyed_after_commit_with_ids_reused_leave_garnet_running"

"$rogue" release-flood 3 >"$work/flood.txt" 2>&1
sed 's/^/# release-flood: /' "$work/flood.txt"
grep -q " 0 buffers never given back; still connected" "$work/flood.txt" && kill -0 "$pid"
result $? "commits_without_waiting_get_every_replaced_buffer_released"

kill "$victim_pid" 2>/dev/null
wait "$victim_pid" 2>/dev/null
set -- $(frame_gaps 0 99999999999999)
echo "# victim: $1 frames in all, longest gap $2 ms"
[ "$1" -gt 50 ] && [ "$2" -lt 1000 ]
result $? "victim_kept_rendering_through_every_attack"

garnet_serves_a_new_client
result $? "garnet_serves_on"
