#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The deep install test (./check --deep): garnet's Debian packages installed into a Debian 12
root and booted as a user would boot them.

Stages, each one TAP subtest with its time; the first that fails ends the run and every later
one is reported as not run:
  root      the cached debootstrap root (tools/debian-root.sh; fetched once)
  debs      the packages, built from a clean copy by debian-packages-test.sh, or taken from
            GARNET_DEB_OUT when it already holds them
  install   apt installs garnet, garnet-dkms, libgarnet0, libwmac1 into a copy of the root
            (an overlay on the cache, which stays clean), DKMS builds garnet.ko there; a user
            is added; mkfs.ext4 -d makes the disk image
  boot      QEMU (TCG) boots the image's own kernel and initrd with systemd as init and a
            bochs-display; garnet.ko (from DKMS) is loaded and drives it
  login     the user name and password are typed on tty1 through QMP send-key; the login
            shell starts garnet from the installed session entry, logind holds the session
  desktop   a QMP screendump shows garnet's desktop, not the text console
  untrusted garnet-screenshooter, started by the user outside garnet, is refused the capture
  audit     journalctl -t garnet-audit in the guest holds that denial, with the client's pid

usage: deep-install-test.py SOURCE_DIR   (TAP; runs only with GARNET_DEEP=1, else a skip plan:
meson reads a TAP test's exit status 77 as an error, not a skip)
"""

import glob
import json
import re
import os
import shutil
import subprocess
import sys
import tempfile
import time

SOURCE = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else ".")
sys.path.insert(0, os.path.join(SOURCE, "tests", "vm"))
from qmp import QMP, QMPError  # noqa: E402

USER = "ada"
PASSWORD = "garnet-deep"
PACKAGES = ["garnet", "garnet-dkms", "libgarnet0", "libwmac1"]
STAGES = ["root", "debs", "install", "boot", "login", "desktop", "untrusted", "audit"]
# garnet's [shell] background-color in the installed garnet.ini (data/garnet.ini)
BACKGROUND = (0x2E, 0x34, 0x40)
SCALE = float(os.environ.get("GARNET_VM_TIMEOUT_SCALE", "1") or "1")


class StageFailed(Exception):
    pass


def run(cmd, log, **kw):
    """Runs cmd with its output appended to log; raises StageFailed with the tail."""
    with open(log, "a") as f:
        f.write(f"$ {' '.join(cmd)}\n")
        f.flush()
        r = subprocess.run(cmd, stdout=f, stderr=subprocess.STDOUT, **kw)
    if r.returncode != 0:
        with open(log, errors="replace") as f:
            tail = f.read().splitlines()[-25:]
        raise StageFailed(f"{cmd[0]} failed with status {r.returncode}\n" + "\n".join(tail))


class DeepInstall:
    def __init__(self, work):
        self.work = work
        self.results = os.path.join(work, "results")
        os.makedirs(self.results)
        self.log = os.path.join(work, "log.txt")
        self.mounts = []
        self.qemu = None
        self.qmp = None
        self.release = subprocess.run(
            ["sh", os.path.join(SOURCE, "tools", "debian-kernel.sh"), "release"],
            capture_output=True, text=True, check=True).stdout.strip()

    def cleanup(self):
        if self.qemu and self.qemu.poll() is None:
            self.qemu.kill()
            self.qemu.wait()
        for m in reversed(self.mounts):
            subprocess.run(["umount", "-l", m], stderr=subprocess.DEVNULL)
        self.mounts = []

    def read(self, name):
        try:
            with open(os.path.join(self.results, name), errors="replace") as f:
                return f.read()
        except FileNotFoundError:
            return ""

    def wait_marker(self, name, timeout):
        deadline = time.monotonic() + timeout * SCALE
        path = os.path.join(self.results, name + ".done")
        while not os.path.exists(path):
            if self.qemu.poll() is not None:
                raise StageFailed(f"the guest stopped before '{name}'\n" + self.tail())
            if os.path.exists(os.path.join(self.results, "finished.done")):
                raise StageFailed(f"the guest gave up before '{name}'\n" + self.tail())
            if time.monotonic() > deadline:
                raise StageFailed(f"no '{name}' from the guest in {timeout * SCALE:.0f} s\n" +
                                  self.tail())
            time.sleep(0.5)

    def tail(self):
        probe = self.read("probe.log").splitlines()[-10:]
        console = self.read("console.log").splitlines()[-15:]
        return "\n".join(["probe: " + line for line in probe] +
                         ["console: " + line for line in console])

    # --- stages -------------------------------------------------------------------------

    def stage_root(self):
        run(["sh", os.path.join(SOURCE, "tools", "debian-root.sh"), "build"], self.log)
        self.root = subprocess.run(
            ["sh", os.path.join(SOURCE, "tools", "debian-root.sh"), "path"],
            capture_output=True, text=True, check=True).stdout.strip()
        return f"root {self.root}, kernel {self.release}"

    def stage_debs(self):
        given = os.environ.get("GARNET_DEB_OUT", "")
        if given and glob.glob(os.path.join(given, "garnet_*.deb")):
            self.debs = given
            how = f"taken from GARNET_DEB_OUT={given}"
        else:
            self.debs = os.path.join(self.work, "debs")
            os.makedirs(self.debs)
            env = dict(os.environ, GARNET_DEB_OUT=self.debs)
            tap = os.path.join(self.work, "debian-packages-test.txt")
            run(["sh", os.path.join(SOURCE, "tests", "packaging", "debian-packages-test.sh"),
                 SOURCE], tap, env=env)
            with open(tap) as f:
                bad = [line for line in f.read().splitlines() if line.startswith("not ok")]
            if bad:
                raise StageFailed("debian-packages-test.sh: " + "; ".join(bad))
            how = "built from a clean copy, lintian clean (debian-packages-test.sh)"
        self.deb_files = []
        for p in PACKAGES:
            found = sorted(glob.glob(os.path.join(self.debs, f"{p}_*.deb")))
            if not found:
                raise StageFailed(f"no {p}_*.deb in {self.debs}")
            self.deb_files.append(found[-1])
        return how

    def chroot(self, *cmd):
        run(["chroot", self.merged, "env", "DEBIAN_FRONTEND=noninteractive", "LC_ALL=C.UTF-8",
             "PATH=/usr/sbin:/usr/bin:/sbin:/bin"] + list(cmd), self.log)

    def stage_install(self):
        # An overlay keeps the cached root as debootstrap left it.
        upper = os.path.join(self.work, "upper")
        lower_work = os.path.join(self.work, "overlay-work")
        self.merged = os.path.join(self.work, "merged")
        for d in (upper, lower_work, self.merged):
            os.makedirs(d)
        run(["mount", "-t", "overlay", "overlay", "-o",
             f"lowerdir={self.root},upperdir={upper},workdir={lower_work}", self.merged],
            self.log)
        self.mounts.append(self.merged)
        for m in ("/proc", "/sys", "/dev", "/dev/pts"):
            run(["mount", "--bind", m, self.merged + m], self.log)
            self.mounts.append(self.merged + m)
        shutil.copy("/etc/resolv.conf", os.path.join(self.merged, "etc", "resolv.conf"))
        inside = os.path.join(self.merged, "tmp", "debs")
        os.makedirs(inside)
        for d in self.deb_files:
            shutil.copy(d, inside)
        t = time.monotonic()
        # As a user installs them: with their Recommends (polkitd, which logind needs to let
        # the session's libseat activate it). apt finds the dependencies in the root's own
        # packages, and downloads what is missing.
        self.chroot("apt-get", "install", "-y",
                    *[f"/tmp/debs/{os.path.basename(d)}" for d in self.deb_files])
        apt_s = time.monotonic() - t
        ko = glob.glob(os.path.join(self.merged, "lib", "modules", self.release, "updates",
                                    "dkms", "garnet.ko*"))
        if not ko:
            raise StageFailed(f"DKMS installed no garnet.ko for {self.release}")
        shutil.rmtree(inside)
        os.unlink(os.path.join(self.merged, "etc", "resolv.conf"))
        self.configure_guest()
        for m in reversed(self.mounts[1:]):
            run(["umount", m], self.log)
        self.mounts = self.mounts[:1]
        t = time.monotonic()
        self.image = os.path.join(self.work, "disk.img")
        run(["mkfs.ext4", "-q", "-F", "-L", "garnet-deep", "-d", self.merged, self.image, "6G"],
            self.log)
        mkfs_s = time.monotonic() - t
        # The kernel and initrd are the root's own, booted directly (no boot loader).
        for name in (f"vmlinuz-{self.release}", f"initrd.img-{self.release}"):
            shutil.copy(os.path.join(self.merged, "boot", name), self.work)
        run(["umount", self.merged], self.log)
        self.mounts = []
        return f"apt with DKMS {apt_s:.0f} s, mkfs.ext4 -d {mkfs_s:.0f} s"

    def configure_guest(self):
        """What an administrator would do after installing: a user, a disk to mount, and the
        test's own probe (a service that reports to the host)."""
        m = self.merged
        self.chroot("useradd", "-m", "-s", "/bin/bash", USER)
        run(["chroot", m, "chpasswd"], self.log, input=f"{USER}:{PASSWORD}\n".encode())
        with open(os.path.join(m, "etc", "fstab"), "w") as f:
            f.write("LABEL=garnet-deep / ext4 defaults 0 1\n")
        with open(os.path.join(m, "etc", "hostname"), "w") as f:
            f.write("garnet-deep\n")
        # The login shell on tty1 starts the installed session entry, as a display manager
        # would; its stderr (garnet's log, when not under the journal) goes to a file, as a
        # display manager's session log does.
        profile = os.path.join(m, "home", USER, ".bash_profile")
        with open(profile, "w") as f:
            f.write('if [ "$(tty)" = /dev/tty1 ]; then\n'
                    '\tsession=$(sed -n "s/^Exec=//p" /usr/share/wayland-sessions/garnet.desktop)\n'
                    '\texec $session 2>"$HOME/garnet-session.log"\n'
                    'fi\n')
        self.chroot("chown", f"{USER}:{USER}", f"/home/{USER}/.bash_profile")
        probe = os.path.join(m, "usr", "local", "sbin", "garnet-deep-probe")
        shutil.copy(os.path.join(SOURCE, "tests", "packaging", "deep-guest-probe.sh"), probe)
        os.chmod(probe, 0o755)
        unit = os.path.join(m, "etc", "systemd", "system", "garnet-deep-probe.service")
        with open(unit, "w") as f:
            f.write("[Unit]\nDescription=garnet deep install test probe\n"
                    "After=multi-user.target getty@tty1.service\n\n"
                    "[Service]\nType=simple\n"
                    f"ExecStart=/usr/local/sbin/garnet-deep-probe {USER}\n\n"
                    "[Install]\nWantedBy=multi-user.target\n")
        self.chroot("systemctl", "enable", "garnet-deep-probe.service")
        # Timers that would start apt and man-db jobs in the middle of a slow boot.
        self.chroot("systemctl", "mask", "apt-daily.timer", "apt-daily-upgrade.timer",
                    "man-db.timer", "e2scrub_all.timer", "fstrim.timer")

    def stage_boot(self):
        qemu = shutil.which("qemu-system-x86_64")
        if not qemu:
            raise StageFailed("qemu-system-x86_64 is missing")
        self.qmp_path = os.path.join(self.work, "qmp.sock")
        # No blacklist on the command line: Debian's bochs also matches the bochs-display, and
        # garnet-dkms's own /etc/modprobe.d file must be what keeps it off the device.
        append = ["root=LABEL=garnet-deep", "rw", "console=ttyS0",
                  "systemd.show_status=1", "panic=-1"]
        cmd = [qemu, "-accel", "tcg", "-cpu", "max,erms=off,fsrm=off", "-smp", "2",
               "-m", "2048", "-nodefaults", "-no-reboot",
               "-kernel", os.path.join(self.work, f"vmlinuz-{self.release}"),
               "-initrd", os.path.join(self.work, f"initrd.img-{self.release}"),
               "-append", " ".join(append),
               "-drive", f"file={self.image},if=virtio,format=raw,cache=unsafe",
               "-device", "bochs-display", "-display", "none",
               "-chardev", f"file,id=console,path={self.results}/console.log",
               "-serial", "chardev:console", "-monitor", "none",
               "-qmp", f"unix:{self.qmp_path},server=on,wait=off",
               "-virtfs", f"local,path={self.results},mount_tag=results,security_model=none"]
        with open(self.log, "a") as f:
            f.write("$ " + " ".join(cmd) + "\n")
        self.qemu = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                     stderr=open(os.path.join(self.work, "qemu.err"), "w"),
                                     start_new_session=True)
        self.qmp = QMP(self.qmp_path)
        self.wait_marker("booted", 900)
        dkms = self.read("dkms.txt")
        lsmod = self.read("lsmod.txt")
        drm = self.read("drm.txt")
        for line in (self.read("system-state.txt") + dkms + drm).splitlines():
            print(f"# guest: {line}")
        if "garnet/" not in dkms or "installed" not in dkms:
            raise StageFailed("dkms status does not show garnet installed")
        if not any(line.split()[:1] == ["garnet"] for line in lsmod.splitlines()):
            raise StageFailed("garnet.ko is not loaded (lsmod)")
        # Its engine runs on the kernel's GPU scheduler, which modprobe loads first.
        if not any(line.split()[:1] == ["gpu_sched"] and "garnet" in line.split()[3:4][0].split(",")
                   for line in lsmod.splitlines() if len(line.split()) >= 4):
            raise StageFailed("gpu_sched is not loaded for garnet (lsmod)")
        if "/updates/dkms/garnet.ko" not in dkms:
            raise StageFailed("the loaded garnet is not DKMS's (modinfo -n garnet)")
        if not re.search(r"^bochs-display \S+ driver garnet$", drm, re.M):
            raise StageFailed("garnet.ko does not drive the bochs-display: " + drm.strip())
        connectors = re.findall(r"^card\d+-\S+$", drm, re.M)
        if not connectors:
            raise StageFailed("DRM has no connector: " + drm.strip())
        return f"DKMS's garnet.ko loaded, driving the bochs-display ({', '.join(connectors)})"

    def type_text(self, text):
        names = {"-": "minus", " ": "spc", "/": "slash", ".": "dot", "=": "equal"}
        for ch in text:
            if ch.isupper():
                self.qmp.key("shift-" + ch.lower())
            else:
                self.qmp.key(names.get(ch, ch))
            time.sleep(0.05)
        self.qmp.key("ret")

    def stage_login(self):
        self.wait_marker("getty", 300)
        # agetty is up; give it a moment to print the prompt and read the terminal.
        time.sleep(3)
        self.type_text(USER)
        self.wait_marker("login", 120)
        # login asks for the password once PAM is set up; typed ahead, the tty buffers it.
        time.sleep(5)
        self.type_text(PASSWORD)
        self.wait_marker("garnet", 300)
        session = self.read("session.txt")
        for line in session.splitlines():
            print(f"# guest session: {line}")
        fields = dict(line.split("=", 1) for line in session.splitlines() if "=" in line)
        want = {"Name": USER, "TTY": "tty1", "Seat": "seat0", "Active": "yes"}
        wrong = [f"{k}={fields.get(k)!r}" for k, v in want.items() if fields.get(k) != v]
        if wrong:
            raise StageFailed("logind's session is not the user's on tty1: " + ", ".join(wrong))
        if not fields.get("cmdline"):
            raise StageFailed("garnet exited right after it started (its log follows the "
                              "stages)")
        if "session-" not in fields.get("cgroup", ""):
            raise StageFailed("garnet does not run in the logind session: " + fields["cgroup"])
        if "garnet --backend=drm" not in fields.get("cmdline", ""):
            raise StageFailed("garnet was not started from the session entry: " +
                              fields.get("cmdline", ""))
        return f"logind session {fields.get('Id')} on tty1, type {fields.get('Type')}"

    def screendump(self, name):
        path = os.path.join(self.results, name)
        self.qmp.screendump(path)
        with open(path, "rb") as f:
            data = f.read()
        parts = data.split(maxsplit=4)
        if parts[0] != b"P6" or parts[3] != b"255":
            raise StageFailed(f"{name} is not an 8-bit PPM")
        w, h = int(parts[1]), int(parts[2])
        raw = parts[4][:w * h * 3]
        return w, h, [tuple(raw[i:i + 3]) for i in range(0, len(raw), 3)]

    def stage_desktop(self):
        deadline = time.monotonic() + 120 * SCALE
        while True:
            w, h, px = self.screendump("desktop.ppm")
            share = sum(1 for p in px if p == BACKGROUND) / max(1, len(px))
            # The text console is black with grey text; garnet's desktop is its background.
            if share > 0.5:
                break
            if time.monotonic() > deadline:
                black = sum(1 for p in px if p == (0, 0, 0)) / max(1, len(px))
                raise StageFailed(f"the screen is not garnet's desktop: {share:.0%} background, "
                                  f"{black:.0%} black ({w}x{h}, results/desktop.ppm)")
            time.sleep(3)
        open(os.path.join(self.results, "host-screendump.done"), "w").close()
        return f"{w}x{h}, {share:.0%} of the pixels garnet's background"

    def stage_untrusted(self):
        self.wait_marker("untrusted", 300)
        out = self.read("untrusted.txt")
        rc = self.read("untrusted.rc").strip()
        for line in out.splitlines():
            print(f"# guest client: {line}")
        if rc == "0" or "not trusted" not in out:
            raise StageFailed(f"the untrusted client was not refused (status {rc})")
        # The refusal is the installed policy's: garnet's log (the session's stderr) names it.
        log = self.read("garnet-session.log")
        if "info security: policy /etc/wmac/wmac.policy" not in log or " error " in log:
            for line in log.splitlines()[:30]:
                print(f"# garnet: {line}")
            raise StageFailed("garnet's log does not show the installed policy loaded cleanly")
        return f"garnet-screenshooter: {out.strip()}"

    def stage_audit(self):
        pid = self.read("untrusted.pid").strip()
        audit = self.read("audit.txt")
        for line in audit.splitlines()[-10:]:
            print(f"# guest audit: {line}")
        hit = []
        for line in self.read("audit.json").splitlines():
            try:
                e = json.loads(line)
            except ValueError:
                continue
            if (e.get("GARNET_CLIENT_PID") == pid and e.get("GARNET_DECISION") == "deny" and
                    "screencopy" in e.get("MESSAGE", "")):
                hit.append(e)
        if not hit:
            raise StageFailed(f"journalctl -t garnet-audit has no screencopy denial for pid {pid}")
        print(f"# the record: {hit[0].get('MESSAGE')} (permission {hit[0].get('GARNET_PERMISSION')},"
              f" reason {hit[0].get('GARNET_REASON')})")
        return "the denial of pid " + pid + " is in the journal"


def main():
    if os.environ.get("GARNET_DEEP", "") in ("", "0"):
        print("1..0 # SKIP runs only in ./check --deep (GARNET_DEEP=1): installs the Debian "
              "packages into a debootstrapped Debian 12 root and boots it")
        return 0
    if os.geteuid() != 0:
        print("1..0 # SKIP needs root (debootstrap, chroot, mounts)")
        return 0
    keep = os.environ.get("KEEP", "")
    work = tempfile.mkdtemp(prefix="garnet-deep-install-")
    t = DeepInstall(work)
    print(f"1..{len(STAGES)}")
    failed = None
    status = 0
    try:
        for i, name in enumerate(STAGES, 1):
            if failed:
                print(f"not ok {i} - {name} # not run: stage {failed} failed")
                continue
            start = time.monotonic()
            try:
                what = getattr(t, "stage_" + name)()
                print(f"ok {i} - {name} ({time.monotonic() - start:.0f} s: {what})")
            except (StageFailed, QMPError, OSError, subprocess.CalledProcessError) as e:
                failed = name
                status = 1
                print(f"not ok {i} - {name} ({time.monotonic() - start:.0f} s)")
                for line in str(e).splitlines():
                    print(f"# {line}")
            sys.stdout.flush()
    finally:
        if failed and t.qemu and t.qemu.poll() is None:
            # The probe gives up too, and collects the journal and garnet's log first.
            open(os.path.join(t.results, "host-failed.done"), "w").close()
        if t.qemu and t.qemu.poll() is None:
            # The probe powers the guest off once it has collected the journal.
            try:
                t.qemu.wait(timeout=120 * SCALE)
            except subprocess.TimeoutExpired:
                pass
        t.cleanup()
        if status and t.read("garnet-session.log"):
            print("# garnet's log in the guest (~/garnet-session.log):")
            for line in t.read("garnet-session.log").splitlines()[-30:]:
                print(f"#   {line}")
        if keep or status:
            print(f"# work directory kept: {work} (results/ holds the guest's reports)")
            for f in ("disk.img", "upper", "merged", "overlay-work"):
                p = os.path.join(work, f)
                if os.path.isdir(p) and not keep:
                    shutil.rmtree(p, ignore_errors=True)
                elif os.path.isfile(p) and not keep:
                    os.unlink(p)
        else:
            shutil.rmtree(work, ignore_errors=True)
    return status


if __name__ == "__main__":
    sys.exit(main())
