#!/bin/sh
# SPDX-License-Identifier: MIT
# Side-by-side baseline: garnet, Weston 10 (headless, pixman) and sway 1.7 (headless, pixman),
# each started the same way at 1920x1080 60 Hz, each serving in turn:
#   - weston-presentation-shm -f: median commit-to-present, present-to-present, frames missed;
#   - ten weston-simple-shm windows: compositor CPU seconds per minute;
#   - an idle desktop: compositor CPU seconds per minute.
# Prints one table with the ratios to Weston. Compositors that are not installed are skipped.
# usage: side-by-side.sh [-s SECONDS] [GARNET]   (SECONDS per measurement, default 20)
set -u
seconds=20
if [ "${1:-}" = "-s" ]; then
	seconds=$2
	shift 2
fi
garnet=${1:-garnet}
hz=$(getconf CLK_TCK)
work=$(mktemp -d "${TMPDIR:-/tmp}/garnet-bench-XXXXXX")
trap 'rm -rf "$work"' EXIT
unset DISPLAY WAYLAND_DISPLAY

# CPU time (user + system) of a process, in clock ticks.
cpu_ticks() {
	awk '{ print $14 + $15 }' "/proc/$1/stat" 2>/dev/null || echo 0
}

# Starts compositor NAME in its own runtime directory; sets pid, WAYLAND_DISPLAY.
start() {
	name=$1
	export XDG_RUNTIME_DIR="$work/$name"
	mkdir -m 0700 "$XDG_RUNTIME_DIR"
	case $name in
	garnet)
		"$garnet" --no-config --socket=bench --width=1920 --height=1080 \
			>"$work/$name.log" 2>&1 &
		;;
	weston)
		weston --backend=headless-backend.so --use-pixman --width=1920 --height=1080 \
			--socket=bench --no-config >"$work/$name.log" 2>&1 &
		;;
	sway)
		printf 'output HEADLESS-1 mode 1920x1080@60Hz\n' >"$work/sway.cfg"
		# sway refuses to run as root: run it as nobody, its runtime directory handed over.
		as=
		if [ "$(id -u)" = 0 ]; then
			chown 65534:65534 "$XDG_RUNTIME_DIR"
			chmod a+rx "$work"
			as="setpriv --reuid=65534 --regid=65534 --clear-groups"
		fi
		WLR_BACKENDS=headless WLR_LIBINPUT_NO_DEVICES=1 WLR_RENDERER=pixman \
			WLR_HEADLESS_OUTPUTS=1 $as sway -c "$work/sway.cfg" >"$work/$name.log" 2>&1 &
		;;
	esac
	pid=$!
	i=0
	while [ $i -lt 100 ]; do
		sock=$(find "$XDG_RUNTIME_DIR" -maxdepth 1 -type s -name 'wayland-*' -o -type s \
			-name bench | head -n 1)
		[ -n "$sock" ] && break
		sleep 0.1
		i=$((i + 1))
	done
	if [ -z "$sock" ]; then
		echo "# $name did not start:" >&2
		sed 's/^/#   /' "$work/$name.log" >&2
		kill "$pid" 2>/dev/null
		return 1
	fi
	export WAYLAND_DISPLAY="${sock##*/}"
	sleep 1
}

stop() {
	kill -TERM "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
}

# Median of the numbers on stdin.
median() {
	sort -n | awk '{ v[NR] = $1 } END { if (NR == 0) print "-"; else if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

measure() {
	name=$1
	start "$name" || return 1
	# Presentation: c2p in ms, p2p in us; a missed frame is a present-to-present gap of more
	# than 1.5 refresh periods (each whole period beyond the first counts once).
	timeout -s INT "$seconds" weston-presentation-shm -f >"$work/$name.pres" 2>&1
	c2p=$(sed -n 's/.* c2p *\([0-9]*\) ms.*/\1/p' "$work/$name.pres" | median)
	p2p=$(sed -n 's/.* p2p *\([0-9]*\) us.*/\1/p' "$work/$name.pres" | awk '$1 > 0' | median)
	frames=$(grep -c ' p2p ' "$work/$name.pres")
	missed=$(sed -n 's/.* p2p *\([0-9]*\) us.*/\1/p' "$work/$name.pres" |
		awk '$1 > 25000 { m += int(($1 + 8333) / 16667) - 1 } END { print m + 0 }')

	# Ten simple-shm windows.
	i=0
	while [ $i -lt 10 ]; do
		weston-simple-shm >/dev/null 2>&1 &
		eval "shm$i=\$!"
		i=$((i + 1))
	done
	sleep 1
	before=$(cpu_ticks "$pid")
	sleep "$seconds"
	after=$(cpu_ticks "$pid")
	busy=$(awk -v t=$((after - before)) -v hz="$hz" -v s="$seconds" \
		'BEGIN { printf "%.2f", t / hz * 60 / s }')
	i=0
	while [ $i -lt 10 ]; do
		eval "kill \$shm$i" 2>/dev/null
		eval "wait \$shm$i" 2>/dev/null
		i=$((i + 1))
	done

	# Idle desktop.
	sleep 1
	before=$(cpu_ticks "$pid")
	sleep "$seconds"
	after=$(cpu_ticks "$pid")
	idle=$(awk -v t=$((after - before)) -v hz="$hz" -v s="$seconds" \
		'BEGIN { printf "%.2f", t / hz * 60 / s }')
	stop
	echo "$name $c2p $p2p $frames $missed $busy $idle" >>"$work/results"
}

: >"$work/results"
command -v "$garnet" >/dev/null && measure garnet
command -v weston >/dev/null && measure weston
command -v sway >/dev/null && measure sway

awk -v s="$seconds" '
	{ row[NR] = $0; if ($1 == "weston") { wc2p = $2; wp2p = $3; wbusy = $6; widle = $7 } }
	function ratio(v, w) { return (w + 0 > 0 && v != "-") ? sprintf("%.2f", v / w) : "-" }
	END {
		printf "1920x1080 60 Hz, pixman, %d s per measurement\n", s
		printf "%-8s %9s %10s %7s %7s %12s %12s | %6s %6s %6s %6s\n", "", "c2p ms", \
			"p2p us", "frames", "missed", "10xshm s/min", "idle s/min", "c2p/W", \
			"p2p/W", "shm/W", "idle/W"
		for (i = 1; i <= NR; i++) {
			split(row[i], f, " ")
			printf "%-8s %9s %10s %7s %7s %12s %12s | %6s %6s %6s %6s\n", f[1], f[2], \
				f[3], f[4], f[5], f[6], f[7], ratio(f[2], wc2p), ratio(f[3], wp2p), \
				ratio(f[6], wbusy), ratio(f[7], widle)
		}
	}' "$work/results"
