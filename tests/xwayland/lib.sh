# SPDX-License-Identifier: MIT
# Shell helpers of the Xwayland tests (sourced; $x11 is garnet-x11).

# x_env FILE [ARGS...]: a new domain (garnet-x11 ARGS --print): its DISPLAY and XAUTHORITY as
# shell assignments in FILE, garnet-x11's errors in FILE.err
x_env() {
	out=$1
	shift
	"$x11" "$@" --print >"$out.raw" 2>"$out.err" || return 1
	sed -n 's/^\(DISPLAY\|XAUTHORITY\)=\(.*\)$/\1="\2"/p' "$out.raw" >"$out"
	grep -q DISPLAY "$out"
}
# in_env FILE CMD...: runs CMD with the display of FILE (an X client of that domain)
in_env() {
	(
		. "$1"
		shift
		export DISPLAY XAUTHORITY
		exec "$@"
	)
}
