# SPDX-License-Identifier: GPL-2.0
"""Unit tests of the judge's pieces (scripts/stages/judge.py), in the style of the
kernel's kunit_tool_test.py.  The whole judge is tested on console logs by
tests/judge/fixtures.py; these test what each piece must answer.  KUNIT_DIR
(scripts/gates/judge-test.sh sets it) is tools/testing/kunit of a kernel tree."""

import importlib.util
import os
import re
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
SPEC = importlib.util.spec_from_file_location(
    "judge", os.path.join(HERE, "..", "..", "scripts", "stages", "judge.py"))
judge = importlib.util.module_from_spec(SPEC)
SPEC.loader.exec_module(judge)
KUNIT_DIR = os.environ.get("KUNIT_DIR")

REPORT = ("ioremap_ram: [mem 0x40a38000-0x40a38fff] is system RAM: MT_DEVICE mapping by "
          "{caller} rejected (event {n} of this call site); use the DMA API or no-map "
          "reserved memory, see Documentation/arch/arm/ioremap-ram.rst")
WARN = ("WARNING: CPU: {cpu} PID: 87 at arch/arm/mm/ioremap-ram.c:226 "
        "arm_ioremap_ram_allowed+0x9c/0xd0")


class Clean(unittest.TestCase):
    def test_timestamp(self):
        self.assertEqual(judge.clean("[    1.013000] ok 1 foo\r\n"), "ok 1 foo")

    def test_printk_caller(self):
        self.assertEqual(judge.clean("[    0.000000][    T0] Booting Linux"), "Booting Linux")
        self.assertEqual(judge.clean("[   12.500000][    C1] rcu: stall"), "rcu: stall")

    def test_ansi(self):
        self.assertEqual(judge.clean("\x1b[1;31m[    3.0] WARNING: x\x1b[0m"), "WARNING: x")

    def test_plain_line_kept(self):
        self.assertEqual(judge.clean("=== ioremap-ram: policy reject"),
                         "=== ioremap-ram: policy reject")


class Sections(unittest.TestCase):
    LOG = ["a", "=== ioremap-ram: suite begin", "x", "y",
           "=== ioremap-ram: suite end rc=0", "b"]

    def test_section(self):
        self.assertEqual(judge.section(self.LOG, "suite"), (["x", "y"], True))

    def test_no_end(self):
        self.assertEqual(judge.section(self.LOG[:4], "suite"), (["x", "y"], False))

    def test_never_began(self):
        self.assertEqual(judge.section(self.LOG, "kernel log"), (None, False))


class Kselftests(unittest.TestCase):
    RUN = ["TAP version 13", "1..2",
           "# selftests: arm: a.sh", "# TAP version 13", "# 1..1", "# ok 1 one",
           "ok 1 selftests: arm: a.sh",
           "# selftests: arm: b.sh", "# 1..1", "# ok 1 two #SKIP no pool",
           "ok 2 selftests: arm: b.sh # SKIP"]

    def test_split(self):
        plan, tests = judge.kselftests(self.RUN)
        self.assertEqual(plan, 2)
        self.assertEqual([(t, r) for t, _, r in tests], [("a.sh", "ok"), ("b.sh", "skip")])
        self.assertEqual(tests[0][1], ["TAP version 13", "1..1", "ok 1 one"])

    def test_skip_without_space(self):
        _, tests = judge.kselftests(self.RUN)
        self.assertEqual(tests[1][1][-1], "ok 1 two # SKIP no pool")

    def test_killed(self):
        _, tests = judge.kselftests(self.RUN[:6])
        self.assertIsNone(tests[0][2])

    def test_repeated_results(self):
        seen = judge.raw_results(["1..2", "ok 1 one", "not ok 1 one", "ok 2 two # skip x"])
        self.assertEqual(seen["one"], ["ok", "fail"])
        self.assertEqual(seen["two"], ["skip"])


@unittest.skipUnless(KUNIT_DIR, "KUNIT_DIR (tools/testing/kunit of a kernel tree) not set")
class Parser(unittest.TestCase):
    """What kunit_parser consumed, and what it left."""

    @classmethod
    def setUpClass(cls):
        cls.kp = judge.load_parser(KUNIT_DIR)

    def test_beyond_plan(self):
        doc = ["TAP version 13", "1..2", "ok 1 a", "ok 2 b", "not ok 3 straddle"]
        observed, problems = {}, {}
        judge.walk(self.kp, doc, "t.sh", observed, problems)
        self.assertEqual(sorted(c for _, c in observed), ["a", "b"])
        self.assertIn("result line not counted (beyond the plan or after the document): "
                      "'not ok 3 straddle'", problems["t.sh"])

    def test_all_consumed(self):
        doc = ["TAP version 13", "1..2", "ok 1 a", "ok 2 b # SKIP x"]
        observed, problems = {}, {}
        judge.walk(self.kp, doc, "t.sh", observed, problems)
        self.assertEqual(problems, {})

    def test_kunit_suites(self):
        doc = ["KTAP version 1", "1..1", "    KTAP version 1", "    # Subtest: s",
               "    1..1", "    ok 1 c", "ok 1 s"]
        observed, problems = {}, {}
        self.assertEqual(judge.walk(self.kp, doc, None, observed, problems), ["kunit:s"])
        self.assertEqual(observed, {("kunit:s", "c"): ["ok"]})
        self.assertEqual(problems, {})

    def test_no_ktap(self):
        self.assertIsNone(judge.walk(self.kp, ["nothing"], None, {}, {}))


class Documents(unittest.TestCase):
    def test_two_documents(self):
        dump = ["Booting", "KTAP version 1", "1..1", "ok 1 s", "x",
                "KTAP version 1", "1..1", "not ok 1 s"]
        docs = judge.ktap_documents(dump)
        self.assertEqual([at for at, _ in docs], [1, 5])
        self.assertEqual(docs[1][1], ["KTAP version 1", "1..1", "not ok 1 s"])

    def test_nested_version_is_not_a_document(self):
        self.assertEqual(len(judge.ktap_documents(["KTAP version 1", "    KTAP version 1"])), 1)


class Splats(unittest.TestCase):
    # A line each entry of judge.SPLATS must catch, as the kernel prints it.
    SAMPLES = {
        "oops": "Internal error: Oops: 805 [#1] SMP ARM",
        "BUG()": "kernel BUG at mm/slub.c:4321!",
        "BUG report": "BUG: sleeping function called from invalid context at mm/slab.h:1",
        "panic": "Kernel panic - not syncing: Fatal exception",
        "fault": "Unable to handle kernel NULL pointer dereference at virtual address 00000000",
        "WARNING": "WARNING: CPU: 0 PID: 1 at lib/foo.c:12 foo+0x1/0x2",
        "SLUB": "BUG kmalloc-64 (Not tainted): Right Redzone overwritten",
        "OOM": "sh invoked oom-killer: gfp_mask=0xcc0(GFP_KERNEL), order=0, oom_score_adj=0",
        "spurious IRQ": "irq 42: nobody cared (try booting with the \"irqpoll\" option)",
        "soft lockup": "watchdog: BUG: soft lockup - CPU#0 stuck for 22s! [sh:87]",
        "hard lockup": "Watchdog detected hard LOCKUP on cpu 1",
        "hung task": "INFO: task sh:87 blocked for more than 120 seconds.",
        "refcount": "refcount_t: underflow; use-after-free.",
        "list corruption": "list_add corruption. prev->next should be next (c1), but was c2.",
        "KASAN": "BUG: KASAN: slab-out-of-bounds in iop_alloc+0x40/0x100",
        "KFENCE": "BUG: KFENCE: out-of-bounds read in foo+0x1/0x2",
        "UBSAN": "UBSAN: shift-out-of-bounds in lib/foo.c:1:2",
        "KCSAN": "BUG: KCSAN: data-race in foo / bar",
        "kmemleak": "kmemleak: 2 new suspected memory leaks (see /sys/kernel/debug/kmemleak)",
        "lockdep": "WARNING: possible circular locking dependency detected",
        "debugobjects": "ODEBUG: free active (active state 0) object: c1 object type: timer_list",
        "RCU stall": "rcu: INFO: rcu_sched self-detected stall on CPU",
    }
    BENIGN = [
        "kfence: initialized - using 2097152 bytes for 255 objects at 0xc1000000-0xc1200000",
        "ioremap_pool: free of unknown block 0xd0800000 by iop_test_bad_free+0x1c/0x60, refused",
        "# ok 3 bad_free # SKIP no pool",
        "Memory: 1013000K/1048576K available",
        "kmemleak: Kernel memory leak detector initialized (mem pool available: 15788)",
    ]

    def test_every_entry_has_a_sample_and_a_file(self):
        self.assertEqual(sorted(self.SAMPLES), sorted(n for n, _, _ in judge.SPLATS))
        for name, _, where in judge.SPLATS:
            self.assertRegex(where, r"\.[ch]\b", name)

    def test_each_pattern_catches_its_sample(self):
        for name, pattern, _ in judge.SPLATS:
            with self.subTest(name):
                self.assertTrue(re.search(pattern, self.SAMPLES[name]), self.SAMPLES[name])
                self.assertEqual(judge.splats(["ok", self.SAMPLES[name]]),
                                 [(2, self.SAMPLES[name])])
                self.assertEqual(judge.splat_kind(self.SAMPLES[name]), name)

    def test_benign_lines(self):
        self.assertEqual(judge.splats(self.BENIGN), [])


class PolicyWarning(unittest.TestCase):
    def test_paired(self):
        lines = ["-- cut here --", WARN.format(cpu=0),
                 REPORT.format(caller="s+0x1/0x2 [test_arm_ioremap_ram]", n=1)]
        self.assertEqual(judge.splats(lines), [])

    def test_smp_interleaved(self):
        # CPU1's WARNING, then CPU0's, then their two event-1 report lines,
        # with a later event's line (no WARNING of its own) in between.
        lines = [WARN.format(cpu=1),
                 REPORT.format(caller="a+0x1/0x2 [test_arm_ioremap_ram]", n=2),
                 WARN.format(cpu=0),
                 REPORT.format(caller="b+0x1/0x2 [test_arm_ioremap_ram]", n=1),
                 REPORT.format(caller="c+0x1/0x2 [test_arm_ioremap_ram]", n=1)]
        self.assertEqual(judge.splats(lines), [])

    def test_unpaired(self):
        lines = [WARN.format(cpu=1), WARN.format(cpu=0),
                 REPORT.format(caller="b+0x1/0x2 [test_arm_ioremap_ram]", n=1)]
        self.assertEqual(len(judge.splats(lines)), 1)

    def test_other_line_of_ioremap_ram_breaks_the_pair(self):
        lines = [WARN.format(cpu=0), "ioremap_ram: something else",
                 REPORT.format(caller="b+0x1/0x2 [test_arm_ioremap_ram]", n=1)]
        self.assertEqual(len(judge.splats(lines)), 1)


class Documented(unittest.TestCase):
    def test_patterns_table_is_the_code(self):
        """Documentation/testing.md shows judge.py --patterns as it is."""
        table = judge.patterns_table()
        with open(os.path.join(HERE, "..", "..", "Documentation", "testing.md"),
                  encoding="utf-8") as f:
            self.assertIn(table, f.read())


class Callers(unittest.TestCase):
    def test_test_module(self):
        lines = [REPORT.format(caller="tiar_site+0x15/0x48 [test_arm_ioremap_ram]", n=1),
                 REPORT.format(caller="p+0x1/0x2 [test_arm_ioremap_pool]", n=3)]
        self.assertEqual(judge.stray_callers(lines, set()), [])

    def test_driver(self):
        lines = ["x", REPORT.format(caller="foo_probe+0x1c/0x80", n=1),
                 REPORT.format(caller="bar+0x1/0x2 [bar_drv]", n=2)]
        self.assertEqual(judge.stray_callers(lines, set()),
                         [(2, "foo_probe+0x1c/0x80"), (3, "bar+0x1/0x2 [bar_drv]")])

    def test_allowed(self):
        lines = [REPORT.format(caller="foo_probe+0x1c/0x80", n=1)]
        self.assertEqual(judge.stray_callers(lines, {"foo_probe"}), [])


class Expectations(unittest.TestCase):
    def read(self, text):
        with tempfile.NamedTemporaryFile("w", delete=False, suffix=".expect") as f:
            f.write(text)
        self.addCleanup(os.unlink, f.name)
        return judge.read_expectations(f.name)

    def test_cases_and_allowances(self):
        want, allow = self.read("# c\nallow taint W N\nallow caller foo\na.sh one ok\n"
                                "kunit:s c skip  # why\n")
        self.assertEqual(list(want.items()), [(("a.sh", "one"), "ok"), (("kunit:s", "c"), "skip")])
        self.assertEqual(allow, {"taint": {"W", "N"}, "caller": {"foo"}, "panic": None})

    def test_expect_panic(self):
        want, allow = self.read("expect panic kernel: panic_on_warn set  # why\n"
                                "a.sh one ok\n")
        self.assertEqual(allow["panic"], "kernel: panic_on_warn set")
        self.assertEqual(list(want), [("a.sh", "one")])
        with self.assertRaises(judge.JudgeError):
            self.read("expect panic\n")

    def test_four_fields(self):
        with self.assertRaisesRegex(judge.JudgeError, r":1: want .* got 'a.sh one ok x'"):
            self.read("a.sh one ok x\n")

    def test_unknown_taint_flag(self):
        with self.assertRaisesRegex(judge.JudgeError, r"unknown taint flag\(s\) 'Z'"):
            self.read("allow taint WZ\n")

    def test_bad_result(self):
        with self.assertRaises(judge.JudgeError):
            self.read("a.sh one maybe\n")


class Taint(unittest.TestCase):
    def test_letters(self):
        self.assertEqual(judge.taint_letters(0), [])
        self.assertEqual(judge.taint_letters(512 | 262144), ["W", "N"])
        self.assertEqual(judge.taint_letters(128), ["D"])
        self.assertEqual(judge.taint_letters(1 << 25), ["bit25"])


class Console(unittest.TestCase):
    def write(self, data):
        with tempfile.NamedTemporaryFile("wb", delete=False, suffix=".log") as f:
            f.write(data)
        self.addCleanup(os.unlink, f.name)
        return f.name

    def test_lines(self):
        self.assertEqual(judge.read_console(self.write(b"a\r\nb\n")), ["a", "b", ""])

    def test_empty(self):
        with self.assertRaisesRegex(judge.JudgeError, "empty"):
            judge.read_console(self.write(b"\n\n"))

    def test_binary(self):
        with self.assertRaisesRegex(judge.JudgeError, "binary"):
            judge.read_console(self.write(b"ab\0cd"))

    def test_missing(self):
        with self.assertRaisesRegex(judge.JudgeError, "cannot read"):
            judge.read_console("/nonexistent/console.log")


if __name__ == "__main__":
    unittest.main()
