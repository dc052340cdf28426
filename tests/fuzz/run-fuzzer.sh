#!/bin/sh
# SPDX-License-Identifier: MIT
# Runs a libFuzzer target for a bounded time from its checked-in corpus; what it finds new goes
# to a scratch directory, never into the source tree, and a crash leaves its input there
# (crash-*) to be kept as a named regression. GARNET_FUZZ_SECONDS, when set, replaces every
# fuzzer's default time (longer runs by hand, shorter on a slow machine).
# usage: run-fuzzer.sh FUZZER SEED_DIR SCRATCH_DIR SECONDS [LIBFUZZER-OPTIONS...]
set -eu
fuzzer=$1 seeds=$2 scratch=$3 seconds=${GARNET_FUZZ_SECONDS:-$4}
shift 4
rm -rf "$scratch"
mkdir -p "$scratch/corpus"
exec "$fuzzer" -max_total_time="$seconds" -timeout=20 -rss_limit_mb=3072 \
	-artifact_prefix="$scratch/" -print_final_stats=1 "$@" "$scratch/corpus" "$seeds"
