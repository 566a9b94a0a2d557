#!/usr/bin/env python3
"""A command of the harness stopped by a signal leaves nothing behind.

Each case starts a command as a terminal would start it (a process group
of its own, SIGINT not ignored), waits until it is at a given point (a
process of it is running: tar extracting a tree, the review gates, a
guest), sends the signal, and checks:

  - the command exits within DEADLINE seconds of the signal;
  - no process of it is left (a process of it: its environment has its
    BUILD folder), within DEADLINE seconds of the signal;
  - the build folder's lock is free (flock -n), and no temporary tree
    (BUILD/src/*.tmp) is left;
  - the command said it was stopped.

The cases: make run stopped with Ctrl-C (SIGINT to its process group)
while a tree is extracted; make run again in the same folder, which must
start cleanly and reach the same point (then stopped by SIGTERM to its
process group, as timeout(1) sends it); make check stopped with Ctrl-C
while the review gates, the LAVA jobs and the judge's tests run beside
each other; make run stopped by SIGTERM to make alone (make passes it
on); a guest (scripts/stages/boot.sh on a kernel built by the rows, in
BUILD/out) stopped with Ctrl-C: QEMU runs under timeout(1), in a process
group of its own.  The commands work in a build folder of their own,
BUILD/stop, made anew.

One result line a case on stdout ("PASS|FAIL|SKIP<TAB>stop/CASE<TAB>detail"),
the commands' output in BUILD/stop/CASE.log.

Usage: tests/stop/run.py  (BUILD: the build folder, default ./build)
"""
import glob
import os
import signal
import subprocess
import sys
import time

TOP = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
BUILD = os.environ.get("BUILD") or os.path.join(TOP, "build")
DEADLINE = 10.0     # seconds from the signal to nothing left
REACH = 180.0       # seconds a command may take to reach the point
# The harness's own variables, and make's: the commands are started as a
# user starts them, not as commands of the run that runs this test.
DROP = ("BUILD_LOCKED", "HARNESS_RUN", "BUILT", "SEEDS", "BOOT_DT", "CC_CCACHE_REAL",
        "SUBSERIES", "LAVA_VALIDATE_LOG", "KEEP", "SPARSE", "BENCH_MEM", "T0",
        "MAKEFLAGS", "MAKELEVEL", "MFLAGS", "MAKEOVERRIDES")


def environ(pid):
    """A process's environment as a dict, None if it is gone."""
    try:
        with open("/proc/%d/environ" % pid, "rb") as f:
            raw = f.read()
    except OSError:
        return None
    env = {}
    for item in raw.split(b"\0"):
        k, sep, v = item.partition(b"=")
        if sep:
            env[k.decode(errors="replace")] = v.decode(errors="replace")
    return env


def cmdline(pid):
    try:
        with open("/proc/%d/cmdline" % pid, "rb") as f:
            return [a.decode(errors="replace") for a in f.read().split(b"\0") if a]
    except OSError:
        return []


def alive(pid):
    """Running, not a zombie."""
    try:
        with open("/proc/%d/stat" % pid) as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def processes(build):
    """The live processes whose environment has BUILD=build: (pid, argv)."""
    found = []
    me = os.getpid()
    for d in os.listdir("/proc"):
        if not d.isdigit() or int(d) == me:
            continue
        pid = int(d)
        env = environ(pid)
        if env and env.get("BUILD") == build and alive(pid):
            found.append((pid, cmdline(pid)))
    return found


def lock_free(build):
    lock = os.path.join(build, ".lock")
    if not os.path.exists(lock):
        return True
    return subprocess.run(["flock", "-n", lock, "true"]).returncode == 0


class Case:
    def __init__(self, name, build):
        self.name, self.build = name, build
        self.log = os.path.join(build, name + ".log")

    def start(self, argv, extra_env=None):
        env = {k: v for k, v in os.environ.items() if k not in DROP}
        env["BUILD"] = self.build
        env.update(extra_env or {})
        self.out = open(self.log, "w")
        # A process group of its own with SIGINT at its default, as a
        # terminal's foreground job (this test may run as a job that
        # ignores SIGINT, and a child would inherit that).
        self.proc = subprocess.Popen(
            argv, cwd=TOP, env=env, stdin=subprocess.DEVNULL, stdout=self.out,
            stderr=subprocess.STDOUT, start_new_session=True,
            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))

    def reach(self, what, test):
        """Wait until a process of the command matches test(argv)."""
        end = time.time() + REACH
        while time.time() < end:
            for pid, argv in processes(self.build):
                if argv and test(argv):
                    return pid
            if self.proc.poll() is not None:
                raise Failure("exited (%d) before %s; log: %s"
                              % (self.proc.returncode, what, self.log))
            time.sleep(0.1)
        raise Failure("%s not reached in %d s; log: %s" % (what, REACH, self.log))

    def stop(self, sig, group=True):
        """Send sig, then check everything the module says; returns the
        seconds until nothing was left."""
        t0 = time.time()
        if group:
            os.killpg(self.proc.pid, sig)
        else:
            os.kill(self.proc.pid, sig)
        try:
            rc = self.proc.wait(timeout=DEADLINE)
        except subprocess.TimeoutExpired:
            left = processes(self.build)
            self.kill_all()
            raise Failure("still running %d s after SIG%s: %s" % (
                DEADLINE, signal.Signals(sig).name[3:], describe(left)))
        left = processes(self.build)
        while left and time.time() < t0 + DEADLINE:
            time.sleep(0.1)
            left = processes(self.build)
        took = time.time() - t0
        self.out.close()
        if left:
            self.kill_all()
            raise Failure("exited (%d) but left running %d s after the signal: %s"
                          % (rc, DEADLINE, describe(left)))
        if rc == 0:
            raise Failure("exited 0 after the signal; log: %s" % self.log)
        if not lock_free(self.build):
            raise Failure("%s/.lock still held after the stop" % self.build)
        tmp = glob.glob(os.path.join(self.build, "src", "*.tmp"))
        if tmp:
            raise Failure("left a temporary tree: %s" % tmp[0])
        with open(self.log, errors="replace") as f:
            text = f.read()
        if "stopped by SIG" not in text:
            raise Failure("no 'stopped by SIG' line in %s" % self.log)
        return took

    def kill_all(self):
        for pid, _ in processes(self.build):
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass


class Failure(Exception):
    pass


def describe(procs):
    return ", ".join("%d %s" % (pid, " ".join(argv)[:60]) for pid, argv in procs[:5])


def is_tar(argv):
    return os.path.basename(argv[0]) == "tar" and any(a.startswith("-x") for a in argv)


def result(status, case, detail):
    print("%s\tstop/%s\t%s" % (status, case, detail), flush=True)


def built_kernel():
    """A kernel the rows built (its zImage and initramfs), or None."""
    for z in sorted(glob.glob(os.path.join(BUILD, "out", "*", "arch", "arm", "boot", "zImage"))):
        out = z[: -len("/arch/arm/boot/zImage")]
        if os.path.exists(os.path.join(out, "rootfs.cpio.gz")):
            return out
    return None


def main():
    # The test itself may be a job started with SIGINT ignored.
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    build = os.path.join(BUILD, "stop")
    subprocess.run(["rm", "-rf", build], check=True)
    os.makedirs(build)
    sigint, sigterm = signal.SIGINT, signal.SIGTERM
    cases = [
        ("run-int-tree", ["make", "run"], "tar extracting a tree", is_tar, sigint, True),
        ("run-again-term-tree", ["make", "run"], "tar extracting a tree", is_tar, sigterm, True),
        ("check-int-gates", ["make", "check", "ROWS=6.12-reject"], "the review gates",
         lambda a: any(x.endswith("scripts/gates/gates.sh") for x in a[:3]), sigint, True),
        ("run-term-make", ["make", "run"], "tar extracting a tree", is_tar, sigterm, False),
    ]
    failed = 0
    for name, argv, what, test, sig, group in cases:
        c = Case(name, build)
        try:
            c.start(argv)
            c.reach(what, test)
            took = c.stop(sig, group)
            result("PASS", name, "%s at %s: nothing left after %.1f s" % (
                "SIG%s to %s" % (signal.Signals(sig).name[3:], "its group" if group else "make"),
                what, took))
        except Failure as e:
            failed += 1
            result("FAIL", name, str(e))
    out = built_kernel()
    if out is None:
        result("SKIP", "boot-int-guest", "no kernel built in %s/out to boot" % BUILD)
    else:
        c = Case("boot-int-guest", build)
        try:
            c.start([os.path.join(TOP, "scripts", "stages", "boot.sh"), out,
                     os.path.join(build, "guest"), "-M virt", "-"])
            c.reach("a guest", lambda a: os.path.basename(a[0]).startswith("qemu-system"))
            took = c.stop(sigint)
            result("PASS", "boot-int-guest",
                   "SIGINT to its group with QEMU running (under timeout): nothing left after %.1f s" % took)
        except Failure as e:
            failed += 1
            result("FAIL", "boot-int-guest", str(e))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
