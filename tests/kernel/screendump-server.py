#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Host side of the display tests: takes QMP screendumps when the guest asks for them.

Run as garnet-vm's --host-cmd (GARNET_VM_QMP, GARNET_VM_RESULTS set). A guest test writes
NAME.req into the results directory; this writes NAME.ppm (what QEMU's display shows) and then
NAME.done. It stops when QEMU goes away.

usage: screendump-server.py
"""
import os
import select
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "vm"))
from qmp import QMP, QMPError  # noqa: E402


def main():
    results = os.environ["GARNET_VM_RESULTS"]
    try:
        qmp = QMP(os.environ["GARNET_VM_QMP"])
    except (QMPError, OSError) as e:
        print(f"screendump-server.py: {e}", file=sys.stderr)
        return 1
    open(os.path.join(results, "screendump-server.ready"), "w").close()
    while True:
        # QEMU closes the socket when the guest powers off; events are read and dropped.
        try:
            readable, _, _ = select.select([qmp.sock], [], [], 0.02)
            if readable and not qmp.file.readline():
                return 0
        except OSError:
            return 0
        try:
            names = sorted(n for n in os.listdir(results) if n.endswith(".req"))
        except FileNotFoundError:
            return 0  # the run is over and its results directory gone
        for name in names:
            base = os.path.join(results, name[:-len(".req")])
            try:
                qmp.screendump(base + ".ppm.tmp")
                os.rename(base + ".ppm.tmp", base + ".ppm")
            except (QMPError, OSError):
                return 0  # QEMU exited: the guest is done
            open(base + ".done", "w").close()
            os.unlink(os.path.join(results, name))


if __name__ == "__main__":
    sys.exit(main())
