"""scripts/harness.py junit: the JUnit XML of a results.tsv."""
import os
import subprocess
import sys
import tempfile
import unittest
import xml.etree.ElementTree as ET

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPTS = os.path.join(HERE, "..", "..", "scripts")
sys.path.insert(0, SCRIPTS)
sys.dont_write_bytecode = True  # no scripts/__pycache__

import harness  # noqa: E402

# A console line as the judge quotes it: colour escapes, NUL and other
# control characters, and the characters XML itself gives a meaning.
DETAIL = 'splat: \x1b[31mBUG\x1b[0m & <tag> "quoted" \'single\' \x00\x01\x08\x7f end'
WANT = 'splat: \\x1b[31mBUG\\x1b[0m & <tag> "quoted" \'single\' \\x00\\x01\\x08\x7f end'


class JUnit(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)

    def write_tsv(self, data):
        path = os.path.join(self.tmp.name, "results.tsv")
        with open(path, "wb") as f:
            f.write(data)
        return path

    def run_cli(self, row, data):
        """harness.py junit on DATA (bytes of a results.tsv): the parsed
        XML's root."""
        tsv = self.write_tsv(data)
        out = os.path.join(self.tmp.name, "junit.xml")
        subprocess.run([sys.executable, os.path.join(SCRIPTS, "harness.py"), "junit",
                        "--row", row, "--tsv", tsv, "--out", out], check=True)
        return ET.parse(out).getroot()

    # Every detail reaches the XML: &, <, quotes as XML escapes them,
    # ESC and NUL as their escape text, and the file parses.
    def test_escaping(self):
        data = ("FAIL\tkernel-log\t%s\nSKIP\tcase <a&b>\t\x1b\"x\"\n" % DETAIL).encode()
        root = self.run_cli("6.12-reject", data)
        failure = root.find("testcase/failure")
        self.assertIsNotNone(failure)
        self.assertEqual(failure.get("message"), WANT)
        skipped = root.find("testcase/skipped")
        self.assertEqual(skipped.get("message"), '\\x1b"x"')
        self.assertEqual([c.get("name") for c in root.iter("testcase")], ["kernel-log", "case <a&b>"])

    # Bytes that are not UTF-8, and U+FFFE, are escape text too.
    def test_not_utf8(self):
        root = self.run_cli("r", b"FAIL\tboot\tbad \xff\xfe, \xef\xbf\xbe.\n")
        self.assertEqual(root.find("testcase/failure").get("message"), "bad \\xff\\xfe, \\ufffe.")

    # The suite's counts and the testcases' names and classnames.
    def test_counts(self):
        data = (b"PASS\tboot\t\nFAIL\tsuite\tno plan\nSKIP\tarm/x\tnot here\n"
                b"FAIL\tpolicy\twarn, not reject\nPASS\ttaint\t\n\n")
        root = self.run_cli("6.12-warn", data)
        self.assertEqual(root.tag, "testsuite")
        self.assertEqual((root.get("name"), root.get("tests"), root.get("failures"), root.get("skipped")),
                         ("6.12-warn", "5", "2", "1"))
        cases = root.findall("testcase")
        self.assertEqual([(c.get("classname"), c.get("name")) for c in cases],
                         [("6.12-warn", n) for n in ("boot", "suite", "arm/x", "policy", "taint")])
        self.assertEqual([[(e.tag, e.get("message")) for e in c] for c in cases],
                         [[], [("failure", "no plan")], [("skipped", "not here")],
                          [("failure", "warn, not reject")], []])

    # A status that is not PASS, FAIL or SKIP is a failure, not a pass.
    def test_unknown_status(self):
        root = harness.junit("r", [("ERROR", "x", "why")]).getroot()
        self.assertEqual(root.get("failures"), "1")
        self.assertIn("why", root.find("testcase/failure").get("message"))

    # What XML 1.0 holds is kept, tab, newline and CR included.
    def test_xml_text(self):
        kept = "a\tb\nc\r d \u00e9 \u4e2d \U0001f600 \ufffd"
        self.assertEqual(harness.xml_text(kept), kept)
        self.assertEqual(harness.xml_text("\x0b\x0c\x1f\ud800\uffff"), "\\x0b\\x0c\\x1f\\ud800\\uffff")


if __name__ == "__main__":
    unittest.main()
