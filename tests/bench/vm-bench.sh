#!/bin/sh
# SPDX-License-Identifier: MIT
# Runs a benchmark COMMAND (a garnet-vm boot running one of the kernel benchmarks) REPETITIONS
# times, keeps the "sample: FIGURE VALUE UNIT BETTER" lines it prints, shows each figure's
# median, and with -o also writes them as JSON for tests/bench/compare.py.
# usage: vm-bench.sh -n NAME [-r REPETITIONS] [-o OUT.json] -- COMMAND...
set -u
reps=3
out=
name=
while getopts n:r:o: opt; do
	case $opt in
	n) name=$OPTARG ;;
	r) reps=$OPTARG ;;
	o) out=$OPTARG ;;
	*) sed -n 's/^# usage: /usage: /p' "$0" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ -n "$name" ] && [ $# -gt 0 ] || { sed -n 's/^# usage: /usage: /p' "$0" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
commit=$(python3 -c 'import sys; sys.path.insert(0, sys.argv[1]); import benchjson; print(benchjson.git_commit(sys.argv[2]))' "$here" "$here/../..")
samples=$(mktemp "${TMPDIR:-/tmp}/garnet-vm-bench-XXXXXX")
run=$(mktemp "${TMPDIR:-/tmp}/garnet-vm-bench-run-XXXXXX")
trap 'rm -f "$samples" "$run"' EXIT

i=0
while [ $i -lt "$reps" ]; do
	if ! "$@" >"$run" 2>&1; then
		sed 's/^/# /' "$run" | tail -n 40
		echo "$name: run $((i + 1)) of $reps failed" >&2
		exit 1
	fi
	before=$(wc -l <"$samples")
	sed -n 's/^sample: //p' "$run" >>"$samples"
	if [ "$(wc -l <"$samples")" -eq "$before" ]; then
		sed 's/^/# /' "$run" | tail -n 40
		echo "$name: run $((i + 1)) printed no sample" >&2
		exit 1
	fi
	i=$((i + 1))
done
python3 "$here/benchjson.py" "${out:--}" --print --name "$name" --commit "$commit" \
	--config "repetitions=$reps" \
	--version "kernel=$(ls /lib/modules | sort -V | tail -n 1)" \
	--version "qemu=$(qemu-system-x86_64 --version | sed -n '1s/.*version \([^ ]*\).*/\1/p')" \
	<"$samples"
