#!/bin/sh
# SPDX-License-Identifier: MIT
# Side by side: garnet, Weston 10 (headless, pixman) and sway 1.7 (headless, pixman), each started
# the same way (one output, 60 Hz, 1920x1080 unless -g), each serving in turn:
#   - weston-presentation-shm -f (a 250x250 window): median commit-to-present, present-to-present,
#     frames presented, frames missed;
#   - fullscreen-shm (tests/bench/fullscreen-shm.c: a fullscreen window redrawn whole every
#     frame): frames per second, frames missed, compositor CPU seconds per minute;
#   - ten weston-simple-shm windows: compositor CPU seconds per minute, its RSS at the end;
#   - an idle desktop: compositor CPU seconds per minute.
# Prints one table of medians over the repetitions with the ratios to Weston; -o also writes
# every figure (median, spread, values, commit, versions) as JSON for tests/bench/compare.py.
# Compositors that are not installed are skipped.
# -d: on the DRM backend instead, each compositor as the session on tty1 at its output's mode
# (in a VM guest: tests/bench/vm-side-by-side.sh); -k also prints every sample as a "sample: "
# line; -t FILE measures nothing and makes the table (and -o) of the samples in FILE, -s, -r
# and -g then only naming how they were measured.
# usage: side-by-side.sh [-s SECONDS] [-r REPETITIONS] [-g WIDTHxHEIGHT] [-o OUT.json]
#                        [-c "garnet weston sway"] [-F FULLSCREEN_CLIENT] [-d] [-k]
#                        [-t FILE] [GARNET]
set -u
seconds=20
reps=1
size=1920x1080
out=
which="garnet weston sway"
fullscreen=
drm=
backend=headless
keep=
table_of=
while getopts s:r:g:o:c:F:dkt: opt; do
	case $opt in
	s) seconds=$OPTARG ;;
	r) reps=$OPTARG ;;
	g) size=$OPTARG ;;
	o) out=$OPTARG ;;
	c) which=$OPTARG ;;
	F) fullscreen=$OPTARG ;;
	d) drm=1 backend=drm ;;
	k) keep=1 ;;
	t) table_of=$OPTARG ;;
	*) sed -n 's/^# usage: /usage: /p; s/^#                        /                        /p' "$0" >&2
	   exit 2 ;;
	esac
done
shift $((OPTIND - 1))
garnet=${1:-garnet}
width=${size%x*}
height=${size#*x}
here=$(cd "$(dirname "$0")" && pwd)
# The fullscreen client: -F, else the one built next to garnet (build/tests/bench), else PATH.
if [ -z "$fullscreen" ]; then
	fullscreen=$(dirname "$(command -v "$garnet" || echo .)")/../tests/bench/fullscreen-shm
	[ -x "$fullscreen" ] || fullscreen=$(command -v fullscreen-shm || true)
fi
hz=$(getconf CLK_TCK)
# The commit measured is the one checked out when the run starts.
commit=$(python3 -c 'import sys; sys.path.insert(0, sys.argv[1]); import benchjson; print(benchjson.git_commit(sys.argv[2]))' "$here" "$here/../..")
work=$(mktemp -d "${TMPDIR:-/tmp}/garnet-bench-XXXXXX")
chmod a+rx "$work"
trap 'rm -rf "$work"' EXIT
unset DISPLAY WAYLAND_DISPLAY

# CPU time (user + system) of a process, in clock ticks.
cpu_ticks() {
	awk '{ print $14 + $15 }' "/proc/$1/stat" 2>/dev/null || echo 0
}

# CPU seconds per minute of process $pid between two tick counts over $seconds.
per_minute() {
	awk -v t=$(($2 - $1)) -v hz="$hz" -v s="$seconds" 'BEGIN { printf "%.2f", t / hz * 60 / s }'
}

# On the DRM backend: the compositor as the session on tty1 (garnet through seatd, Weston 10
# through its own launcher as root); pid is found once its socket is there.
start_on_drm() {
	case $name in
	garnet) cmd="'$garnet' --backend=drm --no-config --socket=bench" ;;
	weston) cmd="weston --backend=drm-backend.so --use-pixman --tty=1 --socket=bench --no-config" ;;
	*) echo "# $name has no DRM mode here" >&2; return 1 ;;
	esac
	busybox openvt -c 1 -s -- sh -c "exec $cmd >'$work/$name.log' 2>&1"
}

# Starts compositor NAME in its own runtime directory; sets pid, WAYLAND_DISPLAY.
start() {
	name=$1
	export XDG_RUNTIME_DIR="$work/$name-$rep"
	mkdir -m 0700 "$XDG_RUNTIME_DIR"
	[ -n "$drm" ] && { start_on_drm || return 1; }
	[ -z "$drm" ] && case $name in
	garnet)
		"$garnet" --no-config --socket=bench --width="$width" --height="$height" \
			>"$work/$name.log" 2>&1 &
		;;
	weston)
		weston --backend=headless-backend.so --use-pixman --width="$width" \
			--height="$height" --socket=bench --no-config >"$work/$name.log" 2>&1 &
		;;
	sway)
		printf 'output HEADLESS-1 mode %s@60Hz\n' "$size" >"$work/sway.cfg"
		# sway refuses to run as root: run it as nobody, its runtime directory handed over.
		as=
		if [ "$(id -u)" = 0 ]; then
			chown 65534:65534 "$XDG_RUNTIME_DIR"
			as="setpriv --reuid=65534 --regid=65534 --clear-groups"
		fi
		WLR_BACKENDS=headless WLR_LIBINPUT_NO_DEVICES=1 WLR_RENDERER=pixman \
			WLR_HEADLESS_OUTPUTS=1 $as sway -c "$work/sway.cfg" >"$work/$name.log" 2>&1 &
		;;
	esac
	pid=
	[ -z "$drm" ] && pid=$!
	i=0
	while [ $i -lt 300 ]; do
		sock=$(find "$XDG_RUNTIME_DIR" -maxdepth 1 -type s -name 'wayland-*' -o -type s \
			-name bench | head -n 1)
		[ -n "$sock" ] && break
		sleep 0.1
		i=$((i + 1))
	done
	[ -n "$drm" ] && pid=$(pidof -s "$name")
	if [ -z "$sock" ] || [ -z "$pid" ]; then
		echo "# $name did not start:" >&2
		sed 's/^/#   /' "$work/$name.log" >&2
		[ -n "$pid" ] && kill "$pid" 2>/dev/null
		return 1
	fi
	export WAYLAND_DISPLAY="${sock##*/}"
	sleep 1
}

stop() {
	kill -TERM "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	# Not a child when started on tty1: its going is awaited, the VT and DRM master freed.
	while kill -0 "$pid" 2>/dev/null; do sleep 0.1; done
}

# Median of the numbers on stdin ("-" when none).
median() {
	sort -n | awk '{ v[NR] = $1 } END { if (NR == 0) print "-"; else if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# One sample: FIGURE VALUE UNIT BETTER [NOISE] (tests/bench/benchjson.py); an empty VALUE (the
# client printed nothing) is "-".
sample() {
	figure=$1
	value=${2:--}
	shift 2
	echo "$name/$figure $value $*" >>"$work/samples"
	[ -z "$keep" ] || echo "sample: $name/$figure $value $*"
}

measure() {
	name=$1
	start "$name" || return 1
	# Presentation: c2p in ms, p2p in us; a missed frame is a present-to-present gap of more
	# than 1.5 refresh periods (each whole period beyond the first counts once).
	timeout -s INT "$seconds" weston-presentation-shm -f >"$work/$name.pres" 2>&1
	p2ps=$(sed -n 's/.* p2p *\([0-9]*\) us.*/\1/p' "$work/$name.pres")
	sample c2p "$(sed -n 's/.* c2p *\([0-9]*\) ms.*/\1/p' "$work/$name.pres" | median)" ms lower
	sample p2p "$(echo "$p2ps" | awk '$1 > 0' | median)" us lower
	sample frames "$(grep -c ' p2p ' "$work/$name.pres")" frames higher
	sample missed "$(echo "$p2ps" |
		awk '$1 > 25000 { m += int(($1 + 8333) / 16667) - 1 } END { print m + 0 }')" \
		frames lower 1

	# A fullscreen client redrawn every frame.
	if [ -n "$fullscreen" ] && [ -x "$fullscreen" ]; then
		before=$(cpu_ticks "$pid")
		"$fullscreen" -t "$seconds" >"$work/$name.fs" 2>&1 ||
			sed 's/^/# '"$name"': /' "$work/$name.fs" >&2
		after=$(cpu_ticks "$pid")
		sample fs_cpu "$(per_minute "$before" "$after")" s/min lower
		sample fs_fps "$(awk -v s="$seconds" '{ for (i = 1; i < NF; i++) if ($i == "frames")
			printf "%.1f", $(i + 1) / s }' "$work/$name.fs")" fps higher
		sample fs_missed "$(awk '{ for (i = 1; i < NF; i++) if ($i == "missed")
			print $(i + 1) }' "$work/$name.fs")" frames lower 1
	fi

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
	sample shm10_cpu "$(per_minute "$before" "$after")" s/min lower
	sample shm10_rss "$(awk '/^VmRSS:/ { printf "%.1f", $2 / 1024 }' "/proc/$pid/status")" \
		MB lower
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
	sample idle_cpu "$(per_minute "$before" "$after")" s/min lower 0.05
	stop
}

: >"$work/samples"
ran=
rep=1
if [ -n "$table_of" ]; then
	cp "$table_of" "$work/samples" || exit 1
	ran=$(cut -d/ -f1 "$work/samples" | awk '!seen[$1]++' | tr '\n' ' ')
fi
while [ -z "$table_of" ] && [ "$rep" -le "$reps" ]; do
	for c in $which; do
		bin=$c
		[ "$c" = garnet ] && bin=$garnet
		command -v "$bin" >/dev/null || continue
		measure "$c" && case " $ran " in *" $c "*) ;; *) ran="$ran $c" ;; esac
	done
	rep=$((rep + 1))
done

if [ -n "$out" ]; then
	python3 "$here/benchjson.py" "$out" --name side-by-side --commit "$commit" \
		--config "size=$size" --config "refresh=60" --config "seconds=$seconds" \
		--config "repetitions=$reps" --config "renderer=pixman" \
		--config "backend=$backend" \
		--version "garnet=$garnet" \
		--version "weston=$(weston --version 2>/dev/null | awk '{ print $2 }')" \
		--version "sway=$(sway --version 2>/dev/null | awk '{ print $3 }')" \
		--version "pixman=$(pkg-config --modversion pixman-1 2>/dev/null)" \
		--version "wayland=$(pkg-config --modversion wayland-server 2>/dev/null)" \
		<"$work/samples" || exit 1
fi

# The table: medians over the repetitions, ratios to Weston.
for c in $ran; do
	row=$c
	for f in c2p p2p frames missed fs_fps fs_missed fs_cpu shm10_cpu shm10_rss idle_cpu; do
		row="$row $(awk -v f="$c/$f" '$1 == f { print $2 }' "$work/samples" | grep -v '^-$' |
			median)"
	done
	echo "$row"
done | awk -v s="$seconds" -v r="$reps" -v size="$size" '
	{ row[NR] = $0; if ($1 == "weston") for (i = 2; i <= NF; i++) w[i] = $i }
	function ratio(i, v) { return (w[i] + 0 > 0 && v != "-") ? sprintf("%.2f", v / w[i]) : "-" }
	END {
		printf "%s 60 Hz, pixman, %d s per measurement, median of %d\n", size, s, r
		printf "%-7s %6s %7s %6s %6s | %6s %6s %6s | %7s %6s | %6s | %5s %5s %5s %5s %5s\n", \
			"", "c2p ms", "p2p us", "frames", "missed", "fs fps", "missed", "fs cpu", \
			"10xshm", "RSS MB", "idle", "c2p/W", "fs/W", "shm/W", "RSS/W", "idle/W"
		for (n = 1; n <= NR; n++) {
			split(row[n], f, " ")
			printf "%-7s %6s %7s %6s %6s | %6s %6s %6s | %7s %6s | %6s | %5s %5s %5s %5s %5s\n", \
				f[1], f[2], f[3], f[4], f[5], f[6], f[7], f[8], f[9], f[10], f[11], \
				ratio(2, f[2]), ratio(8, f[8]), ratio(9, f[9]), ratio(10, f[10]), \
				ratio(11, f[11])
		}
		print "cpu columns: compositor CPU s/min (fs: fullscreen client; 10xshm: ten simple-shm windows; RSS with them)"
	}'
