#!/bin/sh
# SPDX-License-Identifier: MIT
# The per-client budget and client memory: a region of 100,000 rectangles and a pool truncated
# under its buffer each cost the attacker its connection, never garnet's memory, time or life;
# another client's round trips stay fast. One 64 MiB shm pool attached to 16 surfaces costs
# garnet nothing (buffers are read in place, never copied; zerocopy-test.sh shows them).
# Honest clients still get what they need: a 3840x2160 window is shown, three 64 MiB buffers
# and a region of 1000 rectangles are taken.
# usage: budget-test.sh GARNET ROGUE POLICY PNG_EQUAL   (TAP output)
set -u
garnet=$1
rogue=$2
policy=$3
png_equal=$4
. "$(dirname "$0")/lib.sh"
echo "1..13"

cat >"$work/garnet.ini" <<INI
[security]
policy=$policy
INI
start_garnet --screenshot "$work/shot.png"
status_kb() { awk -v k="$1:" '$1 == k { print $2 }' "/proc/$pid/status"; }

# Positive control: a big honest window is shown, its buffer held while it is.
"$rogue" big 3840 2160 >"$work/big.txt" 2>&1 &
big_pid=$!
wait_for "$work/big.txt" "shown, held" 10
result $? "honest_3840x2160_window_is_shown_and_its_buffer_held"
wait_for "$work/out" "screenshot of .* written" 10
python3 -c '
import importlib.util, sys
spec = importlib.util.spec_from_file_location("png_equal", sys.argv[1])
m = importlib.util.module_from_spec(spec); spec.loader.exec_module(m)
w, h, rows = m.decode(sys.argv[2])
r, g, b = rows[h // 2][w // 2 * 3: w // 2 * 3 + 3]
print("# middle of the screen: %d,%d,%d" % (r, g, b))
sys.exit(0 if (r, g, b) == (0, 255, 0) else 1)' "$png_equal" "$work/shot.png"
result $? "the_big_buffer_is_what_the_screen_shows"
kill "$big_pid" 2>/dev/null
wait "$big_pid" 2>/dev/null

# Positive control: three 64 MiB buffers are within an honest client's budget.
"$rogue" pool 3 >"$work/pool3.txt" 2>&1
sed 's/^/# pool 3: /' "$work/pool3.txt"
grep -q "shown on 3 of 3 surfaces; still connected" "$work/pool3.txt"
result $? "three_64mib_buffers_are_taken"

echo "# garnet VmRSS before the attack: $(status_kb VmRSS) kB, peak $(status_kb VmHWM) kB"
"$rogue" pool 16 >"$work/pool16.txt" 2>&1
sed 's/^/# pool 16: /' "$work/pool16.txt"
grep -q "shown on 16 of 16 surfaces; still connected" "$work/pool16.txt"
result $? "pool_on_16_surfaces_is_taken_without_a_copy"
rss=$(status_kb VmRSS)
hwm=$(status_kb VmHWM)
echo "# garnet VmRSS after: $rss kB, peak $hwm kB"
[ -n "$hwm" ] && [ "$hwm" -lt 524288 ]
result $? "garnet_memory_stays_under_512_mib"

# Positive control: a region of 1000 rectangles is fine.
"$rogue" regions 1000 >"$work/regions1000.txt" 2>&1
sed 's/^/# regions 1000: /' "$work/regions1000.txt"
grep -q "added 1000 of 1000 rectangles.*still connected" "$work/regions1000.txt"
result $? "region_of_1000_rectangles_is_taken"

"$rogue" ping 8 >"$work/ping.txt" 2>&1 &
ping_pid=$!
wait_for "$work/ping.txt" "^rtt"
"$rogue" regions 100000 >"$work/regions.txt" 2>&1
sed 's/^/# regions 100000: /' "$work/regions.txt"
wait "$ping_pid"
grep -q "put more than 1024 rectangles in a region: disconnected" "$work/log" &&
	grep -Eq "Cannot allocate memory|Broken pipe" "$work/regions.txt" &&
	! grep -q "added 100000 of" "$work/regions.txt"
result $? "region_flood_is_cut_off_at_1024_rectangles"
sort -n -k2 "$work/ping.txt" | awk '/^rtt/ { v[n++] = $2 }
	END { printf "# %d round trips, p99 %d us, max %d us\n", n, v[int(n * 0.99)], v[n - 1];
		exit !(n > 0 && v[int(n * 0.99)] < 25000) }'
result $? "other_clients_round_trip_p99_stays_under_25_ms_during_the_region_flood"

# Surfaces, subsurfaces and mime types: the default budget (4096, 1024, 1024) holds; one
# client asking for ten times more is cut off, after an honest share was given.
for kind in surfaces:4096 subsurfaces:1024 mime_types:1024; do
	name=${kind%:*}
	max=${kind#*:}
	"$rogue" objects "$(echo "$name" | tr _ -)" $((max * 10)) >"$work/$name.txt" 2>&1
	sed "s/^/# $name: /" "$work/$name.txt"
	grep -q "over garnet's budget of $max $(echo "$name" | tr _ ' ') per client" \
		"$work/$name.txt" && grep -q "Cannot allocate memory" "$work/$name.txt" &&
		made=$(sed -n 's/^made \([0-9]*\) of.*/\1/p' "$work/$name.txt") &&
		[ "$made" -ge "$max" ]
	result $? "more_than_${max}_${name}_cut_the_client_off"
done

"$rogue" truncated-pool >"$work/truncated.txt" 2>&1
sed 's/^/# truncated-pool: /' "$work/truncated.txt"
grep -q "protocol error" "$work/truncated.txt"
result $? "truncated_pool_is_a_client_error"

garnet_serves_a_new_client
result $? "garnet_serves_on"
