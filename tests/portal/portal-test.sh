#!/bin/sh
# SPDX-License-Identifier: MIT
# Screen sharing through the desktop portal: a private session bus, PipeWire and WirePlumber,
# garnet launching garnet-portal, xdg-desktop-portal choosing it (garnet.portal), and an
# application (consumer.py) asking through the public ScreenCast API. garnet's dialog asks
# the user (answered through garnet_test); yes gives a PipeWire stream whose frame is garnet's
# screen, no gives no stream. A running cast shows the indicator, pauses while locked, and the
# stop binding ends it at the consumer.
# usage: portal-test.sh GARNET ROGUE POLICY GARNET_PORTAL PORTAL_FILE SCREENSHOOTER PNG_EQUAL
#        NO_MEMFD CURSOR_CONSUMER
set -u
garnet=$1
rogue=$2
policy=$3
garnet_portal=$(readlink -f "$4")
portal_file=$(readlink -f "$5")
screenshooter=$(readlink -f "$6")
png_equal=$(readlink -f "$7")
no_memfd=$(readlink -f "$8")
cursor_consumer=$(readlink -f "$9")
. "$(dirname "$0")/session.sh"
echo "1..53"

start_session
/usr/bin/python3 "$consumer" "$work/frame.png" stream-until-closed >"$work/consumer.txt" 2>&1 &
consumer_pid=$!
answer 21
wait_for "$work/consumer.txt" "^streaming" 60
sed 's/^/# /' "$work/consumer.txt"
grep -q "^frame" "$work/consumer.txt" && grep -q "^source_type 1$" "$work/consumer.txt"
result $? "an_application_asking_the_portal_gets_a_pipewire_stream_once_the_user_says_yes"
grep -q "the user allowed HEADLESS-1 for pid $consumer_pid exe /usr/bin/python3[0-9.]*$" "$work/log"
result $? "the_question_names_the_application_pid_not_the_portal"

shoot screen
/usr/bin/python3 "$png_equal" "$work/frame.png" "$work/screen.png" >"$work/equal.txt" 2>&1
result $? "the_frame_the_application_receives_is_garnets_screen"
sed 's/^/# /' "$work/equal.txt"
red_at "$work/screen.png" 1006 18
result $? "the_indicator_is_on_screen_while_the_cast_runs"
list_at "$work/screen.png" 1 &&
	grep -q "recording now: pid $consumer_pid exe /usr/bin/python3[0-9.]*: HEADLESS-1$" "$work/log"
result $? "the_indicator_lists_the_application_recording"
# A second application records too: the list names both.
/usr/bin/python3 "$consumer" "$work/second.png" hold >"$work/second.txt" 2>&1 &
second_pid=$!
answer 21
wait_for "$work/second.txt" "^holding" 60
shoot two
list_at "$work/two.png" 2 &&
	grep -q "recording now: pid $second_pid exe /usr/bin/python3[0-9.]*: HEADLESS-1$" "$work/log"
result $? "the_indicator_lists_every_application_recording"

# The user's stop binding (super+Escape): the consumer's stream ends, the indicator goes.
key "combo 125 1"
wait_for "$work/consumer.txt" "^ended" 20
sed 's/^/# /' "$work/consumer.txt" | tail -n 3
grep -q "^streaming" "$work/consumer.txt" && grep -q "^ended" "$work/consumer.txt" &&
	grep -q "^closed" "$work/consumer.txt"
result $? "the_stop_binding_ends_the_stream_at_the_consumer"
wait "$consumer_pid"
wait_for "$work/second.txt" "^closed" 20
kill "$second_pid" 2>/dev/null
shoot after-stop
! red_at "$work/after-stop.png" 1006 18 && list_at "$work/after-stop.png" 0
result $? "no_indicator_once_every_cast_stopped"

# No in the dialog: no stream, no frame.
/usr/bin/python3 "$consumer" "$work/denied.png" >"$work/denied.txt" 2>&1 &
consumer_pid=$!
answer 49
wait "$consumer_pid"
sed 's/^/# /' "$work/denied.txt"
grep -q "^response [12]" "$work/denied.txt" && ! grep -q "^node" "$work/denied.txt" &&
	[ ! -e "$work/denied.png" ] && [ ! -e "$work/denied.png.raw" ]
result $? "no_in_the_dialog_gives_no_stream_and_no_frame"

# An application asking for the picture without the pointer gets garnet's screen without it
# (garnet draws the output again, leaving the pointer out): the two differ, and only where
# the pointer is (at 0,0, garnet's own arrow).
/usr/bin/python3 "$consumer" "$work/hidden.png" hidden >"$work/hidden.txt" 2>&1 &
consumer_pid=$!
answer 21
wait_for "$work/hidden.txt" "^holding" 60
sed 's/^/# /' "$work/hidden.txt"
shoot with-pointer
/usr/bin/python3 - "$work/hidden.png" "$work/with-pointer.png" "$png_equal" <<'PY' >"$work/hidden-check.txt" 2>&1
import importlib.util, sys
spec = importlib.util.spec_from_file_location('png_equal', sys.argv[3])
m = importlib.util.module_from_spec(spec)
spec.loader.exec_module(m)
w, h, a = m.decode(sys.argv[1])
sw, sh, b = m.decode(sys.argv[2])
differ = [(x, y) for y in range(min(h, sh)) for x in range(min(w, sw))
          if a[y][x * 3:x * 3 + 3] != b[y][x * 3:x * 3 + 3]]
box = (max(x for x, _ in differ), max(y for _, y in differ)) if differ else None
print('sizes', (w, h), (sw, sh), 'differ', len(differ), 'within', box)
sys.exit(0 if (w, h) == (sw, sh) and differ and box[0] < 32 and box[1] < 32 else 1)
PY
status=$?
sed 's/^/# /' "$work/hidden-check.txt"
kill "$consumer_pid" 2>/dev/null
wait "$consumer_pid" 2>/dev/null
[ $status -eq 0 ]
result $? "an_application_asking_for_no_pointer_gets_the_screen_without_it"
grep -q "^restore_token no$" "$work/hidden.txt"
result $? "an_application_asking_for_its_grant_to_persist_gets_no_restore_token"

# A part of the screen: the user drags it out in garnet's dialog (a slip of a few pixels
# first, which means the whole output); the application gets exactly those pixels, at
# their size, and the list of who records says which part.
/usr/bin/python3 "$consumer" "$work/region.png" hold >"$work/region.txt" 2>&1 &
consumer_pid=$!
wait_more "consent: asking the user" "$asks" || echo "# garnet did not ask"
asks=$((asks + 1))
sleep 1
shared=$(grep -c "to share: everything on HEADLESS-1" "$work/log")
drag 100 80 105 84
wait_more "to share: everything on HEADLESS-1" "$shared" &&
	! grep -q "to share: a region" "$work/log"
result $? "a_slip_of_a_few_pixels_in_the_dialog_is_no_region"
key "motion 100 80"
sleep 1 # a choice made, the dialog waits for a pause again
key "press"
key "motion 200 150"
# A yes while the region is still being dragged out, or at once after, answers nothing.
allowed=$(grep -c "consent: the user allowed" "$work/log")
key "key 21"
key "motion 300 230"
echo "release" >&3
key "key 21"
[ "$(grep -c "consent: the user allowed" "$work/log")" -eq "$allowed" ]
result $? "a_yes_during_the_drag_or_at_once_after_it_answers_nothing"
wait_more "to share: a region 200x150 at 100,80 of HEADLESS-1" 0 || echo "# no region chosen"
sleep 1
echo "key 21" >&3
wait_for "$work/region.txt" "^holding" 60
sed 's/^/# /' "$work/region.txt"
shoot region-screen
crop_equal "$work/region.png" "$work/region-screen.png" 100 80 &&
	grep -q "recording now: pid $consumer_pid exe [^:]*: HEADLESS-1, a part 200x150 at 100,80$" "$work/log"
result $? "the_user_may_drag_out_a_part_of_the_screen_and_the_application_gets_only_that"
kill "$consumer_pid" 2>/dev/null
wait "$consumer_pid" 2>/dev/null

# Consumers that come and go on one node, each getting its frame (a renegotiation of the
# stream's buffers must not desynchronise garnet-portal's copies from garnet's answers).
"$rogue" frames "$work/frames.txt" 60 &
frames_pid=$!
/usr/bin/python3 "$consumer" "$work/reconnect.png" reconnect 10 >"$work/reconnect.txt" 2>&1 &
consumer_pid=$!
answer 21
wait "$consumer_pid"
kill "$frames_pid"
sed 's/^/# /' "$work/reconnect.txt"
# (A whole frame each is what counts: gst-launch itself was seen to crash on its way out
# under load, after its frame.)
[ "$(grep -c "^again [0-9] [^ ]* 1$" "$work/reconnect.txt")" -eq 10 ] &&
	! grep -q "launcher portal exited" "$work/log"
result $? "consumers_coming_and_going_on_one_stream_each_get_a_frame"

# The consumer's rate: one that asks for at most 2 frames a second gets no more, while the
# screen changes at every frame; one that asks for none gets many more (the control).
"$rogue" frames "$work/frames.txt" 30 &
frames_pid=$!
/usr/bin/python3 "$consumer" "$work/rate.png" rate >"$work/rate.txt" 2>&1 &
consumer_pid=$!
answer 21
wait "$consumer_pid"
kill "$frames_pid"
sed 's/^/# /' "$work/rate.txt"
limited=$(sed -n 's/^rate limited //p' "$work/rate.txt")
free=$(sed -n 's/^rate free //p' "$work/rate.txt")
[ -n "$limited" ] && [ "$limited" -ge 3 ] && [ "$limited" -le 10 ]
result $? "a_consumer_asking_for_2_frames_a_second_gets_at_most_that"
[ -n "$free" ] && [ -n "$limited" ] && [ "$free" -ge 16 ] && [ "$free" -gt $((limited * 2)) ]
result $? "a_consumer_asking_for_no_rate_gets_the_outputs_changes"

# The Screenshot portal: the same question, then a PNG of garnet's screen at the uri.
/usr/bin/python3 "$(dirname "$consumer")/screenshot.py" >"$work/shot.txt" 2>&1 &
shot_pid=$!
answer 21
wait "$shot_pid"
sed 's/^/# /' "$work/shot.txt"
shoot reference
uri=$(sed -n 's|^uri file://||p' "$work/shot.txt")
[ -n "$uri" ] && /usr/bin/python3 "$png_equal" "$uri" "$work/reference.png" >"$work/equal.txt" 2>&1
result $? "the_screenshot_portal_gives_garnets_screen_once_the_user_says_yes"
sed 's/^/# /' "$work/equal.txt"

# The Screenshot portal as the attacker would use it. A link planted where garnet-portal keeps
# its pictures (the runtime directory is the user's, but anything of the user's can plant
# it): the picture is not written through it. The pictures garnet-portal writes are the
# user's alone.
mode=$(stat -c %a "$uri" 2>/dev/null)/$(stat -c %a "$XDG_RUNTIME_DIR/garnet-portal" 2>/dev/null)
mv "$XDG_RUNTIME_DIR/garnet-portal" "$work/pictures"
mkdir "$work/elsewhere"
ln -s "$work/elsewhere" "$XDG_RUNTIME_DIR/garnet-portal"
/usr/bin/python3 "$(dirname "$consumer")/screenshot.py" >"$work/planted.txt" 2>&1 &
shot_pid=$!
answer 21
wait "$shot_pid"
sed 's/^/# /' "$work/planted.txt"
echo "# modes $mode"
rm "$XDG_RUNTIME_DIR/garnet-portal"
mv "$work/pictures" "$XDG_RUNTIME_DIR/garnet-portal"
[ "$mode" = 600/700 ] && grep -q "^response [12]" "$work/planted.txt" &&
	[ -z "$(ls -A "$work/elsewhere")" ]
result $? "a_screenshot_is_the_users_alone_and_never_written_through_a_planted_link"

# Locking pauses every cast: the lock screen is never sent.
/usr/bin/python3 "$consumer" "$work/again.png" stream-until-closed >"$work/again.txt" 2>&1 &
consumer_pid=$!
answer 21
wait_for "$work/again.txt" "^streaming" 60
key "combo 125 38"
wait_for "$work/out" "paused (session locked)" 10
grep -q "every cast paused: the session is locked" "$work/log" &&
	grep -q "paused (session locked)" "$work/out"
cp "$work/out" "$work/out.first"; cp "$work/log" "$work/log.first"
result $? "locking_pauses_every_cast"
kill "$consumer_pid" 2>/dev/null
# A screenshot asked for while locked: refused without a question, no picture of the lock.
/usr/bin/python3 "$(dirname "$consumer")/screenshot.py" >"$work/locked-shot.txt" 2>&1
sed 's/^/# /' "$work/locked-shot.txt"
grep -q "^response [12]" "$work/locked-shot.txt" &&
	grep -q "not asking for a client: the session is locked" "$work/log"
result $? "a_screenshot_asked_for_while_locked_is_refused_without_a_picture"
# garnet-portal's Screenshot called directly, for another application's request: refused.
direct_call Screenshot Screenshot /org/freedesktop/portal/desktop/request/1_1/x \
	org.victim.App "" >"$work/direct-shot.txt"
sed 's/^/# /' "$work/direct-shot.txt"
grep -q "^refused org.freedesktop.DBus.Error.AccessDenied" "$work/direct-shot.txt"
result $? "a_direct_screenshot_call_for_another_apps_request_is_refused"

# The attacks. A client on the public socket cannot even bind garnet's portal interface.
"$rogue" portal-capture org.victim.App $$ >"$work/public-rogue.txt" 2>&1
grep -q "no global" "$work/public-rogue.txt" &&
	grep -q "deny: .*garnet-rogue privileged-global garnet_portal_v1" "$work/log"
result $? "a_client_that_is_not_the_portal_cannot_bind_its_interface"
# The same from a program whose path holds a line of garnet's log (a newline, then a forged
# "the user allowed"): garnet's log names it on one line, the newline written as \x0a.
forged="[00:00:00.000] info consent: the user allowed HEADLESS-1 for pid 1 exe forged"
mkdir -p "$work/bin"
cp "$rogue" "$work/bin/rogue
$forged"
"$work/bin/rogue
$forged" portal-capture org.victim.App $$ >"$work/forger.txt" 2>&1
grep -F "bin/rogue\x0a[00:00:00.000]" "$work/log" | head -n 1 | sed 's/^/# /'
! grep -q "^\[00:00:00.000\] info consent" "$work/log" &&
	grep -qF "bin/rogue\x0a$forged" "$work/log"
result $? "a_program_path_holding_a_newline_cannot_forge_a_line_of_garnets_log"
# A trusted client holding every privileged global, not the portal, is refused.
sed 's/^/# /' "$work/trusted-rogue.txt"
grep -q "^refused" "$work/trusted-rogue.txt" &&
	grep -q "from a client that is not the portal entry: refused" "$work/log"
result $? "a_trusted_client_that_is_not_the_portal_cannot_capture_for_an_application"
# Calling garnet-portal directly on the bus, claiming another application's id for another
# application's request: refused, garnet is never asked.
asked=$(grep -c "portal capture for" "$work/log")
direct_call ScreenCast CreateSession /org/freedesktop/portal/desktop/request/1_1/x \
	/org/freedesktop/portal/desktop/session/1_1/x org.victim.App >"$work/direct.txt"
sed 's/^/# /' "$work/direct.txt"
grep -q "^refused org.freedesktop.DBus.Error.AccessDenied" "$work/direct.txt" &&
	[ "$(grep -c "portal capture for" "$work/log")" -eq "$asked" ]
result $? "a_direct_call_claiming_another_apps_id_is_refused_before_garnet_is_asked"

# An application opening session after session through the public API: a few are its own,
# the rest are refused (each would be an object on the bus and a question for garnet).
/usr/bin/python3 - <<'PY' >"$work/sessions.txt" 2>&1
import dbus, dbus.mainloop.glib
from gi.repository import GLib
dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
bus = dbus.SessionBus()
cast = dbus.Interface(bus.get_object('org.freedesktop.portal.Desktop',
                                     '/org/freedesktop/portal/desktop'),
                      'org.freedesktop.portal.ScreenCast')
sender = bus.get_unique_name()[1:].replace('.', '_')
loop = GLib.MainLoop()
answers = []
for i in range(12):
    path = f'/org/freedesktop/portal/desktop/request/{sender}/flood{i}'
    def on_response(response, results):
        answers.append(int(response))
        loop.quit()
    match = bus.add_signal_receiver(on_response, 'Response', 'org.freedesktop.portal.Request',
                                    'org.freedesktop.portal.Desktop', path)
    cast.CreateSession(dbus.Dictionary({'handle_token': f'flood{i}',
                                        'session_handle_token': f'flood{i}'}, signature='sv'))
    GLib.timeout_add_seconds(10, loop.quit)
    loop.run()
    match.remove()
print('created', answers.count(0), 'refused', len(answers) - answers.count(0))
PY
sed 's/^/# /' "$work/sessions.txt"
grep -q "^created [1-4] refused [0-9]" "$work/sessions.txt"
result $? "an_application_opening_sessions_in_a_loop_gets_only_a_few"

# Another application starts a session that is not its own (its handle is no secret): the
# frontend or garnet-portal refuses it, and garnet is never asked.
asked=$(grep -c "portal capture for" "$work/log")
/usr/bin/python3 - <<'PY' >"$work/foreign.txt" 2>&1
import dbus, dbus.mainloop.glib
from gi.repository import GLib
dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
loop = GLib.MainLoop()
def cast_of(bus):
    return dbus.Interface(bus.get_object('org.freedesktop.portal.Desktop',
                                         '/org/freedesktop/portal/desktop'),
                          'org.freedesktop.portal.ScreenCast')
def call(bus, method, token, *args, **options):
    sender = bus.get_unique_name()[1:].replace('.', '_')
    path = f'/org/freedesktop/portal/desktop/request/{sender}/{token}'
    got = {}
    def on_response(response, results):
        got['r'] = (int(response), results)
        loop.quit()
    match = bus.add_signal_receiver(on_response, 'Response', 'org.freedesktop.portal.Request',
                                    'org.freedesktop.portal.Desktop', path)
    try:
        options['handle_token'] = token
        getattr(cast_of(bus), method)(*args, dbus.Dictionary(options, signature='sv'))
    except dbus.DBusException as e:
        match.remove()
        return ('error', e.get_dbus_name())
    GLib.timeout_add_seconds(10, loop.quit)
    loop.run()
    match.remove()
    return got.get('r', ('none',))
victim = dbus.bus.BusConnection(dbus.bus.BUS_SESSION)
thief = dbus.bus.BusConnection(dbus.bus.BUS_SESSION)
r = call(victim, 'CreateSession', 'v1', session_handle_token='v1')
handle = r[1]['session_handle'] if r[0] == 0 else None
print('victim session', handle)
print('thief select', call(thief, 'SelectSources', 't1', handle, types=dbus.UInt32(1))[0])
print('thief start', call(thief, 'Start', 't2', handle, '')[0])
PY
sed 's/^/# /' "$work/foreign.txt"
grep -q "^victim session /" "$work/foreign.txt" && ! grep -q "^thief start 0" "$work/foreign.txt" &&
	[ "$(grep -c "portal capture for" "$work/log")" -eq "$asked" ]
result $? "another_applications_session_handle_starts_nothing"
stop_garnet

# A window cast: the user chooses the window (Tab in garnet's dialog) while another window
# covers it all; the application receives the window's own pixels, not what covers it. The
# window's pixels are in a wl_shm pool without seals, as most toolkits make them: garnet reads
# that pool while it writes garnet-portal's, and libwayland aborts a process that opens a
# second pool while a first is open.
# (Its title, as its client chose it, pretends to be the whole screen: the dialog quotes it.)
export ROGUE_SHM=1 ROGUE_TITLE="everything on HEADLESS-1"
cast_list_seconds=2
start_session
unset ROGUE_SHM ROGUE_TITLE cast_list_seconds
"$rogue" window "$work/cover.txt" 1024 768 c04040 &
cover_pid=$!
wait_for "$work/cover.txt" "mapped" || echo "# the covering window did not map"
/usr/bin/python3 "$consumer" "$work/window.png" hold >"$work/wcast.txt" 2>&1 &
consumer_pid=$!
choose_and_answer "the window of pid $window_pid "
wait_for "$work/wcast.txt" "^holding" 60
sed 's/^/# /' "$work/wcast.txt"
shoot covered
/usr/bin/python3 - "$work/window.png" "$work/covered.png" "$png_equal" <<'PY' >"$work/wcheck.txt" 2>&1
import importlib.util, sys
spec = importlib.util.spec_from_file_location('png_equal', sys.argv[3])
m = importlib.util.module_from_spec(spec)
spec.loader.exec_module(m)
w, h, rows = m.decode(sys.argv[1])
colours = {tuple(rows[y][x * 3:x * 3 + 3]) for y in range(h) for x in range(w)}
print('frame', w, h, sorted(colours)[:4])
sw, sh, srows = m.decode(sys.argv[2])
print('screen centre', tuple(srows[sh // 2][sw // 2 * 3:sw // 2 * 3 + 3]))
ok = (w, h) == (400, 300) and colours == {(64, 128, 192)}
sys.exit(0 if ok else 1)
PY
status=$?
sed 's/^/# /' "$work/wcheck.txt"
# (Sometimes the screen centre showed the window, not its cover: what each saw last.)
tail -n 4 "$work/cover.txt" | sed 's/^/# cover: /'
tail -n 4 "$work/window.txt" | sed 's/^/# window: /'
[ $status -eq 0 ] && grep -q "screen centre (192, 64, 64)" "$work/wcheck.txt" &&
	grep -q "^shm buffer" "$work/window.txt" && garnet_serves_a_new_client &&
	grep -q "^source_type 2$" "$work/wcast.txt" &&
	grep -q "to share: the window of pid $window_pid (.*), 400x300, titled \"everything on HEADLESS-1\"$" "$work/log"
result $? "a_window_cast_of_a_covered_window_shows_the_window_not_what_covers_it"
red_at "$work/covered.png" 1006 18
result $? "the_indicator_is_on_screen_while_a_window_cast_runs"
# The list shows for cast-list-seconds (2 here), then the square alone; the show-casts
# binding brings it back.
sleep 3
shoot collapsed
key "combo 125 46"
shoot shown
red_at "$work/collapsed.png" 1006 18 && list_at "$work/collapsed.png" 0 &&
	list_at "$work/shown.png" 1 &&
	grep -q "recording now: pid $consumer_pid exe .*: the window of pid $window_pid$" "$work/log"
result $? "the_list_of_who_records_goes_after_a_while_and_comes_back_when_asked"
# A video player's window: its picture is a desynchronised subsurface that commits alone,
# ten times a second; the window's own surface never commits again. A cast of that window
# follows the video (the consumer that asks for no rate gets its frames), as it does under
# the covering window. A menu of it is open (a popup).
"$rogue" video "$work/video.txt" 300 200 menu &
video_pid=$!
wait_for "$work/video.txt" "^menu" || echo "# the video window did not map its menu"
/usr/bin/python3 "$consumer" "$work/video.png" rate >"$work/video-cast.txt" 2>&1 &
video_consumer=$!
choose_and_answer "the window of pid $video_pid "
wait "$video_consumer"
sed 's/^/# /' "$work/video-cast.txt"
free=$(sed -n 's/^rate free //p' "$work/video-cast.txt")
[ -n "$free" ] && [ "$free" -ge 10 ] && grep -q "^source_type 2$" "$work/video-cast.txt"
result $? "a_window_cast_follows_a_video_in_a_subsurface_that_commits_alone"
# Its menu (a popup, above the window, drawn by the same client) is part of its picture.
/usr/bin/python3 - "$work/video.png" "$png_equal" <<'PY' >"$work/menu-check.txt" 2>&1
import importlib.util, sys
spec = importlib.util.spec_from_file_location('png_equal', sys.argv[2])
m = importlib.util.module_from_spec(spec)
spec.loader.exec_module(m)
w, h, rows = m.decode(sys.argv[1])
at = lambda x, y: tuple(rows[y][x * 3:x * 3 + 3])
print('frame', w, h, 'menu', at(190, 130), 'window', at(290, 190))
sys.exit(0 if (w, h) == (300, 200) and at(190, 130) == (192, 32, 192) and
         at(290, 190) == (64, 128, 192) else 1)
PY
status=$?
sed 's/^/# /' "$work/menu-check.txt"
# (The dialog offered the menu itself as a window once: Tab's first stop was the popup.)
[ $status -eq 0 ] && ! grep -q "to share: the window of pid $video_pid (.*), 80x60" "$work/log"
result $? "a_window_cast_shows_the_windows_menu_above_it_and_the_menu_is_no_window_to_choose"
# A window that grows while it is cast (a player going to a larger video): the stream is
# renegotiated at the new size, and the frames after it are of the whole window, 400x260
# (416000 bytes) where they were 300x200 (240000).
"$rogue" video "$work/grow.txt" 300 200 grow &
grow_pid=$!
wait_for "$work/grow.txt" "^mapped" || echo "# the growing window did not map"
/usr/bin/python3 "$consumer" "$work/grow.png" sizes 8 >"$work/grow-cast.txt" 2>&1 &
grow_consumer=$!
choose_and_answer "the window of pid $grow_pid "
wait_for "$work/grow-cast.txt" "^receiving" 60
sleep 3
touch "$work/grow.txt.grow"
wait "$grow_consumer"
kill "$grow_pid" 2>/dev/null
sed 's/^/# /' "$work/grow-cast.txt"
grep -q "^grown 400x260" "$work/grow.txt" &&
	[ "$(grep "^bytes" "$work/grow-cast.txt" | cut -d' ' -f2 | uniq | tr '\n' ' ')" = "240000 416000 " ] &&
	grep -q "cast of window for .*: now 400x260 (was 300x200)" "$work/log"
result $? "a_window_cast_follows_the_window_when_it_grows"
# A window changing size ten times a second (hostile, or badly made): garnet tells the backend
# at most every 250 ms, so the stream is renegotiated a few times, not at every commit; once
# the window holds still, the cast ends at its last size.
"$rogue" video "$work/throb.txt" 300 200 throb &
throb_pid=$!
wait_for "$work/throb.txt" "^mapped" || echo "# the throbbing window did not map"
/usr/bin/python3 "$consumer" "$work/throb.png" sizes 8 >"$work/throb-cast.txt" 2>&1 &
throb_consumer=$!
choose_and_answer "the window of pid $throb_pid "
wait_for "$work/throb-cast.txt" "^receiving" 60
before=$(grep -c "cast of window for .*: now" "$work/log")
touch "$work/throb.txt.grow"
sleep 3
touch "$work/throb.txt.still"
wait "$throb_consumer"
kill "$throb_pid" 2>/dev/null
changes=$(($(grep -c "cast of window for .*: now" "$work/log") - before))
throbs=$(grep -c "^grown" "$work/throb.txt")
still=$(sed -n 's/^still //p' "$work/throb.txt")
echo "# the window changed size $throbs times, the cast $changes times, and holds still at $still"
[ "$throbs" -ge 20 ] && [ "$changes" -ge 2 ] && [ "$changes" -le 14 ] && [ -n "$still" ] &&
	grep "cast of window for .*: now" "$work/log" | tail -n 1 | grep -q ": now $still "
result $? "a_window_changing_size_at_every_frame_renegotiates_its_cast_a_few_times_a_second"
# A menu that changes alone (a video in the menu: neither the window nor its subsurfaces
# commit after mapping): the window cast gets its frames too.
"$rogue" video "$work/menuvideo.txt" 300 200 menu-video &
menuvideo_pid=$!
wait_for "$work/menuvideo.txt" "^menu" || echo "# the menu did not map"
/usr/bin/python3 "$consumer" "$work/menuvideo.png" rate >"$work/menuvideo-cast.txt" 2>&1 &
menuvideo_consumer=$!
choose_and_answer "the window of pid $menuvideo_pid "
wait "$menuvideo_consumer"
kill "$menuvideo_pid" 2>/dev/null
sed 's/^/# /' "$work/menuvideo-cast.txt"
free=$(sed -n 's/^rate free //p' "$work/menuvideo-cast.txt")
[ -n "$free" ] && [ "$free" -ge 10 ]
result $? "a_window_cast_follows_a_menu_that_changes_alone"
key "combo 125 38"
wait_for "$work/out" "paused (session locked)" 10
grep -q "paused (session locked)" "$work/out"
result $? "locking_pauses_a_window_cast"
# The window goes: its cast ends at the application.
kill "$window_pid"
wait_for "$work/wcast.txt" "^closed" 20
grep -q "stopped: its window is gone" "$work/log" && grep -q "^closed" "$work/wcast.txt"
result $? "a_window_cast_ends_when_its_window_goes"
kill "$consumer_pid" "$video_pid" "$cover_pid" 2>/dev/null
stop_garnet

# garnet-portal that cannot make its buffers (no memory, no descriptors): the consumer gets
# no frame, garnet-portal is not brought down by it.
portal_cmd="env LD_PRELOAD=$no_memfd ASAN_OPTIONS=verify_asan_link_order=0 $garnet_portal"
exits=$(grep -c "launcher portal exited" "$work/log")
start_session
/usr/bin/python3 "$consumer" "$work/nomem.png" >"$work/nomem.txt" 2>&1 &
consumer_pid=$!
answer 21
wait "$consumer_pid"
sed 's/^/# /' "$work/nomem.txt"
grep "cannot make a buffer" "$work/out" | head -n 1 | sed 's/^/# /'
grep -q "cannot make a buffer" "$work/out" && [ ! -e "$work/nomem.png" ] &&
	[ "$(grep -c "launcher portal exited" "$work/log")" -eq "$exits" ]
result $? "a_stream_whose_buffers_cannot_be_made_ends_without_bringing_the_portal_down"
stop_garnet

# The portal entry itself naming pids it should not (a compromised or buggy backend): no pid,
# a pid beyond any process (as uint32: -1 to a pid_t), a process of another user. Each is
# refused without a question. Then a backend whose first copy crosses the user's stop (it had
# not read stopped yet): the copy is answered failed, not a protocol error that disconnects
# the backend.
if [ "$(id -u)" -eq 0 ]; then
	setpriv --reuid=65534 --regid=65534 --clear-groups sleep 120 &
	other_pid=$!
else
	other_pid=1 # root's init
fi
rm -f "$work/backend-in"
mkfifo "$work/backend-in"
cat >"$work/backend.sh" <<SH
exec "$rogue" portal-backend 0 4294967295 $other_pid $$ <"$work/backend-in" >"$work/backend.txt"
SH
portal_cmd="sh $work/backend.sh" portal_ready=WAYLAND_DISPLAY
# (garnet's log goes on from session to session; the backend asks as soon as it runs.)
asked=$(grep -c "consent: asking the user" "$work/log")
start_session
exec 4>"$work/backend-in"
answer 21
wait_for "$work/backend.txt" "^granted" 20
stops=$(grep -c "stopped: the user's stop binding" "$work/log")
key "combo 125 1"
wait_more "stopped: the user's stop binding" "$stops" || echo "# the cast was not stopped"
echo copy >&4
wait_for "$work/backend.txt" "failed\|ready\|error" 10
sed 's/^/# /' "$work/backend.txt"
grep -q "^stopped failed$" "$work/backend.txt"
result $? "a_copy_crossing_the_stop_before_the_first_copy_is_failed_not_an_error"
[ "$other_pid" != 1 ] && kill "$other_pid" 2>/dev/null
grep -q "^pid 0 refused$" "$work/backend.txt" && grep -q "^pid 4294967295 refused$" "$work/backend.txt" &&
	grep -q "^pid $other_pid refused$" "$work/backend.txt" &&
	grep -q "a capture for pid 4294967295 refused: no such process" "$work/log" &&
	grep -q "a capture for pid $other_pid refused: another user's process" "$work/log" &&
	[ "$(grep -c "consent: asking the user" "$work/log")" -eq $((asked + 1)) ]
result $? "the_portal_naming_no_process_or_another_users_is_refused_without_asking"
exec 4>&-
stop_garnet

# Several outputs: Tab in garnet's dialog goes from the first to the next; the application
# gets the output the user chose, at its size. One the policy refuses (deny screencast on
# HEADLESS-3) stays refused when the user chooses it: the yes answered the question about the
# first output.
unset portal_cmd portal_ready
printf 'deny screencast:HEADLESS-3\n' >>"$work/wmac.policy"
extra_ini='[output]
mode=1024x768

[output]
mode=640x480

[output]
mode=320x240

[output]
mode=1600x1200
scale=2'
start_session
unset extra_ini
/usr/bin/python3 "$consumer" "$work/second-output.png" >"$work/second-output.txt" 2>&1 &
consumer_pid=$!
choose_and_answer "everything on HEADLESS-2"
wait "$consumer_pid"
sed 's/^/# /' "$work/second-output.txt"
/usr/bin/python3 - "$work/second-output.png" "$png_equal" <<'PY' >"$work/second-check.txt" 2>&1
import importlib.util, sys
spec = importlib.util.spec_from_file_location('png_equal', sys.argv[2])
m = importlib.util.module_from_spec(spec)
spec.loader.exec_module(m)
w, h, rows = m.decode(sys.argv[1])
print('frame', w, h, 'indicator', tuple(rows[18][(w - 18) * 3:(w - 18) * 3 + 3]))
sys.exit(0 if (w, h) == (640, 480) and rows[18][(w - 18) * 3] > 200 else 1)
PY
status=$?
sed 's/^/# /' "$work/second-check.txt"
[ $status -eq 0 ] && grep -q "^source_type 1$" "$work/second-output.txt" &&
	grep -q "recording now: pid $consumer_pid exe .*: HEADLESS-2$" "$work/log"
result $? "the_user_may_choose_another_output_and_the_application_gets_that_one"
chosen=$(grep -c "to share: everything on HEADLESS-3" "$work/log")
/usr/bin/python3 "$consumer" "$work/third-output.png" >"$work/third-output.txt" 2>&1 &
consumer_pid=$!
choose_and_answer "everything on HEADLESS-3" "$chosen"
wait "$consumer_pid"
sed 's/^/# /' "$work/third-output.txt"
grep -q "^response [12]" "$work/third-output.txt" && [ ! -e "$work/third-output.png" ] &&
	grep -q "the user chose HEADLESS-3 for pid $consumer_pid .*: the policy refuses it" "$work/log"
result $? "an_output_the_policy_refuses_stays_refused_when_the_user_chooses_it"
# A part of an output of scale 2 (HEADLESS-4, 800x600 in the global space from x 1984): the
# user drags out 100x60 of it; the application gets the 200x120 pixels under that part.
/usr/bin/python3 "$consumer" "$work/scaled-part.png" >"$work/scaled-part.txt" 2>&1 &
consumer_pid=$!
wait_more "consent: asking the user" "$asks" || echo "# garnet did not ask"
asks=$((asks + 1))
sleep 1
drag 2004 10 2104 70
wait_more "to share: a region 100x60 at 20,10 of HEADLESS-4" 0 || echo "# no region chosen"
sleep 1
echo "key 21" >&3
wait "$consumer_pid"
sed 's/^/# /' "$work/scaled-part.txt"
size=$(png_size "$work/scaled-part.png" 2>&1)
echo "# frame $size"
[ "$size" = "200 120" ] &&
	grep -q "recording now: pid $consumer_pid exe .*: HEADLESS-4, a part 200x120 at 40,20$" "$work/log"
result $? "a_part_of_a_scaled_output_is_its_pixels_under_that_part"
# An output cast follows its output's mode: the output-config entry makes HEADLESS-1
# 800x600 while it is cast; the stream is renegotiated, its frames are 1024x768
# (3145728 bytes), then 800x600 (1920000).
/usr/bin/python3 "$consumer" "$work/mode.png" sizes 8 >"$work/mode-cast.txt" 2>&1 &
consumer_pid=$!
answer 21
wait_for "$work/mode-cast.txt" "^receiving" 60
sleep 3
touch "$work/outman-go$sessions"
wait "$consumer_pid"
sed 's/^/# /' "$work/mode-cast.txt"
grep -q "^move succeeded" "$work/outman.txt" &&
	[ "$(grep "^bytes" "$work/mode-cast.txt" | cut -d' ' -f2 | uniq | tr '\n' ' ')" = "3145728 1920000 " ] &&
	grep -q "cast of HEADLESS-1 for .*: now 800x600 (was 1024x768)" "$work/log"
result $? "an_output_cast_follows_the_outputs_new_mode"
stop_garnet

# The pointer as metadata (cursor_mode 4), read by a PipeWire consumer in C as OBS reads it:
# the picture comes without the pointer; each buffer says where the pointer's hotspot is and
# carries its image (garnet's arrow here: no client set a cursor).
start_session
key "motion 200 150"
/usr/bin/python3 "$consumer" "$work/meta" metadata "$cursor_consumer" 3 >"$work/meta.txt" 2>&1 &
consumer_pid=$!
answer 21
wait_for "$work/meta.txt" "^frame 0" 60
shoot meta-screen
key "motion 300 250"
wait_for "$work/meta.txt" "^frame 1" 10
key "motion 1020 700"
wait "$consumer_pid"
sed 's/^/# /' "$work/meta.txt"
/usr/bin/python3 - "$work/meta.0.raw" "$work/meta-screen.png" "$png_equal" <<'PY' >"$work/meta-check.txt" 2>&1
import importlib.util, sys
spec = importlib.util.spec_from_file_location('png_equal', sys.argv[3])
m = importlib.util.module_from_spec(spec)
spec.loader.exec_module(m)
raw = open(sys.argv[1], 'rb').read()
sw, sh, rows = m.decode(sys.argv[2])
differ = [(x, y) for y in range(sh) for x in range(sw)
          if tuple(raw[(y * sw + x) * 4 + 2 - c] for c in range(3)) != tuple(rows[y][x * 3:x * 3 + 3])]
box = (min(differ), max(differ)) if differ else None
print('frame bytes', len(raw), 'screen', sw, sh, 'differ', len(differ), 'within', box)
# Only the arrow at 200,150 (on the screenshot, not in the frame) differs.
ok = len(raw) == sw * sh * 4 and differ and all(200 <= x < 232 and 150 <= y < 182 for x, y in differ)
sys.exit(0 if ok else 1)
PY
status=$?
sed 's/^/# /' "$work/meta-check.txt"
# The pixels that differ are exactly the image's opaque ones.
opaque=$(sed -n 's/^frame 0 1024x768 damage [0-9]* cursor 200 150 hot 0 0 bitmap [0-9]*x[0-9]* format BGRA opaque \([1-9][0-9]*\)$/\1/p' "$work/meta.txt")
[ $status -eq 0 ] && [ -n "$opaque" ] && grep -q " differ $opaque within" "$work/meta-check.txt"
result $? "an_application_asking_for_the_pointer_as_metadata_gets_the_picture_without_it_and_the_pointer_beside"
grep -q "^frame [12] .* cursor 300 250 hot 0 0 bitmap" "$work/meta.txt" &&
	grep -q "^frame 2 .* cursor 1020 700 hot 0 0 bitmap" "$work/meta.txt"
result $? "the_pointer_metadata_follows_the_pointer"
# A window's cast tells the pointer only while it is over the window, in the window's pixels;
# a move over the window alone (the window draws nothing) is a frame with no damage. Outside,
# the pointer is hidden and its moves make no frame: a recording of one window learns nothing
# of where the pointer goes elsewhere.
shoot win-screen
corner=$(/usr/bin/python3 - "$work/win-screen.png" "$png_equal" <<'PY'
import importlib.util, sys
spec = importlib.util.spec_from_file_location('png_equal', sys.argv[2])
m = importlib.util.module_from_spec(spec)
spec.loader.exec_module(m)
w, h, rows = m.decode(sys.argv[1])
found = [(x, y) for y in range(h) for x in range(w) if tuple(rows[y][x * 3:x * 3 + 3]) == (64, 128, 192)]
print(*min(found) if found else (-1, -1))
PY
)
wx=${corner% *}
wy=${corner#* }
echo "# the window is at $wx,$wy"
key "motion $((wx + 50)) $((wy + 40))"
/usr/bin/python3 "$consumer" "$work/wmeta" metadata "$cursor_consumer" 4 8 >"$work/wmeta.txt" 2>&1 &
consumer_pid=$!
choose_and_answer "the window of pid $window_pid "
wait_for "$work/wmeta.txt" "^frame 0" 60
key "motion $((wx + 60)) $((wy + 50))"
wait_for "$work/wmeta.txt" "^frame 1" 10
key "motion 1020 700"
wait_for "$work/wmeta.txt" "^frame 2" 10
key "motion 1000 10"
key "motion 900 600"
wait "$consumer_pid"
sed 's/^/# /' "$work/wmeta.txt"
grep -q "^frame 0 400x300 damage [0-9]* cursor 50 40 hot 0 0 bitmap 12x19 format BGRA opaque [1-9]" "$work/wmeta.txt" &&
	grep -q "^frame 1 400x300 damage 0 cursor 60 50 hot 0 0 bitmap 12x19 " "$work/wmeta.txt"
result $? "a_window_casts_pointer_metadata_is_in_the_windows_pixels_and_moves_alone"
grep -q "^frame 2 400x300 damage 0 cursor 0 0 hot 0 0 bitmap 1x1 format BGRA opaque 0$" "$work/wmeta.txt" &&
	grep -q "^timeout after 3 frames" "$work/wmeta.txt"
result $? "a_window_cast_says_nothing_of_the_pointer_outside_the_window"
# A client's own cursor, 400x400 with its hotspot at 200,200 (garnet-rogue cover sets it on
# entering its window): the image is cut at 256 either way, the hotspot kept.
"$rogue" cover "$work/cursor-cover.txt" cursor &
cover_pid=$!
wait_for "$work/cursor-cover.txt" "^mapped" || echo "# the cover did not map"
key "motion 512 384"
/usr/bin/python3 "$consumer" "$work/cmeta" metadata "$cursor_consumer" 2 >"$work/cmeta.txt" 2>&1 &
consumer_pid=$!
answer 21
wait_for "$work/cmeta.txt" "^frame 0" 60
key "motion 513 385"
wait "$consumer_pid"
kill "$cover_pid" 2>/dev/null
sed 's/^/# /' "$work/cmeta.txt"
grep -q "^cursor-set" "$work/cursor-cover.txt" &&
	grep -q "^frame 1 1024x768 damage [0-9]* cursor 513 385 hot 200 200 bitmap 256x256 format BGRA opaque 65536$" "$work/cmeta.txt"
result $? "a_clients_cursor_comes_as_its_image_cut_at_256_with_its_hotspot"
stop_garnet

# A portal entry sending copy flags its version does not know (pointer_metadata at version 3,
# an unknown bit at version 4) is disconnected with invalid_flags (3), not obeyed; at version 4
# pointer_metadata tells the pointer beside the picture (garnet-rogue portal-backend).
for version in 3 4; do
	start_backend_session "$version" "$work/flags-v$version.txt"
	key "motion 200 150"
	exec 4>"$work/backend-in"
	answer 21
	wait_for "$work/flags-v$version.txt" "^granted" 20
	sleep 1 # the first copy is made at once once the dialog is off the screen
	echo "copy 0" >&4
	wait_for "$work/flags-v$version.txt" "^ready" 10
	# pointer_metadata with now: the picture on screen now, and the pointer beside it.
	[ "$version" = 4 ] && echo "copy 5" >&4 && wait_for "$work/flags-v$version.txt" "^ready.*pointer" 10
	echo "copy $((version == 3 ? 4 : 12))" >&4
	wait_for "$work/flags-v$version.txt" "^error" 10
	exec 4>&-
	sed "s/^/# version $version: /" "$work/flags-v$version.txt"
	stop_garnet
done
grep -q "^error 3$" "$work/flags-v3.txt" && grep -q "^error 3$" "$work/flags-v4.txt" &&
	grep -q "^ready$" "$work/flags-v3.txt"
result $? "a_portal_entry_sending_flags_its_version_lacks_is_disconnected_with_invalid_flags"
grep -q "^ready pointer 200 150 image 12 19$" "$work/flags-v4.txt"
result $? "a_portal_entry_of_version_4_hears_the_pointer_beside_the_picture"

# garnet dies while a consumer streams: garnet-portal ends its streams (and their buffers,
# garnet's wl_buffers) before the connections they live on, and exits cleanly. It used to
# destroy them after the Wayland connection was gone (a use after free that ASan reports; it
# crashed once).
asks=$(cat "$work/log" 2>/dev/null | grep -c "consent: asking the user")
start_session
/usr/bin/python3 "$consumer" "$work/live.png" stream-until-closed >"$work/live.txt" 2>&1 &
consumer_pid=$!
answer 21
wait_for "$work/live.txt" "^streaming" 60
sleep 1
kill "$window_pid" 2>/dev/null
kill -KILL "$pid"
wait "$pid"
pid=
wait_for "$work/out" "^garnet-portal: exits" 10
exited=$?
kill "$consumer_pid" 2>/dev/null
wait "$consumer_pid" 2>/dev/null
result $exited "garnet_dying_under_a_running_stream_lets_garnet_portal_exit_cleanly"
grep "garnet-portal\|ERROR: AddressSanitizer" "$work/out" | tail -n 4 | sed 's/^/# /'
