#!/bin/sh
# SPDX-License-Identifier: MIT
# Screen casts as dma-bufs of garnet.ko (in a garnet-vm guest that loaded it): the whole portal
# path of portal-test.sh (session bus, PipeWire, WirePlumber, xdg-desktop-portal, garnet's
# dialog), with a consumer that asks for dma-bufs of linear layout as a GPU consumer does. Its
# frames are garnet.ko objects holding garnet's screen; a consumer that cannot take dma-bufs
# (GStreamer's pipewiresrc) still gets shared memory from the same garnet-portal. And a portal
# entry as the attacker: a garnet.ko buffer before version 5, another driver's buffer.
# usage: dmabuf-guest.sh BUILD_DIR SOURCE_DIR   (TAP output)
set -u
build=$(readlink -f "$1")
source_dir=$(readlink -f "$2")
garnet=$build/compositor/garnet
rogue=$build/clients/garnet-rogue
policy=$source_dir/data/wmac.policy
garnet_portal=$build/clients/garnet-portal
portal_file=$source_dir/data/garnet.portal
screenshooter=$build/clients/garnet-screenshooter
png_equal=$source_dir/tests/security/png-equal.py
cursor_consumer=$build/tests/portal/cursor-consumer
# WirePlumber's logind monitor watches these (a booted Debian has them) and WirePlumber quits
# when it cannot: nothing would then link the consumer to the cast.
mkdir -p /run/systemd/seats /run/systemd/sessions /run/systemd/users /run/systemd/machines
. "$source_dir/tests/portal/session.sh"
echo "1..7"

# raw_equal RAW PNG: the BGRx frame RAW is exactly the screenshot PNG.
raw_equal() {
	/usr/bin/python3 - "$1" "$2" "$png_equal" <<'PY'
import importlib.util, sys
spec = importlib.util.spec_from_file_location('png_equal', sys.argv[3])
m = importlib.util.module_from_spec(spec)
spec.loader.exec_module(m)
raw = open(sys.argv[1], 'rb').read()
w, h, rows = m.decode(sys.argv[2])
differ = [(x, y) for y in range(h) for x in range(w)
          if (y * w + x) * 4 + 3 >= len(raw) or
          tuple(raw[(y * w + x) * 4 + 2 - c] for c in range(3)) != tuple(rows[y][x * 3:x * 3 + 3])]
box = (min(x for x, _ in differ), min(y for _, y in differ),
       max(x for x, _ in differ), max(y for _, y in differ)) if differ else ()
print(f'# frame bytes {len(raw)}, screen {w}x{h}, pixels differing {len(differ)} within {box}')
sys.exit(0 if len(raw) == w * h * 4 and not differ else 1)
PY
}

start_session
grep "garnet-portal: frames as dma-bufs" "$work/out" | sed 's/^/# /'

# A GPU consumer: three frames, the second and the third after the pointer moved. Each
# screenshot is taken while the cast still runs (its indicator is on screen).
/usr/bin/python3 "$consumer" "$work/dma" dmabuf "$cursor_consumer" 3 120 >"$work/dma.txt" 2>&1 &
consumer_pid=$!
answer 21
wait_for "$work/dma.txt" "^frame 0" 120
shoot dma-screen0
key "motion 300 200"
wait_for "$work/dma.txt" "^frame 1" 30
shoot dma-screen1
key "motion 100 100"
wait "$consumer_pid"
sed 's/^/# /' "$work/dma.txt"
grep -q "^data 0 dmabuf$" "$work/dma.txt" && grep -q "^data 2 dmabuf$" "$work/dma.txt" &&
	grep -q "garnet-portal: stream [0-9]* in dma-bufs of garnet.ko" "$work/out"
result $? "a_consumer_asking_for_dmabufs_gets_garnet_ko_objects"
raw_equal "$work/dma.0.raw" "$work/dma-screen0.png"
result $? "the_dmabuf_frame_is_garnets_screen"
raw_equal "$work/dma.1.raw" "$work/dma-screen1.png" && ! cmp -s "$work/dma.0.raw" "$work/dma.1.raw"
result $? "a_change_on_screen_comes_as_a_new_dmabuf_frame"

# GStreamer's pipewiresrc, which asks for no modifier: shared memory, the same screen (the
# session held while the screenshot is taken).
/usr/bin/python3 "$consumer" "$work/shm.png" hold >"$work/shm.txt" 2>&1 &
consumer_pid=$!
answer 21
wait_for "$work/shm.txt" "^holding" 120
shoot shm-screen
kill "$consumer_pid" 2>/dev/null
wait "$consumer_pid"
sed 's/^/# /' "$work/shm.txt"
grep "garnet-portal: stream [0-9]* in" "$work/out" | sed 's/^/# /'
/usr/bin/python3 "$png_equal" "$work/shm.png" "$work/shm-screen.png" >"$work/shm-equal.txt" 2>&1 &&
	grep -q "^frame" "$work/shm.txt" &&
	grep -q "garnet-portal: stream [0-9]* in shared memory" "$work/out"
result $? "a_consumer_without_dmabufs_still_gets_shared_memory"
sed 's/^/# /' "$work/shm-equal.txt"
stop_garnet

# The portal entry as the attacker, at version 4 and 5: into garnet.ko's objects (garnet
# writes them from version 5 on) and into vgem's, another driver's (never written).
for version in 4 5; do
	start_backend_session "$version" "$work/gem-v$version.txt"
	exec 4>"$work/backend-in"
	answer 21
	wait_for "$work/gem-v$version.txt" "^granted" 30
	sleep 1
	echo "copy-gem 1" >&4
	wait_for "$work/gem-v$version.txt" "^ready\|^error" 20
	if [ "$version" = 5 ]; then
		# An object the GPU still writes (vgem's fence, never signalled while it matters):
		# failed at once rather than waited for, and garnet copies into the next one.
		echo "copy-busy 1" >&4
		wait_for "$work/gem-v$version.txt" "^failed" 20
		echo "copy-gem 1" >&4
		i=0
		while [ $i -lt 200 ] && [ "$(grep -c "^ready" "$work/gem-v$version.txt")" -lt 2 ]; do
			sleep 0.1
			i=$((i + 1))
		done
		echo "copy-foreign 1" >&4
		wait_for "$work/gem-v$version.txt" "^error" 20
	fi
	exec 4>&-
	sed "s/^/# version $version: /" "$work/gem-v$version.txt"
	garnet_serves_a_new_client
	alive=$?
	stop_garnet
	[ $alive -eq 0 ] || break
done
grep -q "^error 1$" "$work/gem-v4.txt" && grep -q "^ready written [1-9][0-9]*$" "$work/gem-v5.txt"
result $? "garnet_writes_casts_into_its_own_objects_only_from_version_5"
grep -q "^error 1$" "$work/gem-v5.txt" && [ $alive -eq 0 ]
result $? "a_buffer_of_another_driver_is_an_invalid_buffer_and_garnet_goes_on"
sed -n '/^failed after/,$p' "$work/gem-v5.txt" | sed -n 2p | grep -q "^ready written [1-9]" &&
	grep -q "^failed after [0-9]*$" "$work/gem-v5.txt"
result $? "an_object_the_gpu_still_uses_is_answered_failed_not_waited_for"
