#!/bin/sh
# SPDX-License-Identifier: MIT
# tools/test-summary.py on made-up meson logs: a skip counts as skipped, and in strict mode as
# a failure named with its reason, except the skips wlcs declares itself and a plain run's skip
# of the ./check --deep test.
# usage: test-summary-test.sh TEST_SUMMARY   (TAP output)
set -u
summary=$1
work=$(mktemp -d "${TMPDIR:-/tmp}/garnet-summary-XXXXXX")
trap 'rm -rf "$work"' EXIT
echo "1..10"
n=0
result() {
	n=$((n + 1))
	if [ "$1" -eq 0 ]; then echo "ok $n $2"; else echo "not ok $n $2"; fi
}
# One whole test skipped (exit 77), one TAP subtest skipped, and wlcs's own skip.
cat >"$work/skips.json" <<'JSON'
{"name": "garnet:vm / vm_harness_runs_many_tests_per_boot", "result": "SKIP", "stdout": "no QEMU: qemu-system-x86_64 is not installed\n"}
{"name": "garnet:compositor / real_clients_test", "result": "OK", "stdout": "1..2\nok 1 copies\nok 2 foot_starts_and_exits # SKIP foot not installed\n"}
{"name": "garnet:wlcs / wlcs", "result": "OK", "stdout": "1..2\nok 1 A.b\nok 2 A.c # SKIP Missing extension: zwp_foo_v1\n"}
JSON
cat >"$work/clean.json" <<'JSON'
{"name": "garnet:security / lock_test", "result": "OK", "stdout": "1..1\nok 1 locks\n"}
{"name": "garnet:wlcs / wlcs", "result": "OK", "stdout": "1..1\nok 1 A.c # SKIP Missing extension: zwp_foo_v1\n"}
JSON

python3 "$summary" "$work/skips.json" >"$work/out.txt" 2>&1
status=$?
sed 's/^/# /' "$work/out.txt"
[ $status -eq 0 ] && tail -n 1 "$work/out.txt" | grep -qx "2 passed, 0 failed, 3 skipped"
result $? "skips_are_counted_and_pass_without_strict"

python3 "$summary" --strict "$work/skips.json" >"$work/strict.txt" 2>&1
status=$?
sed 's/^/# /' "$work/strict.txt"
[ $status -ne 0 ] && tail -n 1 "$work/strict.txt" | grep -qx "2 passed, 2 failed, 1 skipped"
result $? "strict_mode_fails_a_run_with_skips"
grep -q "strict mode: garnet:vm / vm_harness_runs_many_tests_per_boot: no QEMU" \
	"$work/strict.txt" &&
	grep -q "strict mode: garnet:compositor / real_clients_test: foot_starts_and_exits: foot" \
		"$work/strict.txt"
result $? "strict_mode_names_each_skipped_test_with_its_reason"
! grep -q "strict mode: garnet:wlcs" "$work/strict.txt"
result $? "skips_wlcs_declares_are_not_failures"

GARNET_STRICT_SKIPS=1 python3 "$summary" "$work/skips.json" >/dev/null 2>&1
[ $? -ne 0 ]
result $? "the_environment_variable_turns_strict_mode_on"

python3 "$summary" --strict "$work/clean.json" >"$work/clean.txt" 2>&1
status=$?
sed 's/^/# /' "$work/clean.txt"
[ $status -eq 0 ] && tail -n 1 "$work/clean.txt" | grep -qx "1 passed, 0 failed, 1 skipped"
result $? "strict_mode_passes_a_run_with_only_wlcs_skips"

# A plain run skips the deep install test, saying it belongs to ./check --deep: counted as a
# skip, never a strict failure. The same words from another suite are an ordinary skip.
cat >"$work/deep.json" <<'JSON'
{"name": "garnet:deep-install / debian_install_boots_into_garnet", "result": "SKIP", "stdout": "1..0 # SKIP runs only in ./check --deep (GARNET_DEEP=1): installs the packages\n"}
{"name": "garnet:security / lock_test", "result": "OK", "stdout": "1..1\nok 1 locks\n"}
JSON
python3 "$summary" --strict "$work/deep.json" >"$work/deep.txt" 2>&1
status=$?
sed 's/^/# /' "$work/deep.txt"
[ $status -eq 0 ] && tail -n 1 "$work/deep.txt" | grep -qx "1 passed, 0 failed, 1 skipped" &&
	grep -q "skipped (deep run only): garnet:deep-install / debian_install_boots_into_garnet: runs only in ./check --deep" "$work/deep.txt"
result $? "strict_mode_lets_a_plain_run_skip_the_deep_test_and_names_it"

sed 's/deep-install \//vm \//' "$work/deep.json" >"$work/fake-deep.json"
python3 "$summary" --strict "$work/fake-deep.json" >"$work/fake-deep.txt" 2>&1
[ $? -ne 0 ]
result $? "strict_mode_fails_that_skip_outside_the_deep_suite"

# A failed test's closing lines are repeated at the end, from stderr too: libFuzzer writes its
# finding only there, and meson stores stderr apart.
cat >"$work/fuzz.json" <<'JSON'
{"name": "garnet:fuzz / wire_fuzz", "result": "FAIL", "stdout": "", "stderr": "INFO: Seed: 1\n==1==ERROR: AddressSanitizer: heap-use-after-free\nartifact_prefix='x/'; Test unit written to x/crash-abc\n"}
JSON
python3 "$summary" "$work/fuzz.json" >"$work/fuzz.txt" 2>&1
status=$?
sed 's/^/# /' "$work/fuzz.txt"
[ $status -ne 0 ] && grep -q "^    ==1==ERROR: AddressSanitizer: heap-use-after-free" "$work/fuzz.txt" &&
	grep -q "Test unit written to x/crash-abc" "$work/fuzz.txt"
result $? "a_failed_tests_stderr_is_repeated_at_the_end"

# A failed subtest far from the end of a long TAP output: its own lines (from the result before
# it to its "not ok") are repeated, since the closing lines show only later subtests passing.
python3 - "$work/tap.json" <<'PY'
import json, sys
out = ["1..40", "# early note", "ok 1 first", "# frame 0 0", "# no frame", "not ok 2 second_fails"]
out += [f"ok {i} later_{i}" for i in range(3, 41)]
with open(sys.argv[1], "w") as f:
    f.write(json.dumps({"name": "garnet:portal / portal_test", "result": "FAIL",
                        "stdout": "\n".join(out) + "\n"}) + "\n")
PY
python3 "$summary" "$work/tap.json" >"$work/tap.txt" 2>&1
status=$?
sed 's/^/# /' "$work/tap.txt"
[ $status -ne 0 ] && grep -q "^--- failed subtest of garnet:portal / portal_test:" "$work/tap.txt" &&
	grep -q "^    # no frame" "$work/tap.txt" && grep -q "^    not ok 2 second_fails" "$work/tap.txt" &&
	! grep -q "^    # early note" "$work/tap.txt"
result $? "a_failed_subtests_own_lines_are_repeated_however_early_it_failed"
