#!/bin/sh
# SPDX-License-Identifier: MIT
# garnet's `mode` parameter: a bad value fails the load with a message naming it; a good one
# becomes the connector's preferred mode (a size outside the standard list gets its own mode).
# Reloads garnet.ko (usage: kms-mode-param.sh [GARNET_KO], default kernel/garnet.ko) and
# leaves it loaded with its defaults.
set -u
ko=${1:-kernel/garnet.ko}
fail() { echo "FAIL: $*"; exit 1; }
[ -f "$ko" ] || fail "no module file $ko"
command -v modetest >/dev/null || { echo "modetest is not installed (libdrm-tests)"; exit 77; }

preferred() { modetest -M garnet -c | awk '/preferred/ { print $2 }' | sort -u | tr '\n' ' '; }
reload() {
	rmmod garnet || fail "garnet does not unload"
	insmod "$ko" "$@"
}

for bad in banana 1024x 4000x3000 100x100 1024x768x2; do
	if reload "mode=$bad" 2>/dev/null; then
		fail "mode=$bad was accepted"
	fi
	dmesg | grep -q "garnet: mode=$bad" || fail "no message naming mode=$bad"
	insmod "$ko" || fail "garnet does not load with its defaults"
done
echo "bad values refused"

reload mode=1024x768 || fail "mode=1024x768 refused"
[ "$(preferred)" = "1024x768 " ] || fail "preferred mode is '$(preferred)', expected 1024x768"
[ "$(cat /sys/module/garnet/parameters/mode)" = 1024x768 ] || fail "parameter not readable"

reload mode=1000x700 || fail "mode=1000x700 refused"
[ "$(preferred)" = "1000x700 " ] || fail "preferred mode is '$(preferred)', expected 1000x700"

reload || fail "garnet does not load with its defaults"
[ "$(preferred)" = "1280x800 " ] || fail "default preferred mode is '$(preferred)'"
echo "PASS"
