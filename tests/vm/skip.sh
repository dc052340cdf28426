#!/bin/sh
# SPDX-License-Identifier: MIT
# Stands in for a test that cannot run on this machine (a VM test without QEMU, wlcs not
# installed): says why and reports a skip to meson.
# usage: skip.sh REASON
echo "SKIP: $1"
exit 77
