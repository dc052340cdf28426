#!/bin/sh
# SPDX-License-Identifier: MIT
# Clipboard sniffing: selections are offered only to the focused client; a client that kept an
# offer from when it had the keyboard cannot read it once it lost the keyboard; the
# data-control protocol (clipboard managers) is hidden from untrusted clients, while the
# trusted panel running wl-paste --watch through it sees the copy.
# usage: clipboard-test.sh GARNET ROGUE POLICY   (TAP output)
set -u
garnet=$1
rogue=$2
policy=$3
. "$(dirname "$0")/lib.sh"
echo "1..7"

cat >"$work/garnet.ini" <<INI
[security]
policy=$policy
launcher-restarts=0

[launcher]
panel=wl-paste --no-newline --watch sh -c "cat >>$work/panel.txt; echo >>$work/panel.txt"
INI
start_garnet --test-mode

# The victim copies a secret and pastes it back.
"$rogue" clip-victim "$work/victim.txt" "$work/go" &
victim_pid=$!
wait_for "$work/victim.txt" "^pasted 11 secret-4711"
result $? "victim_copy_and_paste_work"

# The trusted clipboard manager sees the copy through data-control.
wait_for "$work/panel.txt" "secret-4711"
result $? "trusted_data_control_client_reads_the_clipboard"

# The sniffer maps (and so gets the keyboard and an offer), then the user clicks the victim
# again; the sniffer, unfocused, reads the offer it kept.
"$rogue" clip-sniff "$work/sniff.txt" &
sniff_pid=$!
wait_for "$work/sniff.txt" "^selection offer" || echo "# the sniffer got no offer while focused"
sends_before=$(grep -c "^send" "$work/victim.txt")
pasted_before=$(grep -c "^pasted" "$work/victim.txt")
touch "$work/go"
wait_for "$work/sniff.txt" "^sniffed" || echo "# the sniffer did not try"
sleep 0.3
sed 's/^/# sniffer: /' "$work/sniff.txt"
sed 's/^/# victim: /' "$work/victim.txt"
grep -q "^sniffed 0 $" "$work/sniff.txt" && ! grep -q "secret" "$work/sniff.txt"
result $? "unfocused_client_reads_nothing_from_a_kept_offer"
# Every send the victim was asked for after that point was for its own paste.
sends_after=$(grep -c "^send" "$work/victim.txt")
pasted_after=$(grep -c "^pasted" "$work/victim.txt")
[ $((sends_after - sends_before)) -eq $((pasted_after - pasted_before)) ]
result $? "victim_is_never_asked_for_data_on_the_sniffers_behalf"
grep -q "deny: pid [0-9]* uid [0-9]* exe $(readlink -f "$rogue") selection-read seat0" "$work/log"
result $? "unfocused_read_is_refused_and_logged"

# An untrusted client neither sees nor binds data-control; wl-paste --watch cannot run.
"$rogue" globals "$work/globals.txt"
! grep -qx zwlr_data_control_manager_v1 "$work/globals.txt" &&
	"$rogue" bind-hidden zwlr_data_control_manager_v1 >"$work/bind.txt" &&
	grep -q "protocol error" "$work/bind.txt"
result $? "untrusted_data_control_is_invisible_and_a_guessed_bind_is_a_protocol_error"
timeout 5 wl-paste --no-newline --watch sh -c "cat >>$work/untrusted.txt" 2>"$work/wl-paste.err"
status=$?
sed 's/^/# untrusted wl-paste: /' "$work/wl-paste.err"
[ $status -ne 0 ] && [ $status -ne 124 ] && ! grep -q secret "$work/untrusted.txt" 2>/dev/null
result $? "untrusted_wl_paste_watch_gets_nothing"

kill "$victim_pid" "$sniff_pid" 2>/dev/null
wait "$victim_pid" "$sniff_pid" 2>/dev/null || true
