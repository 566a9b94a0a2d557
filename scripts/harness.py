#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Structured text the harness produces, written with the libraries made
for it instead of by hand.

  harness.py junit --row ROW --tsv results.tsv --out junit.xml
      The JUnit XML of a row's results.tsv (lines "STATUS<TAB>check<TAB>
      detail", STATUS PASS, FAIL or SKIP; scripts/results.sh): a testsuite
      named ROW with its tests, failures and skipped counts, a testcase
      (classname ROW, name check) a line, with <failure message=DETAIL/> or
      <skipped message=DETAIL/>.  Written with xml.etree.ElementTree; the
      characters XML 1.0 cannot hold at all (control characters but tab,
      newline and carriage return; U+FFFE, U+FFFF, lone surrogates), as a
      kernel console line may carry, become their escape text ("\\x1b"),
      and bytes that are not UTF-8 theirs ("\\xff").  A status other than
      PASS, FAIL or SKIP is a failure that says so.

Exits 1 with the reason on stderr when it cannot write its output.
"""

import argparse
import os
import re
import sys
import xml.etree.ElementTree as ET

# --- JUnit XML -------------------------------------------------------------

# What XML 1.0 cannot hold (its production Char, negated).
_NOT_XML_CHAR = re.compile("[^\t\n\r\u0020-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def _escape_char(m):
    c = ord(m.group(0))
    return "\\x%02x" % c if c < 0x100 else "\\u%04x" % c


def xml_text(text):
    """TEXT with each character XML 1.0 cannot hold replaced by its escape
    text ("\\x1b", "\\ufffe").  What XML can hold (&, <, quotes) is left to
    the XML writer."""
    return _NOT_XML_CHAR.sub(_escape_char, text)


def read_results(path):
    """The results of a results.tsv: (status, check, detail) a line, empty
    lines left out.  Bytes that are not UTF-8 become their escape text."""
    results = []
    with open(path, encoding="utf-8", errors="backslashreplace", newline="\n") as f:
        for line in f:
            line = line.rstrip("\n")
            if not line.strip():
                continue
            fields = line.split("\t", 2) + ["", ""]
            results.append((fields[0], fields[1], fields[2]))
    return results


def junit(row, results):
    """The JUnit XML (an ElementTree) of ROW's RESULTS, (status, check,
    detail) tuples."""
    suite = ET.Element("testsuite", name=xml_text(row))
    failures = skipped = 0
    for status, check, detail in results:
        case = ET.SubElement(suite, "testcase", classname=xml_text(row), name=xml_text(check))
        if status == "PASS":
            continue
        if status == "SKIP":
            ET.SubElement(case, "skipped", message=xml_text(detail))
            skipped += 1
            continue
        if status != "FAIL":
            detail = "status %r, not PASS, FAIL or SKIP: %s" % (status, detail)
        ET.SubElement(case, "failure", message=xml_text(detail))
        failures += 1
    suite.set("tests", str(len(results)))
    suite.set("failures", str(failures))
    suite.set("skipped", str(skipped))
    tree = ET.ElementTree(suite)
    ET.indent(tree, space="  ")
    return tree


def write_junit(row, tsv, out):
    """Write OUT, the JUnit XML of ROW's results file TSV."""
    tree = junit(row, read_results(tsv))
    tmp = "%s.tmp.%d" % (out, os.getpid())
    try:
        with open(tmp, "wb") as f:
            tree.write(f, encoding="UTF-8", xml_declaration=True)
            f.write(b"\n")
        os.replace(tmp, out)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


# --- command line ----------------------------------------------------------

def main(argv=None):
    parser = argparse.ArgumentParser(
        prog="harness.py", description=__doc__.split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("junit", help="JUnit XML of a results.tsv")
    p.add_argument("--row", required=True)
    p.add_argument("--tsv", required=True)
    p.add_argument("--out", required=True)

    args = parser.parse_args(argv)
    try:
        write_junit(args.row, args.tsv, args.out)
    except OSError as exc:
        sys.exit("harness.py %s: %s" % (args.command, exc))


if __name__ == "__main__":
    main()
