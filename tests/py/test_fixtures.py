# SPDX-License-Identifier: GPL-2.0
"""Unit tests of the fixtures' comparison (tests/judge/fixtures.py): what
makes the judge's answer agree with a fixture's table."""

import importlib.util
import os
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
SPEC = importlib.util.spec_from_file_location(
    "fixtures", os.path.join(HERE, "..", "judge", "fixtures.py"))
fixtures = importlib.util.module_from_spec(SPEC)
SPEC.loader.exec_module(fixtures)

CALL = fixtures.DEFAULT_CALL
CHECKS = [("PASS", "boot", "dumped"), ("PASS", "a/x", ""), ("FAIL", "a/y", "did not run"),
          ("FAIL", "kernel-log", "3 lines (SLUB, refcount), first: BUG kmalloc-64"),
          ("FAIL", "taint", "tainted=4128 (B O)")]


class Compare(unittest.TestCase):
    def test_exact(self):
        self.assertIsNone(fixtures.compare(CALL, CHECKS, 1, CHECKS, ""))

    def test_exit_code(self):
        self.assertRegex(fixtures.compare(CALL, CHECKS, 0, CHECKS, ""), "exit 0, must be 1")

    def test_missing_and_extra(self):
        self.assertRegex(fixtures.compare(CALL, CHECKS, 1, CHECKS[:-1], ""), "missing FAIL taint")
        self.assertRegex(fixtures.compare(CALL, CHECKS[:-1], 1, CHECKS, ""), "extra FAIL taint")

    def test_wildcard(self):
        table = [("PASS", "boot", ""), ("...", "", ""), ("FAIL", "kernel-log", ""),
                 ("FAIL", "taint", "")]
        self.assertIsNone(fixtures.compare(CALL, table, 1, CHECKS, ""))
        self.assertIsNone(fixtures.compare(CALL, [("...", "", "")], 1, CHECKS, ""))
        self.assertRegex(fixtures.compare(CALL, table[:2] + [("PASS", "kernel-log", "")], 1,
                                          CHECKS, ""), "missing PASS kernel-log")

    def test_reason_parts_any_order(self):
        table = [("...", "", ""), ("FAIL", "kernel-log", "refcount ... SLUB"), ("...", "", "")]
        self.assertIsNone(fixtures.compare(CALL, table, 1, CHECKS, ""))
        table[1] = ("FAIL", "kernel-log", "refcount ... list corruption")
        self.assertIsNotNone(fixtures.compare(CALL, table, 1, CHECKS, ""))

    def test_exit_2(self):
        call = dict(CALL, exit="2 is empty")
        self.assertIsNone(fixtures.compare(call, [], 2, [], "judge: x: the log is empty"))
        self.assertIsNotNone(fixtures.compare(call, [], 1, CHECKS, ""))


if __name__ == "__main__":
    unittest.main()
