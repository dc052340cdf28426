#!/bin/sh
# SPDX-License-Identifier: MIT
# Stands in for a VM test that cannot run on this machine: says why and reports a skip to meson.
# usage: skip.sh REASON
echo "SKIP: $1"
exit 77
