#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Structured text the harness produces, written with the libraries made
for it instead of by hand.

  harness.py junit --row ROW --tsv results.tsv --out junit.xml
      The JUnit XML of a row's results.tsv (lines "STATUS<TAB>check<TAB>
      detail", STATUS PASS, FAIL or SKIP; scripts/stages/results.sh): a testsuite
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
      A LAVA job (scripts/lava/jobs.sh): the job template JOB.yaml
      (configs/lava/job-TYPE.yaml) with the actions of TEST.yaml
      (configs/lava/test-kselftest.yaml) appended, both loaded with
      yaml.safe_load, their placeholders filled with the row's values in
      the loaded data, and written with yaml.safe_dump: a value is YAML
      whatever characters it holds.  NAME=VALUE are the row's record
      (build/rows/ROW.env, scripts/lib.sh row_record): ROW KEY EXPECT
      POLICY TESTS PARAMS GUEST_ENV MEMORY QEMU_EXTRA, and QEMU_MACHINE
      QEMU_CPU (configs/qemu.env).  See fill() for the placeholders.

  harness.py matrix [--file configs/matrix.tsv] rows [--base BASE] [--first]
  harness.py matrix [--file ...] bases [ROW...] | row ROW | field ROW COLUMN | markdown
      The test matrix (configs/matrix.tsv), the one reader of it: the
      names of its rows (of BASE; with --first the first one's alone), its
      bases (of the rows ROW...) in the
      order of their first row, one row as "COLUMN<TAB>VALUE" lines, one
      field, or the
      Markdown page of the matrix that `make rows` writes to
      Documentation/rows.md.  A row that is not there exits 1 saying so.

  harness.py record --top TOP --build BUILD --machine M --cpu C --memory MIB ROW
      The record of ROW (BUILD/rows/ROW.env), written and its path
      printed: shell assignments every stage sources instead of reading
      the matrix (scripts/lib.sh row_record, which passes configs/qemu.env's
      machine, CPU and memory): ROW BASE KIND FRAGMENTS KEY OUT RES POLICY
      EXPECT TESTS PARAMS GUEST_ENV CMDLINE MEMORY QEMU_EXTRA QEMU_OPTS
      DT_FRAGMENT (see row_record()).

  harness.py tests EXPECT
      The kselftests an expectation file (kselftest/expect/NAME) names, as
      the guest's suite takes them: "arm:NAME,arm:NAME...", not its KUnit
      suites ("kunit:SUITE"); read with the judge's own reader
      (scripts/stages/judge.py read_expectations), which refuses a
      malformed line naming it.

  harness.py subseries [--file patches/subseries] --patches N
      The sub-series (patches/subseries), checked against a stack of N
      patches: "NAME<TAB>FIRST<TAB>LAST<TAB>NEEDS<TAB>PREFIX<TAB>ON61" a
      line, NEEDS words separated by spaces ("-" for none), for
      scripts/series/mbox.sh and its test.

Exits 1 with the reason on stderr when it cannot read its input or write
its output.  Each command writes its output in one write(); a reader that
closed the pipe before it ends it with SIGPIPE, quietly, as it would cat.
"""

import argparse
import os
import re
import signal
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
        "Generated by scripts/lava/jobs.sh from configs/lava/%s and" % os.path.basename(job_file),
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


# --- tables: the test matrix, the sub-series ---------------------------------

class TableError(Exception):
    """A table (configs/matrix.tsv, patches/subseries) that cannot be read."""


def read_table(path):
    """The rows of the tab-separated table at PATH, dicts column -> field,
    and the comment lines before its header, without their "# ".  Lines
    that start with "#" and empty lines are comments; the first other line
    names the columns.  A row with more or fewer fields than the header,
    or a name (first field) used twice, is a TableError naming the line."""
    rows, comments, header, seen = [], [], None, {}
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line.strip() or line.startswith("#"):
                if header is None and line.startswith("#"):
                    comments.append(line[2:] if line.startswith("# ") else line[1:])
                continue
            fields = line.split("\t")
            if header is None:
                header = fields
                continue
            if len(fields) != len(header):
                raise TableError("%s:%d: %d fields, the header has %d (%s)"
                                 % (path, n, len(fields), len(header), " ".join(header)))
            if fields[0] in seen:
                raise TableError("%s:%d: %r is already line %d" % (path, n, fields[0], seen[fields[0]]))
            seen[fields[0]] = n
            rows.append(dict(zip(header, fields)))
    if header is None:
        raise TableError("%s: no header line" % path)
    return header, rows, comments


def matrix_row(rows, name, path):
    """The row NAME of ROWS, or a TableError saying it is not in PATH."""
    for row in rows:
        if row["name"] == name:
            return row
    raise TableError("no row '%s' in %s" % (name, path))


def bases_of(rows):
    """The bases of ROWS, in the order of their first row, each once."""
    bases = []
    for row in rows:
        if row["base"] not in bases:
            bases.append(row["base"])
    return bases


def _md(text):
    return text.replace("|", "\\|")


def matrix_markdown(header, rows, comments, path="configs/matrix.tsv"):
    """Documentation/rows.md: the matrix's own description (its comment
    lines), the rows of each base counted, and the rows as a table."""
    out = ["# The test matrix", "",
           "Generated by `make rows` from `%s`: do not edit; change the matrix and run" % path,
           "`make rows` (a unit test fails while this page and the matrix differ).", ""]
    bases = bases_of(rows)
    out.append("%d rows: %s." % (len(rows), ", ".join(
        "%d on %s" % (sum(r["base"] == b for r in rows), b) for b in bases)))
    out += ["", "```"] + comments + ["```", ""]
    out.append("| " + " | ".join(header) + " |")
    out.append("|" + "|".join("---" for _ in header) + "|")
    for row in rows:
        out.append("| " + " | ".join(
            "`%s`" % _md(row[c]) if row[c] not in ("", "-") else "-" for c in header) + " |")
    return "\n".join(out) + "\n"


def read_subseries(path, npatches):
    """The sub-series of PATH (patches/subseries) for a stack of NPATCHES
    patches: (name, first, last, needs, prefix, on61) tuples, in order,
    needs a list.  A range that is not FIRST-LAST within 1-NPATCHES, or a
    needed sub-series not listed before, is a TableError."""
    header, rows, _ = read_table(path)
    want = ["name", "patches", "needs", "prefix", "on-6.1"]
    if header != want:
        raise TableError("%s: columns %s, not %s" % (path, " ".join(header), " ".join(want)))
    out, names = [], set()
    for row in rows:
        name, rng = row["name"], row["patches"]
        m = re.fullmatch(r"([0-9]+)-([0-9]+)", rng)
        if not m:
            raise TableError("%s: sub-series %s: patches '%s' is not FIRST-LAST" % (path, name, rng))
        first, last = int(m.group(1)), int(m.group(2))
        if first < 1 or last > npatches or first > last:
            raise TableError("%s: sub-series %s: patches %s outside 1-%d" % (path, name, rng, npatches))
        needs = [] if row["needs"] == "-" else row["needs"].split()
        for d in needs:
            if d not in names:
                raise TableError("%s: sub-series %s needs '%s', which is not listed before it"
                                 % (path, name, d))
        names.add(name)
        out.append((name, first, last, needs, row["prefix"], row["on-6.1"]))
    return out


def kselftest_list(expect):
    """The kselftests the expectation file EXPECT names, in order, each
    once, as "arm:NAME,arm:NAME..." (the guest suite's KSELFTEST_TESTS)."""
    import importlib.util
    spec = importlib.util.spec_from_file_location(
        "judge", os.path.join(os.path.dirname(os.path.abspath(__file__)), "stages", "judge.py"))
    judge = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(judge)
    try:
        want, _ = judge.read_expectations(expect)
    except judge.JudgeError as exc:
        raise TableError(str(exc)) from None
    tests = []
    for test, _ in want:
        if not test.startswith("kunit:") and "arm:" + test not in tests:
            tests.append("arm:" + test)
    return ",".join(tests)


def build_key(base, fragments):
    """The build folder's name under BUILD/out of BASE and FRAGMENTS (a
    list): rows with the same base and fragments share one build."""
    return "%s-%s" % (base, "+".join(f.replace(".config", "") for f in fragments))


def row_record(row, top, build, machine, cpu, memory):
    """The record of ROW (a dict of the matrix's columns) as a list of
    (NAME, VALUE):
      ROW BASE KIND FRAGMENTS KEY OUT RES POLICY EXPECT TESTS
      PARAMS     the kernel parameters
      GUEST_ENV  the guest's environment (NAME=VALUE ...)
      CMDLINE    what the row adds to the kernel command line: PARAMS,
                 GUEST_ENV and KSELFTEST_TESTS=TESTS
      MEMORY     MiB (MEMORY, or the row's -m)
      QEMU_EXTRA the row's other qemu options
      QEMU_OPTS  every qemu-system-arm option of the machine and the row
      DT_FRAGMENT  TOP/configs/FILE.dtsi when the row's qemu options have
                 "-dtb FILE.dtsi": nodes added to QEMU's own device tree for
                 this machine (scripts/stages/boot.sh makes the DTB), or ""
    A "-dtb" fragment that is not there is a TableError."""
    c = {k: ("" if v == "-" else v) for k, v in row.items()}
    words, extra, dt = c["qemu"].split(), [], ""
    i = 0
    while i < len(words):
        if words[i] == "-m" and i + 1 < len(words):
            memory = words[i + 1]
            i += 1
        elif words[i] == "-dtb" and i + 1 < len(words) and words[i + 1].endswith(".dtsi"):
            dt = os.path.join(top, "configs", words[i + 1])
            if not os.path.isfile(dt):
                raise TableError("row %s: %s missing" % (c["name"], dt))
            i += 1
        else:
            extra.append(words[i])
        i += 1
    expect = os.path.join(top, "kselftest", "expect", c["expect"])
    tests = kselftest_list(expect)
    key = build_key(c["base"], c["fragments"].split())
    cmdline = c["params"].split() + c["env"].split() + (["KSELFTEST_TESTS=" + tests] if tests else [])
    return [
        ("ROW", c["name"]), ("BASE", c["base"]), ("KIND", c["kind"]), ("FRAGMENTS", c["fragments"]),
        ("KEY", key), ("OUT", os.path.join(build, "out", key)),
        ("RES", os.path.join(build, "results", c["name"])),
        ("POLICY", c["policy"]), ("EXPECT", expect), ("TESTS", tests),
        ("PARAMS", c["params"]), ("GUEST_ENV", c["env"]), ("CMDLINE", " ".join(cmdline)),
        ("MEMORY", memory), ("QEMU_EXTRA", " ".join(extra)),
        ("QEMU_OPTS", " ".join(["-M", machine, "-cpu", cpu, "-m", memory] + extra)),
        ("DT_FRAGMENT", dt),
    ]


def write_record(args):
    """Write BUILD/rows/ROW.env, the record of ARGS.row; returns its path."""
    import shlex
    _, rows, _ = read_table(os.path.join(args.top, "configs", "matrix.tsv"))
    row = matrix_row(rows, args.row, "configs/matrix.tsv")
    record = row_record(row, args.top, args.build, args.machine, args.cpu, args.memory)
    text = "# The record of row %s (configs/matrix.tsv, configs/qemu.env),\n" % args.row
    text += "# written by scripts/harness.py record: read by every stage.\n"
    text += "".join("%s=%s\n" % (n, shlex.quote(v)) for n, v in record)
    path = os.path.join(args.build, "rows", args.row + ".env")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    # A temporary file of this process's own: the LAVA jobs, made beside
    # the rows, write the same records at the same time (same content).
    tmp = "%s.tmp.%d" % (path, os.getpid())
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(tmp, path)
    return path


def matrix_command(args):
    header, rows, comments = read_table(args.file)
    if args.what == "rows":
        names = ["%s" % r["name"] for r in rows if args.base in (None, r["base"])]
        return names[:1] if args.first else names
    if args.what == "bases":
        return bases_of([matrix_row(rows, name, args.file) for name in args.rows] if args.rows
                        else rows)
    if args.what == "markdown":
        return [matrix_markdown(header, rows, comments).rstrip("\n")]
    row = matrix_row(rows, args.row, args.file)
    if args.what == "row":
        return ["%s\t%s" % (c, row[c]) for c in header]
    if args.column not in row:
        raise TableError("%s has no column '%s'" % (args.file, args.column))
    return [row[args.column]]


# --- command line ----------------------------------------------------------

def _assignment(arg):
    name, sep, value = arg.partition("=")
    if not sep or not re.fullmatch(r"[A-Z_][A-Z0-9_]*", name):
        raise argparse.ArgumentTypeError("want NAME=VALUE, not %r" % arg)
    return name, value


def _write(text):
    """TEXT to stdout in one write(): up to a pipe's capacity (64 KiB) it
    is all in the pipe before a reader that takes the first line and
    closes the pipe (head -n 1) can close it, and nothing is left to write
    into the closed pipe.  print() writes its text and the newline in two
    writes when stdout is unbuffered (python3 -u, PYTHONUNBUFFERED=1), and
    the second one could find the pipe closed."""
    sys.stdout.write(text)
    sys.stdout.flush()


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

    p = sub.add_parser("matrix", help="the test matrix, configs/matrix.tsv")
    p.add_argument("--file", default="configs/matrix.tsv")
    what = p.add_subparsers(dest="what", required=True)
    w = what.add_parser("rows", help="the names of the rows (of BASE)")
    w.add_argument("--base")
    w.add_argument("--first", action="store_true",
                   help="the first row's name alone (an empty line if there is no row)")
    w = what.add_parser("bases", help="the bases (of ROW...), in the order of their first row")
    w.add_argument("rows", nargs="*", metavar="ROW")
    what.add_parser("markdown", help="Documentation/rows.md")
    w = what.add_parser("row", help="a row, COLUMN<TAB>VALUE a line")
    w.add_argument("row")
    w = what.add_parser("field", help="a field of a row")
    w.add_argument("row")
    w.add_argument("column")

    p = sub.add_parser("record", help="a row's record, BUILD/rows/ROW.env")
    for opt in ("--top", "--build", "--machine", "--cpu", "--memory"):
        p.add_argument(opt, required=True)
    p.add_argument("row")

    p = sub.add_parser("tests", help="the kselftests of an expectation file")
    p.add_argument("expect")

    p = sub.add_parser("subseries", help="the sub-series, patches/subseries")
    p.add_argument("--file", default="patches/subseries")
    p.add_argument("--patches", type=int, required=True, help="the stack's length")

    args = parser.parse_args(argv)
    try:
        if args.command == "matrix":
            _write("\n".join(matrix_command(args)) + "\n")
        elif args.command == "record":
            _write(write_record(args) + "\n")
        elif args.command == "tests":
            _write(kselftest_list(args.expect) + "\n")
        elif args.command == "subseries":
            _write("".join("%s\t%d\t%d\t%s\t%s\t%s\n" % (name, first, last, " ".join(needs) or "-",
                                                          prefix, on61)
                           for name, first, last, needs, prefix, on61
                           in read_subseries(args.file, args.patches)))
        elif args.command == "junit":
            write_junit(args.row, args.tsv, args.out)
        else:
            write_lava_job(args.job, args.test, args.device_type, args.url_base,
                           args.series, dict(args.record), args.out)
    except (OSError, TemplateError, TableError) as exc:
        sys.exit("harness.py %s: %s" % (args.command, exc))
    except ImportError as exc:
        sys.exit("harness.py %s: %s (python3-yaml, scripts/stages/deps.sh)" % (args.command, exc))


if __name__ == "__main__":
    # SIGPIPE as for any other command of a pipeline (Python ignores it
    # and raises BrokenPipeError instead): a reader that closed the pipe
    # before the output was written ends this process quietly, status 141
    # in the shell, instead of an "[Errno 32] Broken pipe" error line or,
    # at the final flush, a traceback.  Here and not in main(): the unit
    # tests import this module and call its functions in their own process.
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    main()
