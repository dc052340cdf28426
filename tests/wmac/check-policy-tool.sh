#!/bin/sh
# SPDX-License-Identifier: MIT
# wmac-check-policy accepts the installed default policy and reports a broken one by file, line
# and column with a failing status.
# usage: check-policy-tool.sh WMAC_CHECK_POLICY DEFAULT_POLICY SCRATCH_DIR
set -u
tool=$1 default=$2 scratch=$3
mkdir -p "$scratch"
fail() { echo "FAIL: $*"; exit 1; }

out=$("$tool" --draft "$default" 2>&1) || fail "default policy rejected: $out"
[ "$out" = "$default: ok" ] || fail "unexpected output: $out"

printf 'version 1\nallow fullscreen\nallow screnshot\n' >"$scratch/broken.policy"
out=$("$tool" --draft "$scratch/broken.policy" 2>&1) && fail "broken policy accepted"
[ "$out" = "$scratch/broken.policy:3:7: unknown permission 'screnshot'" ] ||
	fail "unexpected error: $out"

printf 'version 1\nallow screenshot\n' >"$scratch/user.policy"
out=$("$tool" --draft "$default" "$scratch/user.policy" 2>&1) && fail "granting user policy accepted"
case "$out" in
"$scratch/user.policy:2:1: a per-user policy may not grant"*) ;;
*) fail "unexpected error: $out" ;;
esac

out=$("$tool" --draft "$scratch/missing.policy" 2>&1) && fail "missing policy accepted"
case "$out" in
"$scratch/missing.policy: cannot open: No such file or directory") ;;
*) fail "unexpected error: $out" ;;
esac

"$tool" >/dev/null 2>&1
[ $? -eq 2 ] || fail "no arguments must be a usage error"
echo "wmac-check-policy: all cases behave"
