# SPDX-License-Identifier: MIT
# The session of the portal tests, sourced by portal-test.sh (on the host) and dmabuf-guest.sh
# (in a VM with garnet.ko): a private session bus, PipeWire and WirePlumber, and the helpers
# that start garnet with its portal entry, answer its dialog and take screenshots. Expects
# $garnet, $rogue, $policy, $garnet_portal, $portal_file, $screenshooter and $png_equal, and
# finds consumer.py and ../security/lib.sh beside the script that sources it ($0, which lives in
# tests/portal); skips the whole test (TAP "1..0") when a tool of the session is missing.
consumer=$(readlink -f "$(dirname "$0")/consumer.py")
for tool in pipewire wireplumber dbus-daemon gst-launch-1.0 /usr/libexec/xdg-desktop-portal; do
	if ! command -v "$tool" >/dev/null 2>&1; then
		echo "1..0 # SKIP $tool is not installed (data/debian-packages.txt lists it)"
		exit 0
	fi
done
if ! /usr/bin/python3 -c 'import dbus, gi' 2>/dev/null ||
	! gst-inspect-1.0 pipewiresrc >/dev/null 2>&1; then
	echo "1..0 # SKIP python3-dbus, python3-gi or gstreamer1.0-pipewire is not installed"
	exit 0
fi
. "$(dirname "$0")/../security/lib.sh"
failure_logs="$work/log $work/pipewire.log $work/wireplumber.log"

# The session the application lives in: its bus, PipeWire, and the frontend finding
# garnet-portal through garnet.portal (UseIn=garnet).
mkdir -p "$work/portals" "$work/home"
cp "$portal_file" "$work/portals/"
export HOME="$work/home" XDG_CURRENT_DESKTOP=garnet XDG_DESKTOP_PORTAL_DIR="$work/portals"
export DBUS_SESSION_BUS_ADDRESS="unix:path=$work/bus"
export PIPEWIRE_RUNTIME_DIR="$XDG_RUNTIME_DIR" GST_REGISTRY="$work/gst-registry.bin"
dbus-daemon --session --address="$DBUS_SESSION_BUS_ADDRESS" --nofork >"$work/dbus.log" 2>&1 &
bus_pid=$!
wait_for_bus() {
	i=0
	while [ $i -lt 50 ]; do
		[ -S "$work/bus" ] && return 0
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}
wait_for_bus || { echo "Bail out! no session bus"; exit 1; }
pipewire >"$work/pipewire.log" 2>&1 &
pw_pid=$!
wait_for_pipewire() {
	i=0
	while [ $i -lt 50 ]; do
		[ -S "$XDG_RUNTIME_DIR/pipewire-0" ] && return 0
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}
wait_for_pipewire || { echo "Bail out! pipewire did not start"; tail "$work/pipewire.log"; exit 1; }
wireplumber >"$work/wireplumber.log" 2>&1 &
wp_pid=$!
frontend_pid=
stop_session() {
	kill $frontend_pid $wp_pid $pw_pid $bus_pid 2>/dev/null
}
trap 'stop_session; cleanup' EXIT

# The policy as shipped: applications are asked about screencasts.
cp "$policy" "$work/wmac.policy"
chmod 0644 "$work/wmac.policy"
# The test's hands (garnet_test keys, from the fifo keys) and its eyes (the screenshooter,
# whenever the file shoot appears), both started by garnet in their trusted roles.
rogue=$(readlink -f "$rogue")
cat >"$work/panel.sh" <<SH
exec "$rogue" script <"$work/keys" >"$work/script.out"
SH
# (A shooter of an earlier garnet may still wait: each garnet's waits for its own file.)
sessions=0
write_shooter() {
	cat >"$work/shooter.sh" <<SH
while [ ! -e "$work/shoot$sessions" ]; do sleep 0.1; done
rm "$work/shoot$sessions"
exec "$screenshooter" "\$(cat "$work/shoot.name")" 2>>"$work/shooter.err"
SH
	# The output-config entry makes HEADLESS-1 800x600 once the file outman-goN appears.
	cat >"$work/outman.sh" <<SH
while [ ! -e "$work/outman-go$sessions" ]; do sleep 0.1; done
exec "$rogue" outman "$work/outman.txt" move
SH
}
# A trusted client that holds every privileged global (the input method's entry, as the
# panel's) but is not the portal: it asks garnet_portal_v1 for a cast as if it were.
cat >"$work/im.sh" <<SH
exec "$rogue" portal-capture org.victim.App $$ >"$work/trusted-rogue.txt"
SH
# start_session: garnet with garnet-portal (or $portal_cmd) as its portal entry, a window to
# look at, and the frontend once garnet-portal owns its name.
start_session() {
	sessions=$((sessions + 1))
	write_shooter
	cat >"$work/garnet.ini" <<INI
[security]
policy=$work/wmac.policy
launcher-restarts=10

[launcher]
portal=${portal_cmd:-$garnet_portal}
panel=sh $work/panel.sh
screenshooter=sh $work/shooter.sh
input-method=sh $work/im.sh
output-config=sh $work/outman.sh

[shell]
binding=super+l lock
binding=super+Escape stop-casts
binding=super+c show-casts
cast-list-seconds=${cast_list_seconds:-0}
${extra_ini:-}
INI
	rm -f "$work/keys"
	mkfifo "$work/keys"
	start_garnet --test-mode
	exec 3>"$work/keys"
	open_window window_pid window "$work/window.txt" 400 300 "^keyboard-enter"
	wait_for "$work/out" "${portal_ready:-garnet-portal: serving}" 10 ||
		echo "# the portal entry did not start"
	if [ -z "$frontend_pid" ]; then
		/usr/libexec/xdg-desktop-portal -v >"$work/frontend.log" 2>&1 &
		frontend_pid=$!
		wait_for "$work/frontend.log" "ScreenCast" 10 || echo "# the frontend said nothing"
	fi
}
stop_garnet() {
	kill "$window_pid" 2>/dev/null
	wait "$window_pid" 2>/dev/null
	kill "$pid" 2>/dev/null
	wait "$pid"
	pid=
}

# shoot NAME: garnet's screen as the trusted screenshooter sees it, in NAME.png.
shoot() {
	rm -f "$work/$1.png"
	echo "$work/$1.png" >"$work/shoot.name"
	shots=$(grep -c "launcher screenshooter exited" "$work/log")
	touch "$work/shoot$sessions"
	wait_more "launcher screenshooter exited" "$shots" || echo "# no screenshot"
	# garnet logs the exit when the screenshooter disconnects, before it writes the PNG
	# (renamed into place whole): an ASan build once read the picture before it was there.
	i=0
	while [ ! -e "$work/$1.png" ] && [ $i -lt 100 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	[ -e "$work/$1.png" ] ||
		echo "# no $1.png; the screenshooter said: $(tail -n 2 "$work/shooter.err" 2>/dev/null)"
}
# wait_more PATTERN COUNT: until garnet's log holds PATTERN more than COUNT times (30 s).
wait_more() {
	i=0
	while [ $i -lt 300 ]; do
		[ "$(grep -c -- "$1" "$work/log")" -gt "$2" ] && return 0
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}
# red_at IMAGE X Y: the pixel is the indicator's red.
red_at() {
	/usr/bin/python3 - "$1" "$2" "$3" "$png_equal" <<'PY'
import importlib.util, sys
spec = importlib.util.spec_from_file_location('png_equal', sys.argv[4])
m = importlib.util.module_from_spec(spec)
spec.loader.exec_module(m)
w, h, px = m.decode(sys.argv[1])
x, y = int(sys.argv[2]), int(sys.argv[3])
r, g, b = px[y][x * 3:x * 3 + 3] if isinstance(px[0], (bytes, bytearray)) else px[y * w + x][:3]
print(f'# pixel {r},{g},{b}')
sys.exit(0 if r > 200 and g < 40 and b < 40 else 1)
PY
}
# list_at IMAGE ROWS: garnet's list of who records, under the indicator, is on screen with
# ROWS lines of casts (0: no list): its body colour down to the last line, not below.
list_at() {
	/usr/bin/python3 - "$1" "$2" "$png_equal" <<'PY'
import importlib.util, sys
spec = importlib.util.spec_from_file_location('png_equal', sys.argv[3])
m = importlib.util.module_from_spec(spec)
spec.loader.exec_module(m)
w, h, px = m.decode(sys.argv[1])
rows = int(sys.argv[2])
def body(y):
    # Left of the indicator, inside the list's frame (cast-list.c: 480 wide, right edge
    # 8 from the output's, top 32; 10 + 22 down to the first line, 20 a line).
    return all(tuple(px[y][x * 3:x * 3 + 3]) == (0x20, 0x24, 0x28) for x in (540, 700, 1000))
bottoms = [y for y in range(32, 300) if body(y)]
print('# list body rows', (bottoms[0], bottoms[-1]) if bottoms else None)
want = 32 + 10 + 22 + 20 * rows + 10 - 3 if rows else None
sys.exit(0 if (bottoms[-1] if bottoms else None) == want else 1)
PY
}
# crop_equal PART WHOLE X Y: PART is exactly WHOLE's pixels from X, Y on, at PART's size.
crop_equal() {
	/usr/bin/python3 - "$@" "$png_equal" <<'PY'
import importlib.util, sys
spec = importlib.util.spec_from_file_location('png_equal', sys.argv[5])
m = importlib.util.module_from_spec(spec)
spec.loader.exec_module(m)
w, h, part = m.decode(sys.argv[1])
_, _, whole = m.decode(sys.argv[2])
x, y = int(sys.argv[3]), int(sys.argv[4])
crop = [row[x * 3:(x + w) * 3] for row in whole[y:y + h]]
bad = [r for r in range(h) if r >= len(crop) or part[r] != crop[r]]
print(f'# part {w}x{h}; rows differing from the whole at {x},{y}: {len(bad)}')
sys.exit(0 if not bad else 1)
PY
}
# png_size IMAGE: "W H".
png_size() {
	/usr/bin/python3 - "$1" "$png_equal" <<'PY'
import importlib.util, sys
spec = importlib.util.spec_from_file_location('png_equal', sys.argv[2])
m = importlib.util.module_from_spec(spec)
spec.loader.exec_module(m)
w, h, _ = m.decode(sys.argv[1])
print(w, h)
PY
}
# drag X1 Y1 X2 Y2: the user drags the pointer from X1,Y1 to X2,Y2 (left button held).
drag() {
	key "motion $1 $2"
	key "press"
	key "motion $3 $4"
	key "release"
}
# direct_call INTERFACE METHOD ARG...: calls garnet-portal's impl.portal.INTERFACE itself, as
# any program on the bus could (the string ARGs, then empty options); "refused ERROR" or
# "accepted".
direct_call() {
	/usr/bin/python3 - "$@" <<'PY' 2>&1
import dbus, sys
bus = dbus.SessionBus()
impl = dbus.Interface(bus.get_object('org.freedesktop.impl.portal.desktop.garnet',
                                     '/org/freedesktop/portal/desktop'),
                      'org.freedesktop.impl.portal.' + sys.argv[1])
try:
    getattr(impl, sys.argv[2])(*sys.argv[3:], dbus.Dictionary({}, signature='sv'))
    print('accepted')
except dbus.DBusException as e:
    print('refused', e.get_dbus_name())
PY
}
# answer KEY: once garnet's dialog asks, the user presses KEY (evdev code: 21 y, 49 n).
asks=0
answer() {
	wait_more "consent: asking the user" "$asks" || echo "# garnet did not ask"
	asks=$((asks + 1))
	sleep 1 # the dialog takes answers after half a second
	echo "key $1" >&3
}
key() {
	echo "$1" >&3
	sleep 0.5
}
# choose_and_answer TEXT [SEEN]: once garnet's dialog asks, Tab until the log says (more
# than SEEN times) that TEXT is to be shared, then yes.
choose_and_answer() {
	wait_more "consent: asking the user" "$asks" || echo "# garnet did not ask"
	asks=$((asks + 1))
	sleep 1
	tabs=0
	while [ $tabs -lt 6 ] && [ "$(grep -c "to share: $1" "$work/log")" -le "${2:-0}" ]; do
		key "key 15"
		tabs=$((tabs + 1))
	done
	# A Tab rearms the dialog: a yes within half a second of it answers nothing and starts
	# the wait again (a loaded machine once sent it that soon, and the question hung).
	sleep 1
	echo "key 21" >&3
}
# start_backend_session VERSION OUT: garnet with garnet-rogue portal-backend as its portal
# entry, binding garnet_portal_v1 at VERSION, its answers appended to OUT; once the caller
# opens fd 4 on $work/backend-in, each line written there is its command. (A backend that
# garnet disconnects is started again and asks again, unanswered: the questions are counted
# anew.)
start_backend_session() {
	rm -f "$work/backend-in"
	mkfifo "$work/backend-in"
	cat >"$work/backend.sh" <<SH
ROGUE_PORTAL_VERSION=$1 exec "$rogue" portal-backend $$ <"$work/backend-in" >>"$2"
SH
	asks=$(cat "$work/log" 2>/dev/null | grep -c "consent: asking the user")
	portal_cmd="sh $work/backend.sh" portal_ready=WAYLAND_DISPLAY
	start_session
	unset portal_cmd portal_ready
}
