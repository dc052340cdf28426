#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A touch screen made with uinput (QEMU 7.2 emulates none): it touches the middle of the
screen once, lifts, and goes away. The kernel's structs and ioctl numbers are written out.

usage: uinput-touch.py   (in the guest, as root, with the uinput module loaded)"""

import fcntl
import os
import struct
import time

UI_SET_EVBIT, UI_SET_KEYBIT, UI_SET_ABSBIT, UI_SET_PROPBIT = 0x40045564, 0x40045565, \
    0x40045567, 0x4004556E
UI_DEV_CREATE, UI_DEV_DESTROY = 0x5501, 0x5502
EV_SYN, EV_KEY, EV_ABS = 0, 1, 3
BTN_TOUCH = 0x14A
ABS_X, ABS_Y, ABS_MT_SLOT, ABS_MT_POSITION_X, ABS_MT_POSITION_Y, ABS_MT_TRACKING_ID = \
    0, 1, 0x2F, 0x35, 0x36, 0x39
INPUT_PROP_DIRECT = 1
AXIS_MAX = 32767


def emit(fd, kind, code, value):
    os.write(fd, struct.pack("llHHi", 0, 0, kind, code, value))


def main():
    fd = os.open("/dev/uinput", os.O_WRONLY | os.O_NONBLOCK)
    for kind in (EV_SYN, EV_KEY, EV_ABS):
        fcntl.ioctl(fd, UI_SET_EVBIT, kind)
    fcntl.ioctl(fd, UI_SET_KEYBIT, BTN_TOUCH)
    axes = (ABS_X, ABS_Y, ABS_MT_SLOT, ABS_MT_POSITION_X, ABS_MT_POSITION_Y,
            ABS_MT_TRACKING_ID)
    for axis in axes:
        fcntl.ioctl(fd, UI_SET_ABSBIT, axis)
    fcntl.ioctl(fd, UI_SET_PROPBIT, INPUT_PROP_DIRECT)
    # struct uinput_user_dev: name[80], struct input_id (4 x u16), ff_effects_max, then
    # absmax, absmin, absfuzz, absflat, 64 ints each.
    absmax, absmin = [0] * 64, [0] * 64
    for axis in (ABS_X, ABS_Y, ABS_MT_POSITION_X, ABS_MT_POSITION_Y):
        absmax[axis] = AXIS_MAX
    absmax[ABS_MT_SLOT] = 9
    absmax[ABS_MT_TRACKING_ID] = 65535
    dev = struct.pack("80sHHHHi", b"garnet e2e touch screen", 0x06, 0x1, 0x1, 1, 0)
    dev += struct.pack("64i", *absmax) + struct.pack("64i", *absmin) + bytes(2 * 64 * 4)
    os.write(fd, dev)
    fcntl.ioctl(fd, UI_DEV_CREATE)
    time.sleep(3)  # udev and libinput find the new device
    middle = AXIS_MAX // 2
    for kind, code, value in ((EV_ABS, ABS_MT_SLOT, 0), (EV_ABS, ABS_MT_TRACKING_ID, 7),
                              (EV_ABS, ABS_MT_POSITION_X, middle),
                              (EV_ABS, ABS_MT_POSITION_Y, middle), (EV_KEY, BTN_TOUCH, 1),
                              (EV_ABS, ABS_X, middle), (EV_ABS, ABS_Y, middle),
                              (EV_SYN, 0, 0)):
        emit(fd, kind, code, value)
    time.sleep(0.5)
    for kind, code, value in ((EV_ABS, ABS_MT_TRACKING_ID, -1), (EV_KEY, BTN_TOUCH, 0),
                              (EV_SYN, 0, 0)):
        emit(fd, kind, code, value)
    time.sleep(1)
    fcntl.ioctl(fd, UI_DEV_DESTROY)
    os.close(fd)


if __name__ == "__main__":
    main()
