#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/bench/compare.py reads the checked-in baselines and flags a slowdown: each baseline
# against itself is clean; a copy with garnet's CPU twice as high, or its frame rate
# halved, is flagged "worse" with exit status 1; a change within the noise is not; a file that
# is not a benchmark's JSON is exit status 2. TAP.
# usage: bench-compare-test.sh SOURCE_ROOT
set -u
src=$1
compare="python3 $src/tests/bench/compare.py"
work=$(mktemp -d "${TMPDIR:-/tmp}/bench-compare-XXXXXX")
trap 'rm -rf "$work"' EXIT
n=0
fail=0

ok() {
	n=$((n + 1))
	if [ "$1" = 0 ]; then
		echo "ok $n - $2"
	else
		echo "not ok $n - $2"
		sed 's/^/# /' "$work/out" 2>/dev/null
		fail=1
	fi
}

# A copy of $1 with figure $2's median and values multiplied by $3, into $4.
scaled() {
	python3 - "$1" "$2" "$3" "$4" <<'PY'
import json, sys
src, figure, factor, out = sys.argv[1], sys.argv[2], float(sys.argv[3]), sys.argv[4]
doc = json.load(open(src))
fig = doc["figures"][figure]
for key in ("median", "min", "max"):
    if fig.get(key) is not None:
        fig[key] = fig[key] * factor
fig["values"] = [v * factor for v in fig["values"]]
json.dump(doc, open(out, "w"))
PY
}

for base in "$src"/tests/bench/baseline/*.json; do
	what=$(basename "$base" .json)
	$compare "$base" "$base" >"$work/out" 2>&1
	ok $? "${what}_against_itself_is_clean"
	grep -q '^0 figure(s) worse' "$work/out"
	ok $? "${what}_against_itself_counts_nothing_worse"
done

base="$src/tests/bench/baseline/side-by-side-1920x1080.json"
scaled "$base" garnet/shm10_cpu 2 "$work/slow.json"
$compare "$base" "$work/slow.json" >"$work/out" 2>&1
ok $([ $? = 1 ] && echo 0 || echo 1) "more_cpu_exits_1"
grep -q '^garnet/shm10_cpu .* 2\.00 .* worse$' "$work/out"
ok $? "more_cpu_is_flagged_worse_with_its_ratio"
[ "$(grep -c ' worse$' "$work/out")" = 1 ]
ok $? "only_the_slower_figure_is_flagged"

scaled "$base" garnet/fs_fps 0.5 "$work/fewer.json"
$compare "$base" "$work/fewer.json" >"$work/out" 2>&1
ok $([ $? = 1 ] && echo 0 || echo 1) "fewer_frames_per_second_exit_1"
grep -q '^garnet/fs_fps .* worse$' "$work/out"
ok $? "fewer_frames_per_second_are_flagged_worse"

scaled "$base" garnet/shm10_cpu 0.5 "$work/fast.json"
$compare "$base" "$work/fast.json" >"$work/out" 2>&1
ok $? "less_cpu_is_not_a_failure"
grep -q '^garnet/shm10_cpu .* better$' "$work/out"
ok $? "less_cpu_is_marked_better"

scaled "$base" garnet/shm10_cpu 1.05 "$work/noise.json"
$compare "$base" "$work/noise.json" >"$work/out" 2>&1
ok $? "five_percent_more_is_within_the_threshold"

# A benchmark's own run written by benchjson.py compares with itself.
printf 'garnet/x 10 ms lower\ngarnet/x 12 ms lower\ngarnet/idle 0 s/min lower 0.05\n' |
	python3 "$src/tests/bench/benchjson.py" "$work/run.json" --name t --config s=1 \
		--version garnet=test >"$work/out" 2>&1
ok $? "benchjson_writes_a_run"
printf 'garnet/x 11 ms lower\ngarnet/x 11 ms lower\ngarnet/idle 0.02 s/min lower 0.05\n' |
	python3 "$src/tests/bench/benchjson.py" "$work/run2.json" --name t >/dev/null 2>&1
$compare "$work/run.json" "$work/run2.json" >"$work/out" 2>&1
ok $? "idle_cpu_within_its_noise_is_not_worse"
printf 'garnet/x ten ms\n' | python3 "$src/tests/bench/benchjson.py" "$work/bad.json" --name t \
	>"$work/out" 2>&1
ok $([ $? = 2 ] && echo 0 || echo 1) "benchjson_refuses_a_bad_sample_line"

echo '{"figures": {"x": {"better": "sideways"}}}' >"$work/bad.json"
$compare "$base" "$work/bad.json" >"$work/out" 2>&1
ok $([ $? = 2 ] && echo 0 || echo 1) "a_file_without_medians_exits_2"
echo 'not json' >"$work/bad.json"
$compare "$base" "$work/bad.json" >"$work/out" 2>&1
ok $([ $? = 2 ] && echo 0 || echo 1) "a_file_that_is_not_json_exits_2"

echo "1..$n"
exit $fail
