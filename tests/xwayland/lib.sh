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
# pixel FILE X Y: the colour at (X, Y) of a capture (P6), as "r g b"
pixel() {
	python3 - "$1" "$2" "$3" <<'PY'
import sys
data = open(sys.argv[1], "rb").read()
end = data.index(b"\n") + 1
width = int(data[:end].split()[1])
x, y = int(sys.argv[2]), int(sys.argv[3])
o = end + (y * width + x) * 3
print(*data[o:o + 3])
PY
}
# crop CAPTURE X Y WIDTH HEIGHT PNG: a part of a capture (P6) as an 8-bit RGB PNG
crop() {
	python3 - "$@" <<'PY'
import struct, sys, zlib
data = open(sys.argv[1], "rb").read()
end = data.index(b"\n") + 1
width = int(data[:end].split()[1])
x, y, w, h = map(int, sys.argv[2:6])
rows = b"".join(b"\0" + data[end + ((y + r) * width + x) * 3:end + ((y + r) * width + x + w) * 3]
                for r in range(h))
def chunk(kind, body):
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))
open(sys.argv[6], "wb").write(b"\x89PNG\r\n\x1a\n" +
    chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0)) +
    chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))
PY
}
# x_geometry ENV SEARCH...: "X Y WIDTH HEIGHT" of the domain's visible window that xdotool's
# search (--class NAME, --name REGEX) finds, where garnet put it (X is told)
x_geometry() {
	geometry_env=$1
	shift
	in_env "$geometry_env" timeout 10 xdotool search --sync --onlyvisible "$@" \
		getwindowgeometry --shell 2>/dev/null |
		awk -F= '/^X=/ { x = $2 } /^Y=/ { y = $2 } /^WIDTH=/ { w = $2 }
			/^HEIGHT=/ { h = $2 } END { if (w) print x, y, w, h; else exit 1 }'
}
# matches_reference NAME CAPTURE X Y W H: that part of the capture equals $references/NAME.png
# (compared by $png_equal); REGENERATE=1 writes the reference instead.
matches_reference() {
	reference_name=$1
	shift
	crop "$@" "$work/$reference_name.png"
	if [ "${REGENERATE:-0}" = 1 ]; then
		cp "$work/$reference_name.png" "$references/$reference_name.png"
		return 0
	fi
	python3 "$png_equal" "$references/$reference_name.png" "$work/$reference_name.png"
}
