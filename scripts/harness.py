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

  harness.py lava-job --job JOB.yaml --test TEST.yaml --device-type TYPE
                      --url-base URL --series STAMP --out FILE NAME=VALUE...
      A LAVA job (scripts/lava-jobs.sh): the job template JOB.yaml
      (configs/lava/job-TYPE.yaml) with the actions of TEST.yaml
      (configs/lava/test-kselftest.yaml) appended, both loaded with
      yaml.safe_load, their placeholders filled with the row's values in
      the loaded data, and written with yaml.safe_dump: a value is YAML
      whatever characters it holds.  NAME=VALUE are the row's record
      (build/rows/ROW.env, scripts/lib.sh row_record): ROW KEY EXPECT
      POLICY TESTS PARAMS GUEST_ENV MEMORY QEMU_EXTRA, and QEMU_MACHINE
      QEMU_CPU (configs/qemu.env).  See fill() for the placeholders.

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


# --- LAVA jobs -------------------------------------------------------------

PLACEHOLDER = re.compile(r"@([A-Z][A-Z0-9_]*)@")

# The names of the row's record (and of configs/qemu.env) a job needs.
RECORD_NAMES = ("ROW", "KEY", "EXPECT", "POLICY", "TESTS", "PARAMS", "GUEST_ENV",
                "MEMORY", "QEMU_EXTRA", "QEMU_MACHINE", "QEMU_CPU")


class TemplateError(Exception):
    """A template that cannot be filled in."""


_LEAVE_OUT = object()


def fill(node, values):
    """NODE, data loaded from a template, with its placeholders filled from
    VALUES (name -> value):
      - a string that is one placeholder, "@NAME@", takes the value as it
        is, of its type (a number, a list); a value None leaves out the
        key or list item (a row without the value);
      - a placeholder within a string, "@URL@/zImage", takes the value's
        text (a string or a number).
    A placeholder without a value, or in a key, is a TemplateError."""
    def value(name):
        if name not in values:
            raise TemplateError("placeholder @%s@ left (no value for it)" % name)
        return values[name]

    def text(m):
        v = value(m.group(1))
        if not isinstance(v, (str, int)) or isinstance(v, bool):
            raise TemplateError("placeholder %s within a string has no text (value %r)"
                                % (m.group(0), v))
        return str(v)

    if isinstance(node, dict):
        out = {}
        for k, v in node.items():
            m = PLACEHOLDER.search(k) if isinstance(k, str) else None
            if m:
                raise TemplateError("placeholder %s left in a key" % m.group(0))
            v = fill(v, values)
            if v is not _LEAVE_OUT:
                out[k] = v
        return out
    if isinstance(node, list):
        return [v for v in (fill(v, values) for v in node) if v is not _LEAVE_OUT]
    if isinstance(node, str):
        m = PLACEHOLDER.fullmatch(node)
        if m:
            v = value(m.group(1))
            return _LEAVE_OUT if v is None else v
        return PLACEHOLDER.sub(text, node)
    return node


def job_values(record, device_type, url_base, series):
    """The values of a job's placeholders for the row of RECORD (the row's
    record, RECORD_NAMES) on DEVICE_TYPE:
      ROW KEY POLICY TESTS  the record's
      EXPECT        the expectation set's name
      SERIES        the series' fingerprint (lib.sh series_stamp)
      URL           URL_BASE/KEY/DEVICE_TYPE, the folder of the artifacts
      MACHINE CPU   the machine (configs/qemu.env)
      MEMORY        the row's memory, a number when it is one
      EXTRA_OPTIONS the row's other qemu options, a list, None if none
      CMDLINE       the row's kernel parameters and guest environment,
                    words separated by one space."""
    missing = [n for n in RECORD_NAMES if n not in record]
    if missing:
        raise TemplateError("no value for %s" % " ".join(missing))
    memory = record["MEMORY"]
    return {
        "ROW": record["ROW"],
        "KEY": record["KEY"],
        "EXPECT": os.path.basename(record["EXPECT"]),
        "POLICY": record["POLICY"],
        "TESTS": record["TESTS"],
        "SERIES": series,
        "URL": "%s/%s/%s" % (url_base.rstrip("/"), record["KEY"], device_type),
        "MACHINE": record["QEMU_MACHINE"],
        "CPU": record["QEMU_CPU"],
        "MEMORY": int(memory) if memory.isdigit() else memory,
        "EXTRA_OPTIONS": record["QEMU_EXTRA"].split() or None,
        "CMDLINE": " ".join((record["PARAMS"] + " " + record["GUEST_ENV"]).split()),
    }


def lava_job(job_template, test_template, values):
    """The job (data): JOB_TEMPLATE's data with TEST_TEMPLATE's actions
    appended to its actions, filled with VALUES."""
    import yaml

    try:
        job = yaml.safe_load(job_template)
        test = yaml.safe_load(test_template)
    except yaml.YAMLError as exc:
        raise TemplateError("a template is not YAML: %s" % " ".join(str(exc).split())) from None
    if not isinstance(job, dict) or not isinstance(job.get("actions"), list):
        raise TemplateError("the job template is not a mapping with a list of actions")
    if not isinstance(test, list):
        raise TemplateError("the test template is not a list of actions")
    job["actions"] = job["actions"] + test
    return fill(job, values)


def lava_job_text(job, header):
    """JOB (data) as YAML text, after HEADER's lines as comments."""
    import yaml

    comment = "".join("# %s\n" % " ".join(line.split()) for line in header)
    return comment + yaml.safe_dump(job, sort_keys=False, default_flow_style=False,
                                    allow_unicode=True, width=float("inf"))


def write_lava_job(job_file, test_file, device_type, url_base, series, record, out):
    """Write OUT, the job of the row of RECORD on DEVICE_TYPE."""
    with open(job_file, encoding="utf-8") as f:
        job_template = f.read()
    with open(test_file, encoding="utf-8") as f:
        test_template = f.read()
    try:
        job = lava_job(job_template, test_template,
                       job_values(record, device_type, url_base, series))
    except TemplateError as exc:
        raise TemplateError("%s: %s" % (out, exc)) from None
    header = [
        "LAVA job: row %s of configs/matrix.tsv on device type %s." % (record["ROW"], device_type),
        "Generated by scripts/lava-jobs.sh from configs/lava/%s and" % os.path.basename(job_file),
        "configs/lava/%s: do not edit." % os.path.basename(test_file),
    ]
    tmp = "%s.tmp.%d" % (out, os.getpid())
    try:
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(lava_job_text(job, header))
        os.replace(tmp, out)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


# --- command line ----------------------------------------------------------

def _assignment(arg):
    name, sep, value = arg.partition("=")
    if not sep or not re.fullmatch(r"[A-Z_][A-Z0-9_]*", name):
        raise argparse.ArgumentTypeError("want NAME=VALUE, not %r" % arg)
    return name, value


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog="harness.py", description=__doc__.split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("junit", help="JUnit XML of a results.tsv")
    p.add_argument("--row", required=True)
    p.add_argument("--tsv", required=True)
    p.add_argument("--out", required=True)

    p = sub.add_parser("lava-job", help="a LAVA job of a row and device type")
    p.add_argument("--job", required=True, help="the job template, configs/lava/job-TYPE.yaml")
    p.add_argument("--test", required=True, help="the test action, configs/lava/test-kselftest.yaml")
    p.add_argument("--device-type", required=True)
    p.add_argument("--url-base", required=True)
    p.add_argument("--series", required=True)
    p.add_argument("--out", required=True)
    p.add_argument("record", nargs="*", type=_assignment, metavar="NAME=VALUE",
                   help="the row's record: " + " ".join(RECORD_NAMES))

    args = parser.parse_args(argv)
    try:
        if args.command == "junit":
            write_junit(args.row, args.tsv, args.out)
        else:
            write_lava_job(args.job, args.test, args.device_type, args.url_base,
                           args.series, dict(args.record), args.out)
    except (OSError, TemplateError) as exc:
        sys.exit("harness.py %s: %s" % (args.command, exc))
    except ImportError as exc:
        sys.exit("harness.py %s: %s (python3-yaml, scripts/deps.sh)" % (args.command, exc))


if __name__ == "__main__":
    main()
