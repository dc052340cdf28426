#!/bin/sh
# SPDX-License-Identifier: MIT
# A man page must render with no groff warning at all.
# usage: check-man-page.sh GROFF PAGE
set -u
out=$(LC_ALL=C.UTF-8 "$1" -man -ww -z -Tutf8 "$2" 2>&1)
status=$?
if [ $status -ne 0 ] || [ -n "$out" ]; then
	printf '%s\n' "$out"
	exit 1
fi
