#!/bin/sh
# SPDX-License-Identifier: MIT
# Trusted launching and the global filter, from the attacker's side: the same executable as a
# trusted client, connected to the public socket, neither sees nor binds a privileged global.
# usage: launcher-test.sh GARNET ROGUE POLICY   (TAP output)
set -u
garnet=$1
rogue=$2
policy=$3
. "$(dirname "$0")/lib.sh"
echo "1..7"

cat >"$work/garnet.ini" <<INI
[security]
policy=$policy
launcher-restarts=2

[launcher]
lock-screen=$rogue globals $work/launched.txt
INI
start_garnet

# The launched client holds the lock-screen identity, so it sees the privileged lock manager.
wait_for "$work/launched.txt" "^--" && grep -qx ext_session_lock_manager_v1 "$work/launched.txt"
result $? "launched_client_sees_privileged_global"

# identity spoofing: the very same executable on the public socket is an ordinary client.
"$rogue" globals "$work/public.txt" && grep -qx wl_compositor "$work/public.txt" &&
	! grep -qx ext_session_lock_manager_v1 "$work/public.txt"
result $? "same_executable_on_public_socket_sees_no_privileged_global"

# wayland-info from a shell lists the ordinary globals only; every privileged one (each of
# which the launched client sees) is missing.
privileged="zwlr_screencopy_manager_v1 ext_session_lock_manager_v1 zwp_virtual_keyboard_manager_v1
zwp_input_method_manager_v2 zwlr_data_control_manager_v1 wp_security_context_manager_v1"
wayland-info >"$work/wayland-info.txt" 2>&1
status=$?
ok=0
[ $status -eq 0 ] && grep -q "'wl_compositor'" "$work/wayland-info.txt" &&
	grep -q "'xdg_wm_base'" "$work/wayland-info.txt" || ok=1
for global in $privileged; do
	grep -qx "$global" "$work/launched.txt" || { echo "# launched client lacks $global"; ok=1; }
	! grep -q "'$global'" "$work/wayland-info.txt" || { echo "# wayland-info lists $global"; ok=1; }
done
result $ok "wayland_info_from_a_shell_lists_ordinary_globals_only"

# Binding it anyway, by guessing its name, is a protocol error every time.
"$rogue" bind-hidden ext_session_lock_manager_v1 >"$work/bind.txt"
status=$?
sed 's/^/# /' "$work/bind.txt"
[ $status -eq 0 ] && grep -q "protocol error" "$work/bind.txt" &&
	! grep -q "^bound" "$work/bind.txt"
result $? "guessed_name_bind_is_a_protocol_error"

# Every refusal is audited with the client's verified identity and the permission.
grep -q "deny: pid [0-9]* uid [0-9]* exe $(readlink -f "$rogue").*privileged-global ext_session_lock_manager_v1" \
	"$work/log"
result $? "denial_is_logged_with_identity"

# The launched client exits after listing; it is started again twice, then no more.
wait_for "$work/log" "no restarts left" && sleep 0.3 &&
	[ "$(grep -cx ext_session_lock_manager_v1 "$work/launched.txt")" -eq 3 ]
result $? "launcher_restarts_are_limited"

# The victim, the trusted client, was never disturbed: each of its runs saw the global.
[ "$(grep -cx -- "--" "$work/launched.txt")" -eq 3 ] && kill -0 "$pid"
result $? "trusted_client_unaffected_and_garnet_serves"
