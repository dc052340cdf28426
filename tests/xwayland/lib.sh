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
