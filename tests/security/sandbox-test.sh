#!/bin/sh
# SPDX-License-Identifier: MIT
# security-context-v1: a sandbox engine's connections carry the engine and app id into their
# libwmac subject; only engines the policy names may make contexts; a sandbox cannot make one
# of its own; ending the context (its close_fd) stops new connections.
# usage: sandbox-test.sh GARNET ROGUE POLICY SANDBOX   (TAP output)
set -u
garnet=$1
rogue=$2
sandbox=$4
. "$(dirname "$0")/lib.sh"
echo "1..9"

# The test's own system policy: the engine is garnet-sandbox from this build, and one app id
# may take screenshots.
sandbox_exe=$(readlink -f "$sandbox")
cat >"$work/wmac.policy" <<POLICY
version 1
allow privileged-global:wp_security_context_manager_v1 exe=$sandbox_exe
allow privileged-global:zwlr_screencopy_manager_v1 sandbox=garnet-sandbox app-id=org.example.Recorder
allow screenshot sandbox=garnet-sandbox app-id=org.example.Recorder
POLICY
cat >"$work/garnet.ini" <<INI
[security]
policy=$work/wmac.policy
INI
start_garnet

# An ordinary client neither sees the manager nor binds it by a guessed name.
wayland-info >"$work/public.txt" 2>&1
! grep -q wp_security_context_manager_v1 "$work/public.txt" &&
	grep -q "'wl_compositor'" "$work/public.txt"
result $? "ordinary_client_does_not_see_the_context_manager"
"$rogue" bind-hidden wp_security_context_manager_v1 >"$work/bind.txt"
[ $? -eq 0 ] && grep -q "protocol error" "$work/bind.txt"
result $? "ordinary_client_cannot_bind_it_by_a_guessed_name"

# Inside a sandbox the ordinary globals are there, the privileged ones and the manager not
# (the engine itself may bind the manager: the policy names its executable).
"$sandbox" --app-id org.example.Viewer -- wayland-info >"$work/inside.txt" 2>&1
status=$?
grep -q "'wl_compositor'" "$work/inside.txt" && [ $status -eq 0 ] &&
	! grep -q "wp_security_context_manager_v1\|zwlr_screencopy_manager_v1" "$work/inside.txt"
result $? "sandboxed_client_sees_ordinary_globals_only"
grep -q "sandboxed client: .*garnet-sandbox.*org.example.Viewer" "$work/log"
result $? "sandboxed_connection_carries_engine_and_app_id"

# Nesting: the sandboxed program runs the engine again; even though the executable is the
# one the policy names, the manager is not offered, and a guessed name is an error.
"$sandbox" --app-id org.example.Viewer -- "$sandbox" --app-id org.example.Recorder -- true \
	>"$work/nested.txt" 2>&1
status=$?
sed 's/^/# nested: /' "$work/nested.txt"
[ $status -eq 2 ] && grep -q "offers no wp_security_context_manager_v1" "$work/nested.txt"
result $? "a_sandbox_cannot_make_a_sandbox"
"$sandbox" --app-id org.example.Viewer -- "$rogue" bind-hidden wp_security_context_manager_v1 \
	>"$work/nested-bind.txt"
[ $? -eq 0 ] && grep -q "protocol error" "$work/nested-bind.txt"
result $? "a_sandbox_cannot_bind_the_manager_by_a_guessed_name"

# The app id decides: the policy lets the recorder capture, not the viewer, although both
# run the very same executable.
"$sandbox" --app-id org.example.Viewer -- "$rogue" screencopy >"$work/viewer.txt"
viewer=$?
"$sandbox" --app-id org.example.Recorder -- "$rogue" screencopy >"$work/recorder.txt"
recorder=$?
sed 's/^/# viewer: /' "$work/viewer.txt"
sed 's/^/# recorder: /' "$work/recorder.txt"
[ $viewer -eq 0 ] && [ $recorder -eq 1 ] && grep -q "got the pixels" "$work/recorder.txt"
result $? "policy_decides_by_app_id_not_executable"

# Ending the context: while garnet-sandbox runs, a second connection on its socket works;
# once its close_fd is closed (garnet-sandbox killed: the kernel closes the pipe), garnet
# stops listening and the socket refuses connections.
"$sandbox" --socket "$work/sandbox.sock" --app-id org.example.Viewer -- sleep 30 \
	>/dev/null 2>&1 &
sandbox_pid=$!
i=0
while [ ! -S "$work/sandbox.sock" ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
WAYLAND_DISPLAY="$work/sandbox.sock" wayland-info >"$work/second.txt" 2>&1
second=$?
sleeper=$(pgrep -P "$sandbox_pid")
kill -KILL "$sandbox_pid"
wait "$sandbox_pid" 2>/dev/null
[ -n "$sleeper" ] && kill "$sleeper"
[ $second -eq 0 ] && grep -q "'wl_compositor'" "$work/second.txt"
result $? "context_accepts_connections_while_it_lives"
# A socket nobody listens on refuses at connect(); one that is still listened on accepts
# into its backlog, so "refused" is asked of the kernel, not inferred from a client failing.
python3 - "$work/sandbox.sock" <<'PY'
import errno, socket, sys, time
for _ in range(50):
    s = socket.socket(socket.AF_UNIX)
    try:
        s.connect(sys.argv[1])
    except ConnectionRefusedError:
        sys.exit(0)
    finally:
        s.close()
    time.sleep(0.1)
print("# the socket still accepts connections")
sys.exit(1)
PY
result $? "closing_close_fd_stops_new_connections"
