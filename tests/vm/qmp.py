#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A small QMP client for tests: screendumps and input events sent to the VM from the host.

  qmp.py SOCKET screendump FILE.ppm        what QEMU's display shows, as a PPM
  qmp.py SOCKET key KEY[-KEY...]           press and release, e.g. ctrl-alt-f2 or a
  qmp.py SOCKET move X Y                   absolute pointer move (0..32767 on each axis)
  qmp.py SOCKET click [left|right|middle]
  qmp.py SOCKET query-status
"""

import json
import socket
import sys
import time


class QMPError(Exception):
    pass


class QMP:
    def __init__(self, path, timeout=30.0):
        deadline = time.monotonic() + timeout
        while True:
            try:
                self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                self.sock.settimeout(timeout)
                self.sock.connect(path)
                break
            except (FileNotFoundError, ConnectionRefusedError):
                self.sock.close()
                if time.monotonic() > deadline:
                    raise QMPError(f"no QMP socket at {path}")
                time.sleep(0.1)
        self.file = self.sock.makefile("rw")
        self._read()  # greeting
        self.execute("qmp_capabilities")

    def _read(self):
        while True:
            line = self.file.readline()
            if not line:
                raise QMPError("QEMU closed the QMP connection")
            msg = json.loads(line)
            if "event" not in msg:
                return msg

    def execute(self, command, **arguments):
        msg = {"execute": command}
        if arguments:
            msg["arguments"] = arguments
        self.file.write(json.dumps(msg) + "\n")
        self.file.flush()
        reply = self._read()
        if "error" in reply:
            raise QMPError(f"{command}: {reply['error'].get('desc', reply['error'])}")
        return reply.get("return")

    def screendump(self, path):
        self.execute("screendump", filename=path)

    def key(self, combo):
        keys = [{"type": "qcode", "data": k} for k in combo.split("-")]
        self.execute("send-key", keys=keys)

    def move(self, x, y):
        self.execute("input-send-event", events=[
            {"type": "abs", "data": {"axis": "x", "value": x}},
            {"type": "abs", "data": {"axis": "y", "value": y}}])

    def click(self, button="left"):
        for down in (True, False):
            self.execute("input-send-event", events=[
                {"type": "btn", "data": {"down": down, "button": button}}])


def main(argv):
    if len(argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    try:
        q = QMP(argv[1])
        cmd, args = argv[2], argv[3:]
        if cmd == "screendump" and len(args) == 1:
            q.screendump(args[0])
        elif cmd == "key" and len(args) == 1:
            q.key(args[0])
        elif cmd == "move" and len(args) == 2:
            q.move(int(args[0]), int(args[1]))
        elif cmd == "click" and len(args) <= 1:
            q.click(*args)
        elif cmd == "query-status" and not args:
            print(json.dumps(q.execute("query-status")))
        else:
            print(__doc__, file=sys.stderr)
            return 2
    except (QMPError, OSError, ValueError) as e:
        print(f"qmp.py: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
