#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The judge: the verdict of one guest run of the suite.

Reads the console of a guest that ran kselftest/suite (a QEMU serial log
from scripts/boot.sh, or the target log of a LAVA job from
scripts/lava-run.sh), the row's expectations (kselftest/expect/NAME: one
line "TEST CASE ok|skip" per case) and the policy the row's kernel must
report, and prints one check a line, "PASS|FAIL|SKIP<TAB>check<TAB>why".
Every check starts as FAIL and only the evidence in the log moves it:

  boot        the guest got through the suite and dumped its kernel log
              (the last marker, "=== ioremap-ram: kernel log end");
  suite       the runner ended with rc=0, and every kselftest it ran
              reported a plan and a top-level "ok" (a crashed or killed
              test, a missing plan or a short count is a failure);
  policy      the policy the kernel reports is the row's;
  TEST/CASE   each expected case ran once with its expected result (a
              case reported twice counts by its worst report, and twice
              is itself a failure); a case that ran but is not expected
              fails too;
  kernel-log  the dumped kernel log is complete (it starts at the boot
              banner: the ring buffer did not wrap) and no line of the
              whole console is an oops, BUG, panic, WARNING or a KASAN,
              UBSAN, lockdep, RCU, debugobjects, kmemleak or hung-task
              report, except the policy's own WARNING, which is allowed
              only where its report line follows it.

The KTAP is parsed by the kernel's own parser, kunit_parser.py
(tools/testing/kunit of a kernel tree, --kunit-dir): the KUnit suites in
the kernel log as they are, the kselftests after their "# "-prefixed
nesting is turned into KTAP's indentation.  Exits 1 if a check failed, 2
on bad arguments.
"""

import argparse
import io
import os
import re
import sys
from collections import OrderedDict

MARK = "=== ioremap-ram: "
TIMESTAMP = re.compile(r"^\[\s*\d+\.\d+\] ")
RESULT = re.compile(r"^(ok|not ok) (\d+) (?:- )?([^#]*?)\s*(#.*)?$")
SPLAT = re.compile(
    r"BUG:|Oops|Internal error:|Kernel panic|Unable to handle kernel|"
    r"WARNING:|UBSAN:|KASAN:|kmemleak: \d+ new suspected memory leak|"
    r"unreferenced object 0x|possible circular locking|inconsistent lock state|"
    r"possible recursive locking|suspicious RCU usage|ODEBUG:|"
    r"INFO: task .* blocked|BUG: soft lockup|rcu_sched self-detected stall|"
    r"INFO: rcu_.* detected stall")
# The policy's own backtrace: WARN() in ioremap_ram_event() (inlined or
# not into arm_ioremap_ram_allowed() and arm_ioremap_pool_conflict_allowed()),
# whose message is the policy's report line (event 1 of a call site).
POLICY_WARN = re.compile(
    r"WARNING: CPU: \d+ PID: \d+ at arch/arm/mm/ioremap-ram\.c:\d+ "
    r"(ioremap_ram_event|arm_ioremap_ram_allowed|arm_ioremap_pool_conflict_allowed)\+")
# What a report says the range is: system RAM, or remap pool memory that
# a live mapping of another kind of memory type holds.
POLICY_WHAT = r"is (system RAM|remap pool memory mapped [a-z-]+)"
POLICY_REPORT = re.compile(
    r"^ioremap_ram: \[mem 0x[0-9a-f]+-0x[0-9a-f]+\] " + POLICY_WHAT + r": \S+ mapping by "
    r".* (rejected|mapping anyway) \(event 1 of this call site\); ")
# A report line of a later event of a call site: no WARNING comes with it.
POLICY_LATER = re.compile(
    r"^ioremap_ram: \[mem 0x[0-9a-f]+-0x[0-9a-f]+\] " + POLICY_WHAT + r": \S+ mapping by "
    r".* (rejected|mapping anyway) \(event (?!1 )\d+ of this call site\)")
BANNER = re.compile(r"^Booting Linux on physical CPU|^Linux version ")
PANIC = re.compile(r"Kernel panic|Internal error:|BUG:|Unable to handle kernel|Oops")


class Verdict:
    """The checks of one run, in order, each PASS, FAIL or SKIP."""

    def __init__(self):
        self.checks = []

    def add(self, status, name, why=""):
        self.checks.append((status, name, " ".join(str(why).split())))

    def failed(self):
        return any(s == "FAIL" for s, _, _ in self.checks)


def clean(line):
    """A console line without its carriage return and printk time stamp."""
    return TIMESTAMP.sub("", line.rstrip("\r\n").replace("\r", ""))


def section(lines, name):
    """The lines between "=== ioremap-ram: NAME begin" and "... NAME end"
    (to the end of the log if the end marker is missing), and whether the
    end marker was there.  None if the section never began."""
    begin, out = MARK + name + " begin", None
    for line in lines:
        if out is None:
            if line.startswith(begin):
                out = []
            continue
        if line.startswith(MARK + name + " end"):
            return out, True
        out.append(line)
    return (None, False) if out is None else (out, False)


def load_parser(kunit_dir):
    sys.path.insert(0, kunit_dir)
    try:
        import kunit_parser  # pylint: disable=import-outside-toplevel
        import kunit_printer  # pylint: disable=import-outside-toplevel
    except ImportError as err:
        sys.exit(f"judge: no kunit_parser.py in {kunit_dir}: {err}")
    # The parser prints its progress: keep it, it is the judge's log.
    kunit_printer.stdout._output = io.StringIO()  # pylint: disable=protected-access
    kunit_printer.stdout._use_color = False  # pylint: disable=protected-access

    def add_error(test, message):
        test.counts.errors += 1
        test.__dict__.setdefault("errors", []).append(message)

    kunit_parser.Test.add_error = add_error
    return kunit_parser


def skip_upper(line):
    """The TAP14 SKIP directive is case-insensitive, kunit_parser's is not."""
    return re.sub(r" # [sS][kK][iI][pP]\b", " # SKIP", line)


def kselftests(lines):
    """Split the runner's output (run_kselftest.sh) by kselftest.  Returns
    the top-level plan (or None) and, per kselftest in order, its name, its
    own KTAP (the "# "-prefixed lines between its "# selftests: COLLECTION:
    NAME" header and its top-level result, unprefixed) and that result
    (ok, fail, skip or None if it never came)."""
    plan, tests, cur = None, [], None
    for line in lines:
        m = re.match(r"^# selftests: [^:]+: (\S+)", line)
        if m:
            cur = [m.group(1), [], None]
            tests.append(cur)
            continue
        m = RESULT.match(line)
        if m and cur is not None and cur[2] is None:
            directive = m.group(4) or ""
            cur[2] = ("fail" if m.group(1) == "not ok" else
                      "skip" if re.match(r"#\s*skip\b", directive, re.I) else "ok")
            cur = None
            continue
        if plan is None and re.match(r"^1\.\.\d+$", line):
            plan = int(line[3:])
        elif cur is not None and line.startswith("#"):
            cur[1].append(skip_upper(line[2:] if line.startswith("# ") else line[1:]))
    return plan, tests


def raw_results(lines):
    """Every result line of a test's own cases, in order: {case: [status]}
    (ok, fail or skip), to see a case that reported more than once."""
    seen = OrderedDict()
    for line in lines:
        m = RESULT.match(line.strip())
        if not m:
            continue
        status = "fail" if m.group(1) == "not ok" else "ok"
        if status == "ok" and m.group(4) and re.match(r"#\s*skip\b", m.group(4), re.I):
            status = "skip"
        seen.setdefault(m.group(3).strip(), []).append(status)
    return seen


STATUS = {"SUCCESS": "ok", "SKIPPED": "skip", "FAILURE": "fail",
          "TEST_CRASHED": "crashed", "NO_TESTS": "no tests",
          "FAILURE_TO_PARSE_TESTS": "unparsable"}


def walk(kp, ktap_lines, test, observed, problems):
    """Parse one KTAP document with kunit_parser.  With TEST, the document
    is one kselftest's and its results are TEST's cases; without (KUnit in
    the kernel log), each top-level result is a suite, "kunit:SUITE", and
    its subtests are the cases.  observed[(TEST, CASE)] gets each case's
    status; problems[TEST] what did not end well (crashed, failed, no plan,
    the parser's own errors).  False if there was no KTAP at all."""
    try:
        root = kp.parse_run_tests(ktap_lines)
    except ValueError as err:    # the parser read past the end
        problems.setdefault(test or "kunit", []).append(f"unparsable KTAP: {err}")
        return True
    if root.status.name == "FAILURE_TO_PARSE_TESTS":
        return False
    groups = [(test, root)] if test else [("kunit:" + (t.name or "?"), t) for t in root.subtests]
    for name, node in groups:
        why = list(getattr(node, "errors", []))
        if node.expected_count is None:
            why.append("no KTAP plan")
        status = STATUS.get(node.status.name, node.status.name)
        if status not in ("ok", "skip") and not (test and status == "no tests"):
            why.insert(0, f"ended {status}")
        for case in node.subtests:
            why += [f"{case.name or '?'}: {e}" for e in getattr(case, "errors", [])]
            if case.name:    # kunit_parser's stand-in for a missing case has none
                observed.setdefault((name, case.name), []).append(
                    STATUS.get(case.status.name, case.status.name))
        if why:
            problems.setdefault(name, []).extend(why)
    if not test:
        for err in getattr(root, "errors", []):
            problems.setdefault("kunit", []).append(err)
    return True


def read_expectations(path):
    want = OrderedDict()
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            fields = line.split("#", 1)[0].split()
            if not fields:
                continue
            if len(fields) != 3 or fields[2] not in ("ok", "skip"):
                sys.exit(f"judge: {path}:{n}: want 'TEST CASE ok|skip', got '{line.strip()}'")
            want[(fields[0], fields[1])] = fields[2]
    return want


def policy_message(lines, i, used):
    """The line number of the report line that is the message of the
    policy's WARNING at line i, or None: the first "ioremap_ram: " line
    after it, within 60 lines, must be an event-1 report not already taken
    by another WARNING.  On SMP another CPU's lines interleave with the
    WARNING's: its report lines of later events (which carry no WARNING)
    are passed over, anything else of ioremap_ram's is not."""
    for j in range(i + 1, min(i + 61, len(lines))):
        text = clean(lines[j])
        if not text.startswith("ioremap_ram: "):
            continue
        if POLICY_REPORT.match(text) and j not in used:
            return j
        if POLICY_LATER.match(text) or (POLICY_REPORT.match(text) and j in used):
            continue
        return None
    return None


def splats(lines):
    """The console lines that report a problem, as (line number, text),
    less the policy's own WARNINGs, each paired with its report line."""
    found = []
    used = set()
    for i, line in enumerate(lines):
        if not SPLAT.search(line):
            continue
        if POLICY_WARN.search(line):
            j = policy_message(lines, i, used)
            if j is not None:
                used.add(j)
                continue
        found.append((i + 1, line.strip()))
    return found


def judge(console, expect, policy, kp):
    v = Verdict()
    with open(console, encoding="utf-8", errors="replace") as f:
        raw = [line.rstrip("\n").replace("\r", "") for line in f]
    lines = [clean(line) for line in raw]
    want = read_expectations(expect)

    # boot: the guest reached the last marker.
    dump, dumped = section(lines, "kernel log")
    suite, suite_ended = section(lines, "suite")
    if dumped:
        v.add("PASS", "boot", "the guest ran the suite and dumped its kernel log")
    else:
        panic = next((x for x in lines if PANIC.search(x)), None)
        last = next((x for x in reversed(lines) if x.strip()), "nothing")
        where = ("the suite never began" if suite is None else
                 "the suite never ended" if not suite_ended else "the kernel log dump never ended")
        v.add("FAIL", "boot", f"{where}: " + (f"first report: {panic}" if panic else
              f"hung or killed, the console ends with: {last[:120]}"))

    # policy
    got = next((x[len(MARK + "policy "):] for x in lines if x.startswith(MARK + "policy ")), None)
    if got == policy:
        v.add("PASS", "policy", f"kernel reports '{got}'")
    else:
        v.add("FAIL", "policy", f"kernel reports '{got or 'nothing'}', row expects '{policy}'")

    # suite: the runner's exit and each kselftest's own end.
    observed, problems = OrderedDict(), OrderedDict()
    rc = next((x.split("rc=", 1)[1].strip() for x in lines
               if x.startswith(MARK + "suite end rc=")), None)
    ktests = {t for t, _ in want if not t.startswith("kunit:")}
    if suite is not None:
        plan, tests = kselftests(suite)
        if plan is None and ktests:
            problems["(runner)"] = ["no top-level TAP plan from run_kselftest.sh"]
        elif plan is not None and plan != len(tests):
            problems["(runner)"] = [f"plan 1..{plan}, {len(tests)} kselftest(s) started"]
        for test, ktap, result in tests:
            why = []
            if result is None:
                why.append("no top-level result (killed, or the guest stopped)")
            elif result == "fail":
                why.append("top-level not ok")
            if not any(re.match(r"^K?TAP version \d+$", x) for x in ktap):
                ktap = ["TAP version 13"] + ktap
            sub = OrderedDict()
            walk(kp, ktap, test, sub, problems)
            for (_, case), st in sub.items():
                observed[(test, case)] = st
            # A case that reported more than once counts with every report.
            for case, statuses in raw_results(ktap).items():
                if len(statuses) > 1:
                    observed[(test, case)] = statuses
                    why.append(f"{case} reported {len(statuses)} times")
            if why:
                problems.setdefault(test, []).extend(why)
    elif ktests:
        problems["(runner)"] = ["the suite never began"]
    if rc is None:
        problems.setdefault("(runner)", []).append("no 'suite end' marker")
    elif rc != "0":
        problems.setdefault("(runner)", []).append(f"run_kselftest.sh exited rc={rc}")
    # KUnit, in the kernel log dump (or, without one, the console).
    kunit = [t for t, _ in want if t.startswith("kunit:")]
    if kunit:
        if dump is None:
            problems["kunit"] = ["no kernel log dumped to read the KUnit results from"]
        elif not walk(kp, dump, None, observed, problems):
            problems["kunit"] = ["no KTAP in the kernel log"]
    if problems:
        v.add("FAIL", "suite", "; ".join(f"{t}: {', '.join(w)}" for t, w in problems.items()))
    else:
        v.add("PASS", "suite", f"runner rc={rc}, every test with a plan and its own result")

    # Each case as expected.
    for (test, case), w in want.items():
        name = f"{test}/{case}"
        got = observed.get((test, case))
        if not got:
            v.add("FAIL", name, "did not run")
        elif len(got) > 1:
            v.add("FAIL", name, f"reported {len(got)} times: {', then '.join(got)}")
        elif got[0] == w == "ok":
            v.add("PASS", name)
        elif got[0] == w == "skip":
            v.add("SKIP", name, skip_reason(suite or [], dump or [], test, case))
        elif got[0] == "skip":
            v.add("FAIL", name, f"skipped ({skip_reason(suite or [], dump or [], test, case)}) "
                  "but expected to run on this row")
        elif got[0] == "ok":
            v.add("FAIL", name, f"ran, but {os.path.basename(expect)} expects a skip: update it")
        else:
            v.add("FAIL", name, got[0])
    for (test, case), got in observed.items():
        if (test, case) not in want:
            v.add("FAIL", f"{test}/{case}",
                  f"ran ({', '.join(got)}) but is not listed in {os.path.basename(expect)}")

    # kernel log: complete, and nothing in the whole console.
    bad = splats(raw)
    first = next((x for x in (dump or []) if x.strip()), None)
    if dump is None:
        v.add("FAIL", "kernel-log", "no kernel log dumped")
    elif not first or not BANNER.search(first):
        v.add("FAIL", "kernel-log", "incomplete: the dump does not start at the boot banner "
              f"(the ring buffer wrapped?), it starts with: {(first or 'nothing')[:100]}")
    elif bad:
        v.add("FAIL", "kernel-log", f"{len(bad)} unexpected report line(s), first: "
              f"console line {bad[0][0]}: {bad[0][1][:160]}")
    else:
        v.add("PASS", "kernel-log", "complete from the boot banner; no oops, BUG, panic "
              "or WARNING but the policy's own reports")
    return v


def skip_reason(suite, dump, test, case):
    """The reason a case gave for its skip, if its result line has one."""
    for line in (suite if not test.startswith("kunit:") else dump):
        m = re.match(r"^(?:#\s*)*ok \d+ (?:- )?" + re.escape(case) + r" #\s*skip\s*(.*)$", line.strip(), re.I)
        if m and m.group(1):
            return m.group(1)
    return "skipped, as expected"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--console", required=True, help="the guest's console log")
    ap.add_argument("--expect", required=True, help="kselftest/expect/NAME")
    ap.add_argument("--policy", required=True, help="the policy the kernel must report")
    ap.add_argument("--kunit-dir", required=True, help="tools/testing/kunit of a kernel tree")
    ap.add_argument("--tsv", help="write the checks here too")
    ap.add_argument("--parser-log", help="write kunit_parser's own output here")
    args = ap.parse_args()
    for path in (args.console, args.expect):
        if not os.path.isfile(path):
            print(f"judge: {path}: no such file", file=sys.stderr)
            return 2
    kp = load_parser(args.kunit_dir)
    try:
        v = judge(args.console, args.expect, args.policy, kp)
    except Exception as err:    # pylint: disable=broad-except
        # No verdict is a failed run, never a crashed judge's exit 1.
        print(f"judge: {type(err).__name__}: {err}", file=sys.stderr)
        return 2
    text = "".join(f"{s}\t{n}\t{w}\n" for s, n, w in v.checks)
    sys.stdout.write(text)
    if args.tsv:
        with open(args.tsv, "w", encoding="utf-8") as f:
            f.write(text)
    if args.parser_log:
        import kunit_printer  # pylint: disable=import-outside-toplevel
        with open(args.parser_log, "w", encoding="utf-8") as f:
            f.write(kunit_printer.stdout._output.getvalue())  # pylint: disable=protected-access
    return 1 if v.failed() else 0


if __name__ == "__main__":
    sys.exit(main())
