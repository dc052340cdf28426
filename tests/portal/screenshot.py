#!/usr/bin/python3
# SPDX-License-Identifier: MIT
# screenshot.py: an application asking org.freedesktop.portal.Screenshot for a picture;
# prints "uri URI" or "response N".
import dbus
import dbus.mainloop.glib
from gi.repository import GLib

dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
bus = dbus.SessionBus()
portal = bus.get_object('org.freedesktop.portal.Desktop', '/org/freedesktop/portal/desktop')
shot = dbus.Interface(portal, 'org.freedesktop.portal.Screenshot')
sender = bus.get_unique_name()[1:].replace('.', '_')
loop = GLib.MainLoop()
path = f'/org/freedesktop/portal/desktop/request/{sender}/garnetshot'


def on_response(response, results):
    if response == 0:
        print('uri', results['uri'], flush=True)
    else:
        print('response', int(response), flush=True)
    loop.quit()


bus.add_signal_receiver(on_response, 'Response', 'org.freedesktop.portal.Request',
                        'org.freedesktop.portal.Desktop', path)
shot.Screenshot('', dbus.Dictionary({'handle_token': 'garnetshot', 'interactive': False},
                                    signature='sv'))
GLib.timeout_add_seconds(60, loop.quit)
loop.run()
