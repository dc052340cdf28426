#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The host side of the session tests: drives the guest's display and input devices over QMP
and checks what the clients saw and what the screen showed.

  session-host.py QMP_PY    (run by garnet-vm --host-cmd; GARNET_VM_QMP and GARNET_VM_RESULTS
                             are set)

Each check prints PASS or FAIL; any FAIL ends the run with status 1.
"""

import importlib.util
import os
import sys
import time

R = os.environ["GARNET_VM_RESULTS"]
spec = importlib.util.spec_from_file_location("qmp", sys.argv[1])
qmp_module = importlib.util.module_from_spec(spec)
spec.loader.exec_module(qmp_module)
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from png import read_png  # noqa: E402

GREEN, BLUE = (0x00, 0xC0, 0x00), (0x00, 0x00, 0xC0)
BLACK, WHITE = (0, 0, 0), (0xff, 0xff, 0xff)
ARROW = (12, 19)  # garnet's built-in cursor image
ARROW_AREA = ARROW[0] * ARROW[1]
WINDOW = (320, 240)


class Failed(Exception):
    pass


class Skipped(Exception):
    pass


def check(ok, what):
    print(("PASS: " if ok else "FAIL: ") + what, flush=True)
    if not ok:
        raise Failed(what)


def ask(step, timeout=180):
    """Asks the guest for a step and waits until it is done."""
    open(os.path.join(R, "host." + step), "w").close()
    wait_file("guest." + step, timeout)


def wait_file(name, timeout=180):
    deadline = time.monotonic() + timeout
    while not os.path.exists(os.path.join(R, name)):
        if os.path.exists(os.path.join(R, "guest-skipped")):
            raise Skipped("the guest has no KMS display")
        if os.path.exists(os.path.join(R, "guest-failed")):
            raise Failed("the guest failed:\n" + read("guest.log"))
        if time.monotonic() > deadline:
            raise Failed(f"the guest did not reach '{name}' in {timeout} s:\n" + read("guest.log"))
        time.sleep(0.2)


def read(name):
    try:
        with open(os.path.join(R, name), errors="replace") as f:
            return f.read()
    except FileNotFoundError:
        return ""


def read_ppm(path):
    with open(path, "rb") as f:
        data = f.read()
    parts = data.split(maxsplit=4)
    if parts[0] != b"P6" or parts[3] != b"255":
        raise Failed(f"{path} is not an 8-bit P6 PPM")
    w, h = int(parts[1]), int(parts[2])
    pixels = parts[4][:w * h * 3]
    return w, h, [tuple(pixels[i:i + 3]) for i in range(0, len(pixels), 3)]


shots = 0


def screendump(q):
    global shots
    shots += 1
    path = os.path.join(R, f"screen{shots}.ppm")
    q.screendump(path)
    return read_ppm(path)


def count(pixels, colour):
    return sum(1 for p in pixels if p == colour)


def tablet(q, screen, x, y):
    """Moves the tablet to pixel x, y of the screen (the axes run 0..32767)."""
    w, h = screen
    q.move(int((x + 0.5) * 32768 / w), int((y + 0.5) * 32768 / h))


def click(q, screen, x, y):
    tablet(q, screen, x, y)
    time.sleep(0.5)
    q.click("left")


def type_keys(q, keys):
    for k in keys:
        for down in (True, False):
            q.execute("input-send-event", events=[
                {"type": "key", "data": {"down": down, "key": {"type": "qcode", "data": k}}}])
            time.sleep(0.1)


def events(log, prefix):
    return [line for line in read(log).splitlines() if line.startswith(prefix)]


def wait_log(log, line, timeout=30, times=1):
    """Waits until the client's log holds the line (that many times)."""
    deadline = time.monotonic() + timeout
    while read(log).splitlines().count(line) < times:
        if time.monotonic() > deadline:
            return False
        time.sleep(0.2)
    return True


def bbox(pixels, width, colour):
    """The rectangle (x1, y1, x2, y2) that the pixels of a colour cover, or None."""
    xs, ys = [], []
    for i, p in enumerate(pixels):
        if p == colour:
            xs.append(i % width)
            ys.append(i // width)
    return (min(xs), min(ys), max(xs) + 1, max(ys) + 1) if xs else None


def is_text_console(pixels):
    """No garnet window, and the text written on tty1 (light pixels on black) shows."""
    light = sum(1 for p in pixels if min(p) > 0x80)
    return count(pixels, GREEN) == 0 and count(pixels, BLUE) == 0 and light > 500


def run(q):
    wait_file("guest.up")
    w, h, screen = screendump(q)
    gw, gh, garnet = read_png(os.path.join(R, "garnet.png"))
    check((w, h) == (gw, gh), f"screendump {w}x{h} is the size of garnet's capture {gw}x{gh}")
    differing = [(i % w, i // w) for i, (a, b) in enumerate(zip(screen, garnet)) if a != b]
    if os.environ.get("GARNET_EXPECT_CURSOR_PLANE"):
        # The arrow at the pointer's start (0, 0) is on the cursor plane: on the screen, not
        # in the frame garnet painted and captured.
        check(differing and all(x < ARROW[0] and y < ARROW[1] for x, y in differing) and
              screen[0] == BLACK and screen[2 * w + 1] == WHITE,
              f"screendump is garnet's capture plus the arrow on the cursor plane "
              f"({len(differing)} pixels differ, {screen[0]}, {screen[2 * w + 1]})")
        check("cursor plane" in read("garnet1.log"), "garnet found the cursor plane")
    else:
        check(not differing, f"screendump matches garnet's own capture ({len(differing)} pixels differ)")
    check(count(screen, GREEN) == WINDOW[0] * WINDOW[1], "the client's window is on screen")
    size = (w, h)
    ax, ay = (w - WINDOW[0]) // 2, (h - WINDOW[1]) // 2

    # Input through the emulated tablet and keyboard reaches the client under it, exactly.
    click(q, size, ax + 100, ay + 100)
    check(wait_log("a.log", "button 272 0"), "the click reached the client")
    type_keys(q, ["a", "b"])
    check(wait_log("a.log", "key 48 0"), "the keys reached the client")
    check(events("a.log", "button ") == ["button 272 1", "button 272 0"],
          f"the client saw exactly one click: {events('a.log', 'button ')}")
    check(events("a.log", "key ") == ["key 30 1", "key 30 0", "key 48 1", "key 48 0"],
          f"the client saw exactly a and b: {events('a.log', 'key ')}")

    # Focus follows the click: keys go to the window clicked, and only to it.
    ask("second-client")
    _, _, two = screendump(q)
    # garnet's own arrow is drawn at the pointer (the test client sets no cursor image), over
    # the second window, which covers the point clicked.
    px, py = ax + 100, ay + 100
    check(two[py * w + px] == BLACK and two[(py + 2) * w + px + 1] == WHITE,
          f"garnet's arrow is at the pointer: {two[py * w + px]}, {two[(py + 2) * w + px + 1]}")
    if os.environ.get("GARNET_EXPECT_CURSOR_PLANE"):
        # Moves of the arrow on the plane paint no frame: the display moves it.
        log = read("garnet1.log")
        moves, paints = log.count("repaint (cursor only)"), log.count("repaint (painted)")
        print(f"# pointer moves shown by the cursor plane alone: {moves}, frames painted: {paints}")
        check(moves > 0, "moving the pointer moved the cursor plane without painting a frame")
    check(WINDOW[0] * WINDOW[1] - ARROW_AREA <= count(two, BLUE) <= WINDOW[0] * WINDOW[1],
          "the second window is on top")
    first, second = bbox(two, w, GREEN), bbox(two, w, BLUE)
    check(first == (ax, ay, ax + WINDOW[0], ay + WINDOW[1]) and
          second == (ax + 32, ay + 32, ax + 32 + WINDOW[0], ay + 32 + WINDOW[1]),
          f"the windows are placed centred and cascaded: {first}, {second}")
    bx, by = second[0], second[1]
    # The user was typing into the first window: the second, another client's, comes up on top
    # but without the keyboard (it demands attention; the focus authority, doc/compositor.md).
    check(events("b.log", "keyboard-enter") == [],
          "a new window of another client does not take the keyboard from the one typed into")
    click(q, size, ax + 10, ay + 10)
    type_keys(q, ["c"])
    check(wait_log("a.log", "key 46 0"), "the key reached the clicked window")
    time.sleep(1)
    check(events("b.log", "key ") == [], f"the other client saw no key: {events('b.log', 'key ')}")
    click(q, size, bx + WINDOW[0] - 10, by + WINDOW[1] - 10)
    check(wait_log("b.log", "button 272 0"), "clicking the second window reaches it")
    type_keys(q, ["d"])
    check(wait_log("b.log", "key 32 0"), "the key reached the second window")
    time.sleep(1)
    check("key 32 1" not in events("a.log", "key "), "the first client did not see it")
    _, _, desktop = screendump(q)

    # VT switch away and back with Ctrl+Alt+F2 / Ctrl+Alt+F1.
    q.key("ctrl-alt-f2")
    time.sleep(3)
    _, _, away = screendump(q)
    check(is_text_console(away), "after Ctrl+Alt+F2 the text console of tty2 shows")
    q.key("ctrl-alt-f1")
    deadline = time.monotonic() + 30
    while True:
        time.sleep(1)
        _, _, back = screendump(q)
        if back == desktop or time.monotonic() > deadline:
            break
    check(back == desktop, "after Ctrl+Alt+F1 the desktop is back as it was")
    type_keys(q, ["e"])
    check(wait_log("b.log", "key 18 0"), "input works again after switching back")

    # Exit: the text console comes back, whether garnet exits or is killed.
    ask("sigterm")
    time.sleep(1)
    _, _, text = screendump(q)
    check(is_text_console(text), "after SIGTERM the text console is back")
    ask("restart")
    _, _, again = screendump(q)
    check(count(again, GREEN) == WINDOW[0] * WINDOW[1], "garnet --tty=3 started from no terminal shows its desktop on VT 3")
    ask("presentation")
    print("PASS: presentation feedback carries the time of the page flip that showed the frame")
    ask("sigkill")
    _, _, text = screendump(q)
    check(is_text_console(text), "after SIGKILL the seat daemon gives the text console back")

    # garnet.ini: [output] mode, scale and transform, [libinput] natural scrolling and
    # left-handed buttons.
    ask("configured")
    w, h, shot = screendump(q)
    check((w, h) == (800, 600), f"[output] mode=800x600 is the mode on screen: {w}x{h}")
    box = bbox(shot, w, GREEN)
    check(box is not None and (box[2] - box[0], box[3] - box[1]) == (160, 200),
          f"scale=2 and transform=90: the 100x80 window covers 160x200 pixels: {box}")
    size = (w, h)
    tablet(q, size, w // 2, h // 2)
    check(wait_log("a.log", "keyboard-enter"), "the window has the keyboard")
    time.sleep(0.5)
    for down in (True, False):
        q.execute("input-send-event", events=[
            {"type": "btn", "data": {"down": down, "button": "wheel-up"}}])
        time.sleep(0.2)
    time.sleep(1)
    axes = events("a.log", "axis 0 ")
    check(axes and all(float(a.split()[2]) > 0 for a in axes),
          f"natural-scroll=true: the wheel turned up scrolls content up (positive): {axes}")
    buttons = len(events("a.log", "button "))
    for down in (True, False):
        q.execute("input-send-event", events=[
            {"type": "btn", "data": {"down": down, "button": "left"}}])
        time.sleep(0.2)
    time.sleep(1)
    pressed = events("a.log", "button ")[buttons:]
    check(pressed == ["button 273 1", "button 273 0"],
          f"left-handed=true: the left button is the secondary one (BTN_RIGHT): {pressed}")

    # A keyboard plugged in while garnet runs types into the focused window; unplugged, it
    # leaves garnet running.
    # QEMU sends keys to the keyboard its guest driver made active last: the new one.
    q.execute("device_add", driver="virtio-keyboard-pci", id="kbd2")
    ask("keyboard-added")
    type_keys(q, ["x"])
    check(wait_log("a.log", "key 45 0"), "the keyboard plugged in at run time types into the window")
    q.execute("device_del", id="kbd2")
    ask("keyboard-removed")
    type_keys(q, ["y"])
    check(wait_log("a.log", "key 21 0"), "the first keyboard still types after the second went")

    # A touch screen (uinput in the guest) touches the middle: the window there gets it.
    ask("touch")
    check(events("a.log", "touch-") == ["touch-down 0", "touch-up 0"],
          f"a touch screen plugged in at run time touches the window: {events('a.log', 'touch-')}")

    # The output is unplugged and plugged again (the connector's status forced off, then
    # detected): garnet follows, and the window is back on the configured mode.
    ask("output-off")
    ask("output-on")
    _, _, again = screendump(q)
    box = bbox(again, w, GREEN)
    check(box is not None and (box[2] - box[0], box[3] - box[1]) == (160, 200),
          f"the output came back as configured, with the window on it: {box}")
    open(os.path.join(R, "host.finished"), "w").close()


def main():
    q = qmp_module.QMP(os.environ["GARNET_VM_QMP"])
    try:
        run(q)
    except Skipped as e:
        print(f"SKIP: {e}", flush=True)
        return 77
    except (Failed, qmp_module.QMPError, OSError, ValueError) as e:
        print(f"FAIL: {e}", flush=True)
        for name in ("guest.log", "garnet1.log", "garnet1.log.out", "garnet2.log", "garnet3.log",
                     "seatd.log", "a.log",
                     "b.log"):
            text = read(name)
            if text:
                print(f"---- {name} (last lines)")
                print("\n".join(text.splitlines()[-40:]))
        open(os.path.join(R, "host-failed"), "w").close()
        time.sleep(3)  # the guest adds what it knows about garnet
        print("---- guest.log after the failure")
        print("\n".join(read("guest.log").splitlines()[-20:]))
        print("---- garnet1.log.out")
        print("\n".join(read("garnet1.log.out").splitlines()[-60:]))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
