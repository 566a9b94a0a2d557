"""scripts/lib.sh row_record: a row of configs/matrix.tsv resolved into its
record, build/rows/ROW.env, on a two-row matrix."""
import os
import subprocess
import sys
import tempfile
import unittest

sys.dont_write_bytecode = True
import tinytop  # noqa: E402

ROWS = [
    dict(name="6.12-a", base="6.12", kind="param", fragments="base.config reject.config pool.config",
         policy="reject", qemu="-smp 2 -m 256 -no-reboot", params="ioremap_pool=16M  ioremap_ram=warn",
         env="IOREMAP_POOL_LOADS=2", expect="set-a"),
    dict(name="6.1-b", base="6.1", kind="config", fragments="base.config warn.config",
         policy="warn", qemu="-", params="-", env="-", expect="set-b"),
]
EXPECT = {
    # kselftests named once each, in order; KUnit cases, comments and what
    # the file allows are not kselftests
    "set-a": "# comment\nallow taint W N\nioremap_pool.sh load ok\nkunit:arm_ioremap_pool case ok\n"
             "ioremap_pool.sh unload ok  # a note\nallow caller foo_probe\nioremap_ram.sh map skip\n",
    "set-b": "vmap_stacks.sh stack ok\n",
}
NAMES = ("ROW", "BASE", "KIND", "FRAGMENTS", "KEY", "OUT", "RES", "POLICY", "EXPECT", "TESTS",
         "PARAMS", "GUEST_ENV", "CMDLINE", "MEMORY", "QEMU_EXTRA", "QEMU_OPTS", "DT_FRAGMENT")


class RowRecord(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.top = os.path.join(cls.tmp.name, "top")
        cls.build = os.path.join(cls.tmp.name, "build")
        tinytop.make_top(cls.top, ROWS, EXPECT)
        cls.records = {row["name"]: cls.record(row["name"]) for row in ROWS}

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    @classmethod
    def record(cls, row):
        """The values of ROW's record, as a stage that sources it sees them."""
        lib = os.path.join(tinytop.SCRIPTS, "lib.sh")
        out = subprocess.run(["bash", "-c", '. "$1"; row_record "$2"', "_", lib, row],
                             env=tinytop.env(cls.top, cls.build), check=True,
                             capture_output=True, text=True).stdout.strip()
        assert out == os.path.join(cls.build, "rows", row + ".env"), out
        script = '. "$1"; shift; for n; do printf "%s=%s\\0" "$n" "${!n}"; done'
        values = subprocess.run(["bash", "-c", script, "_", out] + list(NAMES), check=True,
                                capture_output=True, text=True).stdout
        return dict(v.split("=", 1) for v in values.split("\0") if v)

    def test_names(self):
        a, b = self.records["6.12-a"], self.records["6.1-b"]
        self.assertEqual((a["ROW"], a["BASE"], a["KIND"], a["POLICY"]), ("6.12-a", "6.12", "param", "reject"))
        self.assertEqual((b["ROW"], b["BASE"], b["KIND"], b["POLICY"]), ("6.1-b", "6.1", "config", "warn"))
        self.assertEqual(a["FRAGMENTS"], "base.config reject.config pool.config")

    def test_build_key(self):
        a, b = self.records["6.12-a"], self.records["6.1-b"]
        self.assertEqual(a["KEY"], "6.12-base+reject+pool")
        self.assertEqual(b["KEY"], "6.1-base+warn")
        self.assertEqual(a["OUT"], os.path.join(self.build, "out", "6.12-base+reject+pool"))
        self.assertEqual(b["RES"], os.path.join(self.build, "results", "6.1-b"))

    def test_memory(self):
        # the row's -m, else configs/qemu.env's (the stand-in's: 768)
        self.assertEqual(self.records["6.12-a"]["MEMORY"], "256")
        self.assertEqual(self.records["6.1-b"]["MEMORY"], "768")

    def test_qemu_options(self):
        a, b = self.records["6.12-a"], self.records["6.1-b"]
        self.assertEqual(a["QEMU_EXTRA"], "-smp 2 -no-reboot")
        self.assertEqual(b["QEMU_EXTRA"], "")
        self.assertEqual(a["QEMU_OPTS"], "-M virt,highmem=off -cpu cortex-a7 -m 256 -smp 2 -no-reboot")
        self.assertEqual(b["QEMU_OPTS"], "-M virt,highmem=off -cpu cortex-a7 -m 768")
        self.assertEqual((a["DT_FRAGMENT"], b["DT_FRAGMENT"]), ("", ""))

    def test_tests(self):
        a, b = self.records["6.12-a"], self.records["6.1-b"]
        self.assertEqual(a["TESTS"], "arm:ioremap_pool.sh,arm:ioremap_ram.sh")
        self.assertEqual(b["TESTS"], "arm:vmap_stacks.sh")
        self.assertEqual(a["EXPECT"], os.path.join(self.top, "kselftest", "expect", "set-a"))

    def test_command_line(self):
        a, b = self.records["6.12-a"], self.records["6.1-b"]
        self.assertEqual((a["PARAMS"], a["GUEST_ENV"]), ("ioremap_pool=16M  ioremap_ram=warn", "IOREMAP_POOL_LOADS=2"))
        self.assertEqual(a["CMDLINE"], "ioremap_pool=16M ioremap_ram=warn IOREMAP_POOL_LOADS=2 "
                                       "KSELFTEST_TESTS=arm:ioremap_pool.sh,arm:ioremap_ram.sh")
        # "-" is empty
        self.assertEqual((b["PARAMS"], b["GUEST_ENV"]), ("", ""))
        self.assertEqual(b["CMDLINE"], "KSELFTEST_TESTS=arm:vmap_stacks.sh")

    def test_unknown_row(self):
        lib = os.path.join(tinytop.SCRIPTS, "lib.sh")
        r = subprocess.run(["bash", "-c", '. "$1"; row_record nope', "_", lib],
                           env=tinytop.env(self.top, self.build), capture_output=True, text=True)
        self.assertNotEqual(r.returncode, 0)
        self.assertIn("no row 'nope'", r.stderr)


if __name__ == "__main__":
    unittest.main()
