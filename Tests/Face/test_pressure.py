#!/usr/bin/env python3
"""Memory pressure on the whole appliance (issue 38): the clock, the second waker and the face in one memory
cgroup limited to 384 MiB, and a hog (processes of 96 MiB) that eats past the limit while an alarm is due. The kernel's out-of-memory
killer must take the face, never the clock: the face runs with oom_score_adj +500 (as its unit's
OOMScoreAdjust=500 gives it), and the alarm rings at its due second as the clock itself reports it.

The group: a child of our own memory cgroup — cgroup v2 (`memory.max`) where a mounted cgroup2 hierarchy offers
the memory controller to our group's children (or its parent's), else cgroup v1 (`memory.limit_in_bytes`, and
`memory.memsw.limit_in_bytes` where swap is accounted). Neither writable: the test is skipped with one line
saying so. Each process moves itself into the group before it runs its program (a shell writes its pid to
`cgroup.procs`, then execs), and the group is emptied and removed at the end.

The clock and the waker keep oom_score_adj 0 here: lowering it needs CAP_SYS_RESOURCE, which a container's root
may lack (the HIL's systemd boot checks the units' -900 under a real systemd). The face is Chromium through the
packaged launcher under cage, as the kiosk runs today, or the native face when AUBADE_FACE names its binary
(`aubade-face --port N --size 800x480 --json`, SDL's offscreen driver).

Every program started here dies with the test: each is started under `setpriv --pdeathsig KILL` from the main
thread, and everything left in the group is killed before the group is removed.

Usage: Tests/Face/test_pressure.py AUBADE_BINARY   (the waker beside it; env: AUBADE_FACE)
"""

import datetime
import os
import pwd
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import unittest
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
sys.path.insert(0, str(ROOT / "Tests" / "Support"))
from daemon_rig import DIE_WITH_US, WATCHDOG, DaemonClock, end_session, free_port, session_pids, wait_until  # noqa: E402

LAUNCHER = ROOT / "deploy" / "kiosk" / "aubade-kiosk"
LIMIT = 384 * 1024 * 1024
LEAD = 45  # seconds from the clock's start to the alarm
FACE_OOM_SCORE_ADJ = 500
# The hog is several processes of at most this many MiB each: memory any program could hold, none of them a
# candidate the kernel prefers to the face. (The kernel's badness is a process's resident memory plus
# oom_score_adj/1000 of the limit: the face's +500 counts as 192 MiB here, so one hog of 250 MiB would be a
# likelier victim than the face; that is the kernel's rule working, not the test's question.) Each is larger than
# the clock, though: the native face holds ~6 MiB of its own, so its kill alone may not end the pressure, and the
# kernel's second choice is then the largest process left. Here the clock runs at 0 (a container's root cannot
# lower it), so that must be a hog, as a runaway program would be; on a board the clock's -900 keeps it last.
HOG_WORKER = 96
# The hog: one small parent that forks its workers one after the other; each touches 1 MiB at a time up to
# HOG_WORKER MiB, and before each step reads the group's out-of-memory kill count (argv[2], the file; argv[3],
# the count before): after the first kill nothing grows any more, so that kill alone is what the test looks at,
# and the group stays under its limit once the kernel has freed the face's memory. It grows to at most argv[1]
# MiB; everything it holds ends after 120 s, and every worker dies with the parent. It prints each worker's pid.
HOG = """
import ctypes, mmap, os, signal, sys, time
target, events, before = int(sys.argv[1]), sys.argv[2], int(sys.argv[3])
start, libc = time.monotonic(), ctypes.CDLL(None)

def kills():
    for line in open(events):
        key, value = line.split()
        if key == "oom_kill":
            return int(value)
    return 0

grown = 0
while grown < target and kills() == before and time.monotonic() - start < 120:
    size = min(%d, target - grown)
    done_r, done_w = os.pipe()
    pid = os.fork()
    if pid == 0:
        libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
        held = []
        while len(held) < size and kills() == before:
            m = mmap.mmap(-1, 1 << 20)
            for i in range(0, 1 << 20, 4096):
                m[i] = 1
            held.append(m)
            time.sleep(0.003)
        os.write(done_w, b"x")
        time.sleep(max(120 - (time.monotonic() - start), 0))
        os._exit(0)
    else:
        print(pid, flush=True)
        os.read(done_r, 1)
    grown += size
time.sleep(max(120 - (time.monotonic() - start), 0))
""" % HOG_WORKER


def own_group(controller):
    """Our group's path in the hierarchy of `controller` ("" for cgroup v2), from /proc/self/cgroup."""
    for line in Path("/proc/self/cgroup").read_text().splitlines():
        _, names, path = line.split(":", 2)
        if (controller == "" and names == "") or controller in names.split(","):
            return path
    return None


def mount_of(fstype, option=None):
    for line in Path("/proc/mounts").read_text().splitlines():
        _, where, kind, options = line.split()[:4]
        if kind == fstype and (option is None or option in options.split(",")):
            return Path(where)
    return None


class MemoryGroup:
    """A child memory cgroup of ours limited to `limit` bytes: v2 if the hierarchy lets us, else v1."""

    def __init__(self, limit):
        self.path, self.version, self.tried = None, None, []
        name = f"aubade-pressure-{os.getpid()}"
        v2 = mount_of("cgroup2")
        own = own_group("")
        if v2 is not None and own is not None:
            group = v2 / own.lstrip("/")
            for parent in (group, group.parent):
                try:
                    if "memory" not in (parent / "cgroup.subtree_control").read_text().split():
                        (parent / "cgroup.subtree_control").write_text("+memory")
                    child = parent / name
                    child.mkdir()
                    if not (child / "memory.max").exists():
                        child.rmdir()
                        raise OSError("no memory.max in the child")
                    (child / "memory.max").write_text(str(limit))
                    self.path, self.version = child, 2
                    (child / "memory.swap.max").write_text("0") if (child / "memory.swap.max").exists() else None
                    return
                except OSError as error:
                    self.tried.append(f"v2 under {parent}: {error}")
        v1 = mount_of("cgroup", "memory")
        own = own_group("memory")
        if v1 is not None and own is not None:
            child = v1 / own.lstrip("/") / name
            try:
                child.mkdir()
                (child / "memory.limit_in_bytes").write_text(str(limit))
                if (child / "memory.memsw.limit_in_bytes").exists():
                    (child / "memory.memsw.limit_in_bytes").write_text(str(limit))
                self.path, self.version = child, 1
            except OSError as error:
                self.tried.append(f"v1 at {child}: {error}")
                if child.exists():
                    child.rmdir()
        else:
            self.tried.append("no cgroup v1 memory hierarchy")

    def enter(self, argv, oom_score_adj=None):
        """`argv` run by a shell that first moves itself into the group (and sets its oom_score_adj)."""
        score = f"echo {oom_score_adj} > /proc/self/oom_score_adj && " if oom_score_adj is not None else ""
        return ["sh", "-c", f'echo $$ > "{self.path}/cgroup.procs" && {score}exec "$@"', "sh", *argv]

    def oom_kills(self):
        name = "memory.events" if self.version == 2 else "memory.oom_control"
        for line in (self.path / name).read_text().splitlines():
            key, value = line.split()
            if key == "oom_kill":
                return int(value)
        return 0

    def unreclaimable(self):
        """Bytes in the group that reclaim cannot take back without a kill: anonymous memory and shared memory
        (page cache, the binaries' pages among it, is given back under pressure first)."""
        stat = dict(line.split() for line in (self.path / "memory.stat").read_text().splitlines())
        return int(stat["anon"] if self.version == 2 else stat["rss"]) + int(stat["shmem"])

    def pids(self):
        return [int(p) for p in (self.path / "cgroup.procs").read_text().split()]

    def remove(self):
        """Everything still in the group killed, then the group removed."""
        deadline = time.monotonic() + WATCHDOG
        while self.pids() and time.monotonic() < deadline:
            for pid in self.pids():
                try:
                    os.kill(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
            time.sleep(0.1)
        self.path.rmdir()


def alive(pid):
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return text[text.rindex(")") + 2] != "Z"


class PressureTests(unittest.TestCase):
    aubade = None

    def setUp(self):
        self.group = MemoryGroup(LIMIT)
        if self.group.path is None:
            self.skipTest("no writable memory cgroup (v2 memory.max or v1 memory.limit_in_bytes): "
                          + "; ".join(self.group.tried))
        self.addCleanup(self.group.remove)
        self.native = os.environ.get("AUBADE_FACE")
        tools = ["setpriv"] if self.native else ["cage", "chromium", "setpriv"]
        for tool in tools:
            if not shutil.which(tool):
                self.fail(f"{tool} is missing: make deps-test installs it")

    def start_face(self, port):
        """The face in a session of its own inside the group, with oom_score_adj +500, as `nobody` when root."""
        folder = Path(tempfile.mkdtemp(prefix="aubade-pressure-face-"))
        folder.chmod(0o755)
        self.addCleanup(shutil.rmtree, folder, True)
        runtime, home = folder / "run", folder / "home"
        runtime.mkdir(mode=0o700)
        home.mkdir()
        drop = []
        if os.geteuid() == 0:
            user = pwd.getpwnam("nobody")
            os.chown(runtime, user.pw_uid, user.pw_gid)
            os.chown(home, user.pw_uid, user.pw_gid)
            drop = ["setpriv", f"--reuid={user.pw_uid}", f"--regid={user.pw_gid}", "--clear-groups", "--"]
        env = {"PATH": "/usr/bin:/bin", "HOME": str(home), "XDG_RUNTIME_DIR": str(runtime)}
        if self.native:
            env["SDL_VIDEODRIVER"] = "offscreen"
            argv = [self.native, "--port", str(port), "--size", "800x480", "--json"]
        else:
            browser = folder / "chromium"
            browser.write_text('#!/bin/sh\nexec chromium --no-sandbox --test-type --ozone-platform=wayland "$@"\n')
            browser.chmod(0o755)
            env.update({"WLR_BACKENDS": "headless", "WLR_RENDERER": "pixman", "WLR_LIBINPUT_NO_DEVICES": "1",
                        "AUBADE_KIOSK_BROWSER": str(browser)})
            argv = [str(LAUNCHER), f"http://127.0.0.1:{port}/kiosk"]
        log = open(folder / "face.log", "w")
        self.addCleanup(log.close)
        process = subprocess.Popen(self.group.enter([*drop, *DIE_WITH_US, *argv], FACE_OOM_SCORE_ADJ), env=env,
                                   stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        self.addCleanup(end_session, process)
        return process


    def wait(self, condition, what, timeout=WATCHDOG):
        wait_until(what, condition, timeout=timeout)

    def test_the_kernel_kills_the_face_and_the_alarm_rings_at_its_second(self):
        clock = DaemonClock(self.aubade, prefix="aubade-pressure-")
        self.addCleanup(clock.close)
        clock.cli("alarm", "add", "--name", "Pressure", "--time", "08:00", "--days", "daily", "--source", "tone")
        due = (datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(days=1)).replace(
            hour=8, minute=0, second=0, microsecond=0)
        start = (due - datetime.timedelta(seconds=LEAD)).strftime("%Y-%m-%dT%H:%M:%SZ")
        clock.start(port=free_port(), fake_time=start, wrap=self.group.enter)
        clock_pid = clock.process.pid
        waker_bin = Path(self.aubade).parent / "aubade-waker"
        waker = None
        if waker_bin.exists():
            waker = subprocess.Popen(self.group.enter([*DIE_WITH_US, str(waker_bin), "--json", "--db", str(clock.db),
                                                       "--fake-time", start]),
                                     env=clock.env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            self.addCleanup(lambda: (waker.kill(), waker.wait()))
        face = self.start_face(clock.port)
        # The face is up when its processes are (cage, the launcher and Chromium's browser, zygotes, GPU and
        # renderer); then a few seconds for the page to load and draw, so its memory is what it is.
        self.wait(lambda: len(session_pids(face.pid)) >= (1 if self.native else 8), "face running in the group")
        time.sleep(6)
        face_pids = session_pids(face.pid)
        for pid in [clock_pid, *face_pids] + ([waker.pid] if waker else []):
            self.assertIn(pid, self.group.pids(), f"pid {pid} is not in the memory group")
        kills = self.group.oom_kills()
        held = self.group.unreclaimable() // (1024 * 1024)
        # The hog: past the limit by 64 MiB at most, counting what the group holds now and cannot give back
        # without a kill; it stops growing at the first kill.
        target = max(LIMIT // (1024 * 1024) - held + 64, 8)
        events = self.group.path / ("memory.events" if self.group.version == 2 else "memory.oom_control")
        hog = subprocess.Popen(self.group.enter([*DIE_WITH_US, sys.executable, "-c", HOG, str(target), str(events),
                                                 str(kills)]), stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                               text=True)
        self.addCleanup(lambda: (hog.kill(), hog.wait(), hog.stdout.close()))
        hogs = [hog.pid]
        threading.Thread(target=lambda: [hogs.append(int(line)) for line in hog.stdout], daemon=True).start()
        self.wait(lambda: self.group.oom_kills() > kills, f"out-of-memory kill in the group (hog target {target} MiB, "
                  f"{held} MiB held before it)", timeout=LEAD)
        time.sleep(0.5)  # a worker forked just before the kill has printed its pid
        # The victims: the face (its +500 puts it above every other process of the group), and, when its memory
        # alone did not end the pressure (the native face holds ~6 MiB of its own), the largest process left, a
        # hog; never the waker or the clock.
        gone = [pid for pid in face_pids if not alive(pid)]
        ended = [pid for pid in hogs if not alive(pid)]
        first = (f"{self.group.oom_kills() - kills} kill(s): face pids gone {gone} of {face_pids}; "
                 f"hog processes gone {ended} of {hogs}")
        self.assertTrue(gone, f"no process of the face was killed ({first})")
        self.assertLessEqual(len(ended), self.group.oom_kills() - kills - 1, f"a hog was killed before the face ({first})")
        ringing = clock.wait_for("ringing", timeout=LEAD + WATCHDOG)
        self.assertTrue(alive(clock_pid) and clock.process.poll() is None, "the clock was killed")
        self.assertEqual(clock.process.pid, clock_pid)
        if waker:
            self.assertIsNone(waker.poll(), "the waker was killed")
        self.assertEqual(int(ringing["t"]), int(due.timestamp()),
                         f"the alarm rang at {ringing['t']}, its due second is {int(due.timestamp())}")
        print(f"FIGURE pressure: cgroup v{self.group.version}, {held} MiB anonymous and shared in the group before "
              f"the hog (at most {target} MiB); at the first kill {first}; {self.group.oom_kills() - kills} OOM kill(s) "
              f"by the ring; hog processes gone by then: {sum(not alive(pid) for pid in hogs)} of {len(hogs)}; ringing "
              f"{ringing['t'] - due.timestamp():.3f} s after its second", file=sys.stderr, flush=True)


if __name__ == "__main__":
    if len(sys.argv) < 2 or not os.access(sys.argv[1], os.X_OK):
        sys.exit("usage: Tests/Face/test_pressure.py AUBADE_BINARY")
    PressureTests.aubade = os.path.abspath(sys.argv.pop(1))
    unittest.main(verbosity=2)
