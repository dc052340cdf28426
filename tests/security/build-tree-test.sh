#!/bin/sh
# SPDX-License-Identifier: MIT
# garnet started from the build tree, with nothing installed, runs under the repository's own
# policy (data/wmac.policy): no "policy not loaded" error, an untrusted client still cannot
# capture the screen, and a trusted launcher gets what that policy grants it (which an empty
# policy would not); and, with no configuration given, it launches the build tree's
# garnet-panel as the installed garnet launches the installed one (./run's sessions).
# usage: build-tree-test.sh GARNET ROGUE POLICY DEMO   (TAP output)
set -u
garnet=$1
rogue=$2
repo_policy=$(readlink -f "$3")
demo=$4
. "$(dirname "$0")/lib.sh"
echo "1..6"

# What ./run does: the headless demo with no configuration file, one screenshot, exit.
$as_system "$garnet" --no-config --autostart="$demo" --screenshot="$work/desktop.png" \
	--oneshot >"$work/run.txt" 2>&1
status=$?
sed 's/^/# /' "$work/run.txt" | grep -v "deny:"
[ $status -eq 0 ] && grep -q "info security: policy $repo_policy\$" "$work/run.txt" &&
	! grep -q " error " "$work/run.txt"
result $? "headless_run_loads_the_repository_policy_with_no_error"

# A system garnet.ini without [security] policy=: the build tree's policy applies.
cat >"$work/garnet.ini" <<INI
[security]
launcher-restarts=0

[launcher]
lock-screen=$rogue globals $work/lock-screen.txt
INI
start_garnet
grep -q "info security: policy $repo_policy\$" "$work/log" && ! grep -q "policy not loaded" "$work/log"
result $? "configured_run_loads_the_repository_policy"

"$rogue" screencopy >"$work/public.txt"
status=$?
sed 's/^/# /' "$work/public.txt"
[ $status -eq 0 ] && grep -q "not visible" "$work/public.txt"
result $? "untrusted_client_is_denied_screencopy"

grep -q "deny: pid [0-9]* .*privileged-global zwlr_screencopy_manager_v1, no rule matched" \
	"$work/log"
result $? "denial_names_the_repository_policy_outcome"

# Control: the policy is in force, not merely absent: the lock screen sees its global.
wait_for "$work/lock-screen.txt" "ext_session_lock_manager_v1"
result $? "trusted_lock_screen_gets_what_the_policy_grants"

# ./run's session (drm or nested, no --config): the build tree's own system file stands in
# for /etc/garnet/garnet.ini, so the panel of the build tree starts, under the policy.
kill "$pid" 2>/dev/null
wait "$pid" 2>/dev/null
mkdir -p "$work/home"
HOME=$work/home XDG_CONFIG_HOME= $as_system "$garnet" --socket build-tree-run --log "$work/run.log" \
	>"$work/run.out" 2>&1 &
pid=$!
wait_for "$work/run.log" "launcher panel: started"
grep "launcher panel\|panel" "$work/run.log" | head -n 3 | sed 's/^/# /'
grep -q "launcher panel: started .*/clients/garnet-panel" "$work/run.log" &&
	! grep -q " error " "$work/run.log"
result $? "run_from_the_build_tree_starts_its_panel"
