#!/usr/bin/python3
# SPDX-License-Identifier: MIT
# consumer.py OUT.png [stream-until-closed]: an application asking for a screen cast through
# the public org.freedesktop.portal.ScreenCast API, as browsers do. On success it receives one
# frame with GStreamer's pipewiresrc over the PipeWire remote the portal opened for it, writes
# OUT.png and prints "frame NODE"; refused, it prints "response N" and exits 2. With
# stream-until-closed it then keeps a pipewiresrc running, prints "streaming", and prints
# "closed" when the session is closed by the other side and "ended" when its stream ends.
# With metadata CURSOR_CONSUMER FRAMES [SECONDS] it asks for the pointer as metadata (cursor_mode 4) and
# hands the stream to CURSOR_CONSUMER (cursor-consumer.c) for FRAMES frames (within SECONDS,
# 30 unless told), printing its lines. dmabuf and memfd do the same with the pointer in the
# picture, the consumer asking for dma-bufs (as a GPU consumer does) or not.
# With rate it counts the frames of a consumer asking for at most 2 a second, then of one
# asking for no rate, 4 s each.
import os
import re
import subprocess
import sys

import struct
import zlib

import dbus
import dbus.mainloop.glib
from gi.repository import GLib

dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
bus = dbus.SessionBus()
portal = bus.get_object('org.freedesktop.portal.Desktop', '/org/freedesktop/portal/desktop')
cast = dbus.Interface(portal, 'org.freedesktop.portal.ScreenCast')
sender = bus.get_unique_name()[1:].replace('.', '_')
loop = GLib.MainLoop()
out = sys.argv[1]
mode = sys.argv[2] if len(sys.argv) > 2 else ''
keep = mode == 'stream-until-closed'
state = {'n': 0, 'session': None}


def write_png(path, bgrx, width, height):
    rows = b''.join(b'\0' + bytes(c for i in range(y * width * 4, (y + 1) * width * 4, 4)
                                  for c in (bgrx[i + 2], bgrx[i + 1], bgrx[i]))
                    for y in range(height))

    def chunk(kind, body):
        return (struct.pack('>I', len(body)) + kind + body +
                struct.pack('>I', zlib.crc32(kind + body)))

    with open(path, 'wb') as f:
        f.write(b'\x89PNG\r\n\x1a\n' +
                chunk(b'IHDR', struct.pack('>IIBBBBB', width, height, 8, 2, 0, 0, 0)) +
                chunk(b'IDAT', zlib.compress(rows)) + chunk(b'IEND', b''))


def say(*words):
    print(*words, flush=True)


def request(method, *args, options):
    """Calls method with a fresh handle_token, answers arrive through Response."""
    state['n'] += 1
    token = f'garnettest{state["n"]}'
    path = f'/org/freedesktop/portal/desktop/request/{sender}/{token}'
    result = {}

    def on_response(response, results):
        result['response'] = int(response)
        result['results'] = results
        loop.quit()

    match = bus.add_signal_receiver(on_response, 'Response', 'org.freedesktop.portal.Request',
                                    'org.freedesktop.portal.Desktop', path)
    options['handle_token'] = token
    getattr(cast, method)(*args, dbus.Dictionary(options, signature='sv'))
    GLib.timeout_add_seconds(60, loop.quit)
    loop.run()
    match.remove()
    if result.get('response') != 0:
        say('response', result.get('response', 'none'))
        sys.exit(2)
    return result['results']


r = request('CreateSession', options={'session_handle_token': 'garnettest'})
session = r['session_handle']
# hidden: the pointer left out of the picture (cursor_mode 1), else embedded in it (2).
# hidden also asks for the grant to persist (persist_mode 2): garnet never gives a restore
# token ("restore_token yes" would show one).
options = {'types': dbus.UInt32(1), 'multiple': False,
           'cursor_mode': dbus.UInt32({'hidden': 1, 'metadata': 4}.get(mode, 2))}
if mode == 'hidden':
    options['persist_mode'] = dbus.UInt32(2)
request('SelectSources', session, options=options)
r = request('Start', session, '', options={})
say('restore_token', 'yes' if 'restore_token' in r else 'no')
node = int(r['streams'][0][0])
say('source_type', int(r['streams'][0][1].get('source_type', 0)))
fd = cast.OpenPipeWireRemote(session, dbus.Dictionary({}, signature='sv')).take()
say('node', node)
width, height = (int(v) for v in r['streams'][0][1]['size'])
if mode in ('metadata', 'dmabuf', 'memfd'):
    # A C consumer: GStreamer's pipewiresrc reads no cursor metadata, and GStreamer 1.22
    # cannot ask for dma-bufs of a given layout.
    reader = subprocess.Popen([sys.argv[3], str(fd), str(node), sys.argv[4],
                               sys.argv[5] if len(sys.argv) > 5 else '30', out] +
                              (['dmabuf'] if mode == 'dmabuf' else []),
                              pass_fds=[fd], stdout=subprocess.PIPE, text=True)
    for line in reader.stdout:
        say(line.rstrip('\n'))
    sys.exit(reader.wait())
# The frame as it comes (BGRx), made a PNG here: no GStreamer plugin beyond pipewiresrc.
gst = ['gst-launch-1.0', '-q', 'pipewiresrc', f'fd={fd}', f'path={node}', 'num-buffers=1',
       '!', 'video/x-raw,format=BGRx', '!', 'filesink', f'location={out}.raw']
status = subprocess.run(gst, pass_fds=[fd], timeout=60).returncode
raw = open(f'{out}.raw', 'rb').read() if os.path.exists(f'{out}.raw') else b''
if status != 0 or len(raw) != width * height * 4:
    say('no frame', status, len(raw))
    sys.exit(3)
write_png(out, raw, width, height)
say('frame', node)
if mode == 'reconnect':
    # Consumers that come and go on the same node: each must get a frame of its own.
    for i in range(int(sys.argv[3]) if len(sys.argv) > 3 else 3):
        fd = cast.OpenPipeWireRemote(session, dbus.Dictionary({}, signature='sv')).take()
        gst = ['gst-launch-1.0', '-q', 'pipewiresrc', f'fd={fd}', f'path={node}',
               'num-buffers=1', '!', 'video/x-raw,format=BGRx', '!', 'filesink',
               f'location={out}.{i}.raw']
        try:
            status = subprocess.run(gst, pass_fds=[fd], timeout=20).returncode
        except subprocess.TimeoutExpired:
            status = 'timeout'
        os.close(fd)
        size = os.path.getsize(f'{out}.{i}.raw') if os.path.exists(f'{out}.{i}.raw') else 0
        say('again', i, status, size // (width * height * 4))
    sys.exit(0)
if mode == 'rate':
    # Consumers receiving for a few seconds while the screen changes at every frame, one of
    # them asking for at most 2 frames a second: "rate LABEL FRAMES" for each.
    for label, caps in (('limited', ',max-framerate=2/1'), ('free', '')):
        fd = cast.OpenPipeWireRemote(session, dbus.Dictionary({}, signature='sv')).take()
        with open(f'{out}.{label}.txt', 'w') as log:
            gst = subprocess.Popen(['gst-launch-1.0', '-v', 'pipewiresrc', f'fd={fd}',
                                    f'path={node}', '!', f'video/x-raw,format=BGRx{caps}', '!',
                                    'fakesink', 'silent=false'], pass_fds=[fd], stdout=log,
                                   stderr=subprocess.STDOUT)
            try:
                gst.wait(timeout=4)
            except subprocess.TimeoutExpired:
                gst.kill()
                gst.wait()
        os.close(fd)
        frames = sum('last-message = chain' in line for line in open(f'{out}.{label}.txt'))
        say('rate', label, frames)
    sys.exit(0)
if mode == 'sizes':
    # A consumer receiving for a few seconds while the window changes size: "bytes N frames
    # K" for each run of frames of one size, in order ("receiving" once it has started).
    fd = cast.OpenPipeWireRemote(session, dbus.Dictionary({}, signature='sv')).take()
    with open(f'{out}.sizes.txt', 'w') as log:
        gst = subprocess.Popen(['gst-launch-1.0', '-v', 'pipewiresrc', f'fd={fd}',
                                f'path={node}', '!', 'video/x-raw,format=BGRx', '!',
                                'fakesink', 'silent=false'], pass_fds=[fd], stdout=log,
                               stderr=subprocess.STDOUT)
        say('receiving')
        try:
            gst.wait(timeout=float(sys.argv[3]) if len(sys.argv) > 3 else 8)
        except subprocess.TimeoutExpired:
            gst.kill()
            gst.wait()
    os.close(fd)
    runs = []
    for line in open(f'{out}.sizes.txt', errors='replace'):
        found = re.search(r'last-message = chain .*\((\d+) bytes', line)
        if not found:
            continue
        size = int(found.group(1))
        if runs and runs[-1][0] == size:
            runs[-1][1] += 1
        else:
            runs.append([size, 1])
    for size, frames in runs:
        say('bytes', size, 'frames', frames)
    sys.exit(0)
if mode in ('hold', 'hidden'):
    # The session kept, no more frames asked for: "closed" when the other side closes it.
    def on_closed_only(*details):
        say('closed')
        loop.quit()
    bus.add_signal_receiver(on_closed_only, 'Closed', 'org.freedesktop.portal.Session',
                            'org.freedesktop.portal.Desktop', session)
    say('holding')
    # Held across later sections of a test (a loaded machine once took over 90 s to reach
    # the window cast's last checks): a test ends it, or the session's end does.
    def give_up():
        say('gave up holding')
        loop.quit()
    GLib.timeout_add_seconds(600, give_up)
    loop.run()
    sys.exit(0)
if not keep:
    sys.exit(0)

# A consumer that keeps receiving: the stop binding must end it. A remote is one PipeWire
# connection, so a second consumer opens its own.
fd = cast.OpenPipeWireRemote(session, dbus.Dictionary({}, signature='sv')).take()
stream = subprocess.Popen(['gst-launch-1.0', '-q', 'pipewiresrc', f'fd={fd}', f'path={node}',
                           '!', 'fakesink'], pass_fds=[fd])


closed = []


def on_closed(*details):
    say('closed')
    closed.append(GLib.get_monotonic_time())


def node_exists():
    listing = subprocess.run(['pw-cli', 'ls', 'Node'], capture_output=True, text=True,
                             timeout=10).stdout
    return any(line.split(',')[0].strip() == f'id {node}' for line in listing.splitlines())


bus.add_signal_receiver(on_closed, 'Closed', 'org.freedesktop.portal.Session',
                        'org.freedesktop.portal.Desktop', session)


def poll():
    if stream.poll() is not None:
        say('ended', stream.returncode)
        loop.quit()
        return False
    # A pipewiresrc whose producer went away may wait for it to come back (it is linked by
    # the session manager): the stream has ended for it once the node is gone.
    if closed and GLib.get_monotonic_time() - closed[0] > 2000000 and not node_exists():
        say('ended', 'node gone')
        loop.quit()
        return False
    return True


# Running for 2 s: whatever ends it later is not its own start failing.
try:
    stream.wait(timeout=2)
    say('ended early', stream.returncode)
    sys.exit(4)
except subprocess.TimeoutExpired:
    pass
say('streaming')
GLib.timeout_add(100, poll)
GLib.timeout_add_seconds(60, loop.quit)
loop.run()
if stream.poll() is None:
    stream.kill()
