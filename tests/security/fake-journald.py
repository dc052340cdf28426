#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# A stand-in for journald's native socket: each entry received (sd_journal_send's datagrams,
# or a memfd passed with one when the entry is big) is written to OUT as one JSON object.
# usage: fake-journald.py SOCKET OUT   (prints "ready" once it listens)
import array
import json
import os
import socket
import struct
import sys


def parse(data):
    fields = {}
    while data:
        line_end = data.find(b"\n")
        if line_end < 0:
            break
        head = data[:line_end]
        if b"=" in head:
            name, value = head.split(b"=", 1)
            data = data[line_end + 1:]
        else:
            # NAME\n, a 64-bit little-endian size, the value, \n: values with newlines.
            name = head
            size = struct.unpack("<Q", data[line_end + 1:line_end + 9])[0]
            value = data[line_end + 9:line_end + 9 + size]
            data = data[line_end + 9 + size + 1:]
        fields[name.decode()] = value.decode(errors="replace")
    return fields


def main():
    path, out = sys.argv[1], sys.argv[2]
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(path)
    os.chmod(path, 0o666)
    print("ready", flush=True)
    with open(out, "a") as f:
        while True:
            fds = array.array("i")
            data, ancdata, _, _ = sock.recvmsg(1 << 20, socket.CMSG_SPACE(4))
            for level, kind, cdata in ancdata:
                if level == socket.SOL_SOCKET and kind == socket.SCM_RIGHTS:
                    fds.frombytes(cdata[:len(cdata) - len(cdata) % 4])
            for fd in fds:
                data = os.pread(fd, 1 << 24, 0)
                os.close(fd)
            f.write(json.dumps(parse(data)) + "\n")
            f.flush()


if __name__ == "__main__":
    main()
