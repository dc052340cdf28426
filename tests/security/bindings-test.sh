#!/bin/sh
# SPDX-License-Identifier: MIT
# The quit binding, pressed by the user (the trusted driver of the test protocol) while nothing
# is locked: garnet shuts down cleanly, exits 0 and removes its socket.
# usage: bindings-test.sh GARNET ROGUE POLICY   (TAP output)
set -u
garnet=$1
rogue=$2
policy=$3
. "$(dirname "$0")/lib.sh"
echo "1..2"

cat >"$work/garnet.ini" <<INI
[security]
policy=$policy
launcher-restarts=0

[shell]
binding=ctrl+alt+BackSpace quit

[launcher]
panel=$rogue drive $work/go $work/done quit
INI
start_garnet --test-mode
touch "$work/go"
i=0
while kill -0 "$pid" 2>/dev/null && [ $i -lt 100 ]; do
	sleep 0.1
	i=$((i + 1))
done
wait "$pid"
status=$?
pid=
sed 's/^/# garnet: /' "$work/log" | tail -n 5
[ $status -eq 0 ] && grep -q "quit binding: shutting down" "$work/log"
result $? "quit_binding_shuts_garnet_down_with_status_0"
[ ! -e "$XDG_RUNTIME_DIR/security-test" ]
result $? "garnet_removed_its_socket"
