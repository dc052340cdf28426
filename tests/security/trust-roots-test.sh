#!/bin/sh
# SPDX-License-Identifier: MIT
# Trust roots a user can change, from the attacker's side: a client running as the user can
# write ~/.config/garnet.ini, so no file the user owns may choose the trusted launchers, the
# policy, the PAM service or the limits; a [launcher] line is a program and its arguments,
# never a shell command; and the user's other processes cannot read garnet's memory.
# usage: trust-roots-test.sh GARNET ROGUE POLICY   (TAP output)
set -u
garnet=$(readlink -f "$1") # absolute: the launcher test runs in $work
rogue=$(readlink -f "$2")
policy=$3
# The attacker's files must belong to someone other than root and garnet must run as an
# ordinary user: this test runs in the host's namespaces and only its control runs as the
# system, in a user namespace when the test is not root.
own_namespaces=no
. "$(dirname "$0")/lib.sh"
if [ "$(id -u)" -eq 0 ]; then
	# root plays the user as nobody
	user_uid=$(id -u nobody)
	as_user="setpriv --reuid=nobody --regid=nogroup --clear-groups"
else
	user_uid=$(id -u)
	as_user=
fi
echo "1..9"

# refused: prints garnet's stderr for FILE given as --config (or searched, with no FILE)
refused() {
	if [ -n "$1" ]; then
		timeout 10 "$garnet" --config "$1" --socket trust-refused >"$work/refused.txt" 2>&1
	else
		timeout 10 "$garnet" --socket trust-refused >"$work/refused.txt" 2>&1
	fi
	status=$?
	sed 's/^/# /' "$work/refused.txt"
	[ $status -ne 0 ] && [ $status -ne 124 ]
}

# The attacker's file: owned by the user, holding each trust section in turn.
# The PAM directory would let the attacker's own PAM stack accept any password at the lock.
for what in launcher security pam limits; do
	section=$what
	case $what in
	launcher) key="lock-screen=$rogue globals $work/stolen.txt" ;;
	security) key="policy=$work/attacker.policy" ;;
	pam) section=security key="unlock-pam-confdir=$work/attacker-pam.d" ;;
	limits) key="max-surfaces=100000" ;;
	esac
	printf '[core]\nrepaint-window=7\n\n[%s]\n%s\n' "$section" "$key" >"$work/user-$what.ini"
	[ -z "$as_user" ] || chown nobody "$work/user-$what.ini"
	refused "$work/user-$what.ini" &&
		grep -q "user-$what.ini:5: \[$section\] is read only from a root-owned system file" \
			"$work/refused.txt"
	result $? "user_file_with_${what}_is_refused_with_file_and_line"
done
[ ! -e "$work/stolen.txt" ]
result $? "no_launcher_of_the_user_file_ran"

# The searched ~/.config/garnet.ini is the user's even when root wrote it.
mkdir -p "$work/config"
printf '[launcher]\nlock-screen=%s globals %s/stolen.txt\n' "$rogue" "$work" \
	>"$work/config/garnet.ini"
refused "" && grep -q "config/garnet.ini:2: \[launcher\] is read only" "$work/refused.txt"
result $? "searched_user_file_with_launcher_is_refused"
rm "$work/config/garnet.ini"

# Control: the system file (root-owned, writable by root only) starts its launcher, which
# holds the trusted identity. Its command line carries shell syntax, quoted and bare: no shell
# runs it, so the program gets each as a literal argument and no command after ; or | runs.
cat >"$work/garnet.ini" <<INI
[security]
policy=$policy
launcher-restarts=0

[launcher]
lock-screen=$rogue globals "$work/list; touch pwned"|touch\${IFS}pwned
INI
cd "$work"
start_garnet
wait_for "$work/log" "launcher lock-screen exited"
sed 's/^/# /' "$work/out"
grep -qx ext_session_lock_manager_v1 "$work/list; touch pwned|touch\${IFS}pwned" &&
	grep -q "launcher lock-screen: started $(readlink -f "$rogue")" "$work/log"
result $? "system_file_launcher_runs_with_a_trusted_identity"
ls "$work" | sed 's/^/# /'
[ ! -e "$work/pwned" ]
result $? "launcher_command_is_not_run_through_a_shell"

# garnet is not dumpable: run as an ordinary user, its /proc/PID files belong to root, so that
# user's other processes cannot ptrace it or read its memory. Control: an ordinary process of
# the same user owns its /proc files.
kill "$pid" && wait "$pid"
pid=
rt=$(mktemp -d "${TMPDIR:-/tmp}/garnet-user-XXXXXX")
[ -z "$as_user" ] || chown nobody "$rt"
chmod 0700 "$rt"
$as_user env XDG_RUNTIME_DIR="$rt" HOME="$rt" "$garnet" --no-config --socket dumpable \
	>"$work/nobody.txt" 2>&1 &
nobody_pid=$!
$as_user sleep 10 &
sleep_pid=$!
wait_for "$work/nobody.txt" "WAYLAND_DISPLAY"
garnet_owner=$(stat -c %u "/proc/$nobody_pid/mem")
sleep_owner=$(stat -c %u "/proc/$sleep_pid/mem")
echo "# /proc owners: garnet $garnet_owner, an ordinary process $sleep_owner"
[ "$garnet_owner" = 0 ] && [ "$sleep_owner" = "$user_uid" ]
result $? "garnet_is_not_dumpable"
kill "$nobody_pid" "$sleep_pid" 2>/dev/null
wait "$nobody_pid" "$sleep_pid" 2>/dev/null
rm -rf "$rt"
