#!/bin/sh
# SPDX-License-Identifier: MIT
# Runs the render benchmark (tests/compositor/render-bench.c) REPETITIONS times and prints each
# figure's median; -o also writes them as JSON for tests/bench/compare.py.
# usage: render-bench.sh [-r REPETITIONS] [-o OUT.json] RENDER_BENCH
set -u
reps=5
out=
while getopts r:o: opt; do
	case $opt in
	r) reps=$OPTARG ;;
	o) out=$OPTARG ;;
	*) sed -n 's/^# usage: /usage: /p' "$0" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
bench=${1:?usage: render-bench.sh [-r REPETITIONS] [-o OUT.json] RENDER_BENCH}
here=$(cd "$(dirname "$0")" && pwd)
commit=$(python3 -c 'import sys; sys.path.insert(0, sys.argv[1]); import benchjson; print(benchjson.git_commit(sys.argv[2]))' "$here" "$here/../..")
samples=$(mktemp "${TMPDIR:-/tmp}/garnet-render-bench-XXXXXX")
trap 'rm -f "$samples"' EXIT

i=0
while [ $i -lt "$reps" ]; do
	# "# BenchmarkRender/NAME FRAMES VALUE UNIT [VALUE UNIT]": every VALUE UNIT pair is a figure,
	# lower is better: NAME/wall for ms/frame, NAME/compositor-cpu for ms-compositor-cpu/frame.
	"$bench" | awk '$2 ~ /^BenchmarkRender\// {
		name = substr($2, 17)
		for (i = 4; i + 1 <= NF; i += 2) {
			what = $(i + 1)
			sub(/^ms-/, "", what)
			sub(/\/frame$/, "", what)
			if (what == "ms")
				what = "wall"
			print name "/" what, $i, "ms/frame", "lower"
		}
	}' >>"$samples" || exit 1
	i=$((i + 1))
done
python3 "$here/benchjson.py" "${out:--}" --print --name render --commit "$commit" \
	--config "repetitions=$reps" --config "bench=$bench" \
	--version "pixman=$(pkg-config --modversion pixman-1 2>/dev/null)" <"$samples"
