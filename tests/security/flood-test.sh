#!/bin/sh
# SPDX-License-Identifier: MIT
# The flood: a client sending a million requests is disconnected by its request budget while
# another client keeps animating and gets its frame callbacks during and after the flood.
# usage: flood-test.sh GARNET ROGUE POLICY   (TAP output)
set -u
garnet=$1
rogue=$2
policy=$3
. "$(dirname "$0")/lib.sh"
echo "1..4"

cat >"$work/garnet.ini" <<INI
[security]
policy=$policy
max-requests-per-second=50000
INI
start_garnet

now_ms() { echo $(($(date +%s%N) / 1000000)); }

# The victim animates until it is killed below: under ASan on a loaded machine the flood alone
# has lasted over 20 s, and a victim gone before it ended counted no frame after.
"$rogue" frames "$work/victim.txt" 110 &
victim_pid=$!
wait_for "$work/victim.txt" "^frame" || echo "# the victim got no first frame"
sleep 1
flood_start=$(now_ms)
"$rogue" flood 1000000 >"$work/flood.txt"
flood_status=$?
flood_end=$(now_ms)
sleep 1
after_end=$(now_ms)
kill "$victim_pid" 2>/dev/null
wait "$victim_pid" 2>/dev/null
sed 's/^/# flood: /' "$work/flood.txt"
echo "# flood lasted $((flood_end - flood_start)) ms"

[ $flood_status -eq 0 ] && grep -q "protocol error" "$work/flood.txt" &&
	! grep -q "sent 1000000 of" "$work/flood.txt"
result $? "flooding_client_is_disconnected_before_its_millionth_request"
grep -q "more than 50000 requests in a second: disconnected" "$work/log"
result $? "disconnection_is_logged"
# Frame callbacks kept coming while the flood was being read: no gap longer than 500 ms.
awk -v s="$flood_start" -v e="$flood_end" '
	/^frame/ { t = $2; if (t >= s && t <= e) { if (last && t - last > gap) gap = t - last;
		last = t; n++ } }
	END { printf "# %d frames during the flood, longest gap %d ms\n", n, gap;
		exit !(n > 0 && gap <= 500) }' "$work/victim.txt"
result $? "victim_gets_frame_callbacks_during_the_flood"
awk -v s="$flood_end" -v e="$after_end" '/^frame/ { if ($2 > s && $2 <= e) n++ }
	END { printf "# %d frames in the second after\n", n; exit !(n >= 5) }' "$work/victim.txt"
result $? "victim_gets_frame_callbacks_after_the_flood"
