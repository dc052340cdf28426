#!/bin/sh
# SPDX-License-Identifier: MIT
# Asking for a module the kernel does not ship fails clearly, naming it, before anything boots.
# usage: test-missing-module.sh GARNET_VM
set -u
out=$("$1" --module garnet_no_such_module -- true 2>&1)
rc=$?
echo "$out"
[ "$rc" -eq 126 ] || { echo "FAIL: expected exit status 126, got $rc"; exit 1; }
echo "$out" | grep -q "module 'garnet_no_such_module' is not in" ||
	{ echo "FAIL: the message does not name the module"; exit 1; }
echo "PASS"
