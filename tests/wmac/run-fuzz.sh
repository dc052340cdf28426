#!/bin/sh
# SPDX-License-Identifier: MIT
# Runs the policy-parser fuzzer for a bounded time (WMAC_FUZZ_SECONDS, default 60) from the
# seed corpus; new inputs go to a scratch directory, never into the source tree.
# usage: run-fuzz.sh FUZZER SEED_DIR DICTIONARY SCRATCH_DIR
set -eu
fuzzer=$1 seeds=$2 dict=$3 scratch=$4
rm -rf "$scratch"
mkdir -p "$scratch/corpus"
exec "$fuzzer" -max_total_time="${WMAC_FUZZ_SECONDS:-60}" -timeout=10 -rss_limit_mb=2048 \
	-max_len=8192 -dict="$dict" -artifact_prefix="$scratch/" -print_final_stats=1 \
	"$scratch/corpus" "$seeds"
