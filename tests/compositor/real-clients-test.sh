#!/bin/sh
# SPDX-License-Identifier: MIT
# Debian's own clients against garnet headless: wl-clipboard (needs a seat with a keyboard and
# focus for new windows) and, when installed, foot. TAP output; absent clients are skipped.
# usage: real-clients-test.sh GARNET
set -u
garnet=$1
work=$(mktemp -d "${TMPDIR:-/tmp}/garnet-clients-XXXXXX")
mkdir -m 0700 "$work/runtime"
export XDG_RUNTIME_DIR="$work/runtime"
export WAYLAND_DISPLAY=garnet-real-clients
"$garnet" --no-config --socket="$WAYLAND_DISPLAY" >"$work/garnet.out" 2>"$work/garnet.err" &
pid=$!
trap 'kill -TERM $pid 2>/dev/null; wait $pid; rm -rf "$work"' EXIT
# garnet says WAYLAND_DISPLAY once it listens (the socket file exists a moment earlier).
i=0
while ! grep -q "WAYLAND_DISPLAY=" "$work/garnet.out" 2>/dev/null && [ $i -lt 200 ]; do
	sleep 0.05
	i=$((i + 1))
done
echo "1..2"

if command -v wl-copy >/dev/null && command -v wl-paste >/dev/null; then
	echo "copied by wl-copy" | timeout 10 wl-copy
	got=$(timeout 10 wl-paste)
	if [ "$got" = "copied by wl-copy" ]; then
		echo "ok 1 wl_clipboard_copies_and_pastes"
	else
		echo "not ok 1 wl_clipboard_copies_and_pastes # got '$got'"
		failed=1
	fi
else
	echo "ok 1 wl_clipboard_copies_and_pastes # SKIP wl-clipboard not installed"
fi

if command -v foot >/dev/null; then
	if timeout 10 foot -e true >"$work/foot.log" 2>&1; then
		echo "ok 2 foot_starts_and_exits"
	else
		sed 's/^/# /' "$work/foot.log"
		echo "not ok 2 foot_starts_and_exits"
		failed=1
	fi
else
	echo "ok 2 foot_starts_and_exits # SKIP foot not installed"
fi
kill -TERM $pid
wait $pid
status=$?
trap 'rm -rf "$work"' EXIT
[ $status -eq 0 ] || { echo "# garnet exited with $status"; sed 's/^/# /' "$work/garnet.err"; exit 1; }
exit ${failed:-0}
