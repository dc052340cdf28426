#!/bin/sh
# SPDX-License-Identifier: MIT
# Bad input to the drm and wayland backends and their configuration ends in a clear message and
# status 1, never a crash or a hang; these run anywhere (no VT, seat or display needed).
# usage: test-backend-errors.sh GARNET
set -u
garnet=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export XDG_RUNTIME_DIR=$work/runtime
mkdir -m 700 "$XDG_RUNTIME_DIR"
failed=0
n=0
echo "1..8"

expect_error() { # expect_error NAME MESSAGE GARNET-ARGS...
	name=$1 message=$2
	shift 2
	n=$((n + 1))
	timeout 30 "$garnet" "$@" >"$work/out" 2>&1
	rc=$?
	if [ $rc -eq 1 ] && grep -qF -- "$message" "$work/out"; then
		echo "ok $n - $name"
	else
		echo "not ok $n - $name (status $rc)"
		sed 's/^/# /' "$work/out"
		failed=1
		return 1
	fi
}

expect_error drm_missing_device_is_named "cannot open /nonexistent/card0" \
	--no-config --backend=drm --drm-device=/nonexistent/card0
printf '[libinput]\nenable-tap=true\nnatural-scroll=maybe\n' >"$work/bad-scroll.ini"
expect_error libinput_bad_boolean_names_line "bad-scroll.ini:3: bad key or value 'natural-scroll=maybe'" \
	--config "$work/bad-scroll.ini"
printf '[libinput]\nleft-handed=true\naccel-profile=fast\n' >"$work/bad-profile.ini"
expect_error libinput_bad_accel_profile_names_line \
	"bad-profile.ini:3: bad key or value 'accel-profile=fast'" --config "$work/bad-profile.ini"
printf '[libinput]\naccel-speed=2\n' >"$work/bad-accel.ini"
expect_error libinput_accel_out_of_range "bad-accel.ini:2: bad key or value 'accel-speed=2'" \
	--config "$work/bad-accel.ini"
printf '[output]\nname=Virtual-1\nmode=1024x768@fast\n' >"$work/bad-mode.ini"
expect_error output_bad_refresh_names_line "bad-mode.ini:3: mode '1024x768@fast'" \
	--config "$work/bad-mode.ini"
(unset WAYLAND_DISPLAY; expect_error wayland_without_parent_is_explained "WAYLAND_DISPLAY is not set" \
	--no-config --backend=wayland) || failed=1
n=$((n + 1))
WAYLAND_DISPLAY=own-0 expect_error wayland_refuses_its_own_socket "that is garnet's own socket" \
	--no-config --backend=wayland --socket=own-0
WAYLAND_DISPLAY=no-such-display expect_error wayland_names_missing_parent "no-such-display" \
	--no-config --backend=wayland
exit $failed
