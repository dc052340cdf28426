#!/bin/sh
# SPDX-License-Identifier: MIT
# Filling the disk through the audit log: without a policy every privileged global in every
# registry is a denial. A client asking for its registry in a loop gets each denial logged
# once; another client's denials are still logged (once each for it too).
# usage: denial-log-test.sh GARNET ROGUE POLICY   (TAP output)
set -u
garnet=$1
rogue=$2
policy=$3
. "$(dirname "$0")/lib.sh"
echo "1..3"

cat >"$work/garnet.ini" <<INI
[security]
policy=$work/no-such.policy
INI
start_garnet
wait_for "$work/log" "policy not loaded"

"$rogue" registries 300 &
attacker=$!
wait "$attacker"
status=$?
grep "deny: pid $attacker " "$work/log" >"$work/attacker-denials.txt"
lines=$(wc -l <"$work/attacker-denials.txt")
distinct=$(sed 's/^\[[^]]*\] //' "$work/attacker-denials.txt" | sort -u | wc -l)
echo "# 300 registries: $lines denial lines, $distinct different"
[ $status -eq 0 ] && [ "$lines" -gt 0 ] && [ "$lines" -eq "$distinct" ]
result $? "repeated_registry_logs_each_denial_once"
[ "$(wc -c <"$work/log")" -lt 20000 ]
result $? "log_stays_small"

# Control: another client's denials are logged, for it.
"$rogue" registries 1 &
other=$!
wait "$other"
grep -q "deny: pid $other .*privileged-global ext_session_lock_manager_v1" "$work/log"
result $? "another_client_denial_is_logged"
