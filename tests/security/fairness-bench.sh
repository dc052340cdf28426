#!/bin/sh
# SPDX-License-Identifier: MIT
# The one-frame fairness bound, measured: an honest client's round trips (p50, p99, max) alone,
# then while another client commits 4096x4096 buffers with full damage as fast as it can, and
# garnet's memory (VmRSS, peak VmHWM) meanwhile. Figures, not a pass/fail test; it fails only
# when garnet dies or the honest client loses its connection.
# usage: fairness-bench.sh GARNET ROGUE POLICY [SECONDS]
set -u
garnet=$1
rogue=$2
policy=$3
seconds=${4:-10}
. "$(dirname "$0")/lib.sh"
echo "1..2"

cat >"$work/garnet.ini" <<INI
[security]
policy=$policy
INI
start_garnet
status_kb() { awk -v k="$1:" '$1 == k { print $2 }' "/proc/$pid/status"; }
percentiles() { # FILE LABEL
	sort -n -k2 "$1" | awk -v label="$2" '/^rtt/ { v[n++] = $2 }
		END { if (!n) { print "# " label ": no round trips"; exit 1 }
			printf "# %s: %d round trips, p50 %.1f ms, p99 %.1f ms, max %.1f ms\n",
				label, n, v[int(n * 0.5)] / 1000, v[int(n * 0.99)] / 1000,
				v[n - 1] / 1000 }'
}

"$rogue" ping 3 >"$work/alone.txt" 2>&1
percentiles "$work/alone.txt" "alone"
echo "# garnet alone: VmRSS $(status_kb VmRSS) kB"

"$rogue" commit-flood 4096 4096 "$((seconds + 1))" >"$work/flood.txt" 2>&1 &
flood_pid=$!
sleep 1
"$rogue" ping "$seconds" >"$work/ping.txt" 2>&1 &
ping_pid=$!
max_rss=0
i=0
while [ $i -lt "$seconds" ]; do
	sleep 1
	rss=$(status_kb VmRSS)
	[ -n "$rss" ] && [ "$rss" -gt "$max_rss" ] && max_rss=$rss
	i=$((i + 1))
done
wait "$ping_pid"
ping_status=$?
wait "$flood_pid"
sed 's/^/# flooder: /' "$work/flood.txt"
percentiles "$work/ping.txt" "during the 4096x4096 commit flood"
echo "# garnet during the flood: VmRSS up to $max_rss kB, peak VmHWM $(status_kb VmHWM) kB"
[ $ping_status -eq 0 ] && ! grep -q "error" "$work/ping.txt"
result $? "honest_client_kept_its_connection"
kill -0 "$pid"
result $? "garnet_serves_on"
