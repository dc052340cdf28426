#!/bin/sh
# SPDX-License-Identifier: MIT
# What ./run starts from each kind of place it may be started.
# usage: run-choice-test.sh SOURCE_DIR   (TAP output)
set -u
. "$1/tools/run-choice.sh"
n=0
expect() { # NAME EXPECTED TTY WAYLAND_DISPLAY STDIN STDOUT
	n=$((n + 1))
	got=$(run_choice "$3" "$4" "$5" "$6")
	if [ "$got" = "$2" ]; then
		echo "ok $n $1"
	else
		echo "not ok $n $1: got '$got', expected '$2'"
	fi
}
echo "1..8"
expect "on_a_vt_the_drm_backend" drm /dev/tty2 "" 1 1
expect "on_a_vt_even_with_a_stale_wayland_display" drm /dev/tty1 wayland-0 1 1
expect "a_vt_that_is_not_stdin_does_not_count" headless /dev/tty2 "" 0 0
expect "inside_a_wayland_desktop_a_window" wayland /dev/pts/3 wayland-1 1 1
expect "wayland_desktop_without_a_terminal_still_a_window" wayland "" wayland-1 0 0
expect "other_terminal_the_demo_vm" vm /dev/pts/0 "" 1 1
expect "output_piped_the_headless_demo" headless /dev/pts/0 "" 1 0
expect "no_terminal_the_headless_demo" headless "" "" 0 0
