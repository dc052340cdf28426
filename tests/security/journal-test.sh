#!/bin/sh
# SPDX-License-Identifier: MIT
# The audit trail in the system journal, apart from garnet's log: a denial reaches the journal
# as SYSLOG_IDENTIFIER=garnet-audit with the client's pid and executable, the permission and
# the decision as fields, and is not mixed into the log. The log itself goes to the journal
# only when garnet's stderr is the journal (JOURNAL_STREAM), or [core] log=journal; log=stderr
# keeps it on stderr, [security] audit=FILE puts the trail in a file, and --log=FILE keeps
# both in that file (the other tests read them there). A fake journald listens on
# /run/systemd/journal/socket of the test's own mount namespace.
# usage: journal-test.sh GARNET ROGUE POLICY FAKE_JOURNALD   (TAP output)
set -u
garnet=$1
rogue=$(readlink -f "$2")
policy=$3
journald=$4
. "$(dirname "$0")/lib.sh"
echo "1..8"

mount -t tmpfs tmpfs /run && mkdir -p /run/systemd/journal || {
	echo "Bail out! cannot make a private /run for the fake journal"
	exit 1
}
python3 "$journald" /run/systemd/journal/socket "$work/journal.json" >"$work/journald.txt" 2>&1 &
journald_pid=$!
wait_for "$work/journald.txt" "ready" || { echo "Bail out! the fake journal did not start"; exit 1; }

# journal_entry FILTER...: an entry with every FIELD=VALUE given is in the journal
journal_entry() {
	python3 - "$work/journal.json" "$@" <<'PY'
import json, sys
want = dict(arg.split("=", 1) for arg in sys.argv[2:])
for line in open(sys.argv[1]):
    entry = json.loads(line)
    if all(entry.get(k) == v for k, v in want.items()):
        sys.exit(0)
sys.exit(1)
PY
}
# start GARNET-ARGS...: garnet with $work/garnet.ini, stderr in $work/err, no --log
start() {
	: >"$work/err"
	$as_system "$garnet" --config "$work/garnet.ini" --socket journal-test "$@" \
		>"$work/out" 2>"$work/err" &
	pid=$!
	wait_for "$work/out" "WAYLAND_DISPLAY" || { echo "Bail out! garnet did not start"; exit 1; }
	export WAYLAND_DISPLAY=journal-test
}
stop() {
	kill "$pid" && wait "$pid"
	pid=
}
deny_screencopy() { # the rogue's pid in $attacker
	"$rogue" screencopy >"$work/public.txt" &
	attacker=$!
	wait "$attacker"
	sleep 0.3
}

cat >"$work/garnet.ini" <<INI
[security]
policy=$policy
INI
start
deny_screencopy
journal_entry SYSLOG_IDENTIFIER=garnet-audit PRIORITY=4 GARNET_DECISION=deny \
	GARNET_CLIENT_PID="$attacker" GARNET_CLIENT_EXE="$rogue" \
	GARNET_PERMISSION=privileged-global GARNET_OBJECT=zwlr_screencopy_manager_v1
result $? "denial_reaches_the_journal_as_garnet_audit_with_its_fields"

grep -q "audit trail in the journal: journalctl -t garnet-audit" "$work/err" &&
	! grep -q "deny: pid $attacker" "$work/err"
result $? "audit_trail_is_not_mixed_into_the_log"

grep -q "info security: policy " "$work/err" && ! journal_entry SYSLOG_IDENTIFIER=garnet
result $? "log_stays_on_stderr_when_stderr_is_not_the_journal"
stop

# stderr is the journal's stream, as for a systemd service or a session whose output it
# collects: the log goes there with its priority, apart from the audit trail.
: >"$work/err"
JOURNAL_STREAM=$(stat -c '%d:%i' "$work/err")
export JOURNAL_STREAM
start
deny_screencopy
journal_entry SYSLOG_IDENTIFIER=garnet PRIORITY=6 GARNET_SCOPE=security \
	MESSAGE="security: policy $policy" &&
	journal_entry SYSLOG_IDENTIFIER=garnet-audit GARNET_CLIENT_PID="$attacker"
result $? "log_goes_to_the_journal_when_stderr_is_the_journal"
stop

# [core] log=stderr is heeded even under the journal.
cat >>"$work/garnet.ini" <<INI

[core]
log=stderr
INI
: >"$work/err"
JOURNAL_STREAM=$(stat -c '%d:%i' "$work/err")
export JOURNAL_STREAM
start
grep -q "info security: policy " "$work/err"
result $? "log_equals_stderr_keeps_the_log_on_stderr"
stop
unset JOURNAL_STREAM

# [security] audit=FILE: the trail in its own file, not in the journal.
cat >"$work/garnet.ini" <<INI
[security]
policy=$policy
audit=$work/audit.log
INI
start
deny_screencopy
grep -q "garnet-audit: deny: pid $attacker .*zwlr_screencopy_manager_v1" "$work/audit.log" &&
	! journal_entry GARNET_CLIENT_PID="$attacker"
result $? "audit_file_holds_the_trail"
stop

# --log=FILE: the log and the trail in that file, as the other tests read them.
cat >"$work/garnet.ini" <<INI
[security]
policy=$policy
INI
start --log "$work/log"
deny_screencopy
grep -q "warning security: deny: pid $attacker .*zwlr_screencopy_manager_v1" "$work/log" &&
	! journal_entry GARNET_CLIENT_PID="$attacker"
result $? "log_file_keeps_the_audit_lines"
stop

# Control: the journal stops answering (its socket stays): the trail goes to stderr rather
# than nowhere, and garnet serves on.
kill "$journald_pid"
wait "$journald_pid" 2>/dev/null
start
deny_screencopy
grep -q "garnet-audit: deny: pid $attacker" "$work/err" && garnet_serves_a_new_client
result $? "without_the_journal_denials_fall_back_to_stderr"
