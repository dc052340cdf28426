# SPDX-License-Identifier: MIT
# What ./run starts, from where it was started (sourced by ./run and by its test).
# run_choice TTY WAYLAND_DISPLAY STDIN_IS_TERMINAL STDOUT_IS_TERMINAL prints one of:
#   drm       on a Linux VT (TTY is /dev/ttyN): garnet is the desktop session
#   wayland   inside a Wayland desktop: garnet in a window there
#   vm        on any other terminal: the demo VM, its screen on VNC
#   headless  without a terminal (CI, a pipe): the headless demo and its screenshot
# The terminal arguments are 1 or 0; TTY is what tty(1) printed (empty when none).
run_choice()
{
	if [ "$3" = 1 ]; then
		case "$1" in
		/dev/tty[0-9]*)
			echo drm
			return
			;;
		esac
	fi
	if [ -n "$2" ]; then
		echo wayland
	elif [ "$3" = 1 ] && [ "$4" = 1 ]; then
		echo vm
	else
		echo headless
	fi
}
