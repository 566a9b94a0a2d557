#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Run the harness's Python unit tests (tests/py/test_*.py) and print one
result a test, "PASS|FAIL|SKIP<TAB>unit/module.Class.test<TAB>why", as the
stages' results.tsv holds them; the tracebacks go to stderr.  Exits 1 if a
test failed or errored, or if none ran."""

import os
import sys
import unittest


class Result(unittest.TextTestResult):
    """unittest's result, also written one line a test to stdout."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.out = sys.__stdout__

    def line(self, status, test, why=""):
        why = " ".join(why.split())
        self.out.write(f"{status}\tunit/{test.id()}\t{why[:300]}\n")

    def addSuccess(self, test):
        super().addSuccess(test)
        self.line("PASS", test)

    def addSkip(self, test, reason):
        super().addSkip(test, reason)
        self.line("SKIP", test, reason)

    def addFailure(self, test, err):
        super().addFailure(test, err)
        self.line("FAIL", test, f"{err[0].__name__}: {err[1]}")

    def addError(self, test, err):
        super().addError(test, err)
        self.line("FAIL", test, f"error {err[0].__name__}: {err[1]}")

    def addSubTest(self, test, subtest, err):
        super().addSubTest(test, subtest, err)
        if err is not None:
            self.line("FAIL", subtest, f"{err[0].__name__}: {err[1]}")


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    suite = unittest.defaultTestLoader.discover(here, pattern="test_*.py", top_level_dir=here)
    runner = unittest.TextTestRunner(stream=sys.stderr, verbosity=1, resultclass=Result)
    result = runner.run(suite)
    if result.testsRun == 0:
        print(f"FAIL\tunittest\tno test found in {here}")
        return 1
    return 0 if result.wasSuccessful() else 1


if __name__ == "__main__":
    sys.exit(main())
