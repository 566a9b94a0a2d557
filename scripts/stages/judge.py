#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The judge: the verdict of one guest run of the suite.

Reads the console of a guest that ran kselftest/suite (a QEMU serial log
from scripts/stages/boot.sh, or the target log of a LAVA job from
scripts/lava/run.sh), the row's expectations (kselftest/expect/NAME: one
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
              whole console is a report of the kernel's (SPLATS: oops, BUG,
              panic, WARNING, SLUB, OOM, lockups, hung tasks, KASAN, UBSAN,
              KCSAN, KFENCE, lockdep, RCU, debugobjects, kmemleak, list and
              refcount corruption), except the policy's own WARNING, which
              is allowed only where its report line follows it; and every
              report of the policy names a caller the row expects (a test
              module of the series, "[test_arm_ioremap_*]", or a caller
              the expectations allow);
  taint       the kernel's own summary of its health, /proc/sys/kernel/
              tainted, printed with the last marker, has no flag but those
              the expectations allow ("allow taint W N"): a WARNING or BUG
              that no pattern knows, or that never reached the console,
              still fails the row.

A row whose expectations say "expect panic TEXT" must end in that panic
(the warn policy under panic_on_warn=1): its checks are boot (the suite
began), policy, and panic: a report line of the policy's, then "Kernel
panic - not syncing: TEXT", and no other report of the kernel's before
it; each case the expectations list (which selects the kselftests run) is
a SKIP: the panic comes first.

Each kselftest's and each KUnit KTAP document is accounted for whole: a
case beyond the plan, a second document for the same KUnit suite, a result
line that the parser did not consume, each fails "suite", naming the line.

Console lines are read as a kernel developer reads them: without carriage
returns, ANSI colour escapes, the printk time stamp and the caller id of
CONFIG_PRINTK_CALLER ("[    1.000000][   T87] ").

The KTAP is parsed by the kernel's own parser, kunit_parser.py
(tools/testing/kunit of a kernel tree, --kunit-dir): the KUnit suites in
the kernel log as they are, the kselftests after their "# "-prefixed
nesting is turned into KTAP's indentation.

Exits 0 if every check passed, 1 if one failed, 2 if it could not judge
(a missing, empty or binary console log, a malformed expectation file):
then it prints why on stderr and no check at all, and empties --tsv.
"""

import argparse
import io
import os
import re
import sys
from collections import Counter, OrderedDict

MARK = "=== ioremap-ram: "
# The printk time stamp, and the caller id CONFIG_PRINTK_CALLER adds to it
# ("[    1.000000][   T87] ", "[    1.000000][    C0] ").
TIMESTAMP = re.compile(r"^\[\s*\d+\.\d+\](\[\s*[TC]\d+\])? ?")
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
RESULT = re.compile(r"^(ok|not ok) (\d+) (?:- )?([^#]*?)\s*(#.*)?$")
# The kernel's own reports: (what, pattern, the kernel file that prints it).
# A console line that matches one fails "kernel-log", but for the policy's
# own WARNING with its report line.
SPLATS = [
    # The specific first: a line is of the first kind it matches.
    ("SLUB", r"^=*\s*BUG \S+ \(|^INFO: .*(corrupt|overwritten|[Pp]oison)", "mm/slub.c"),
    ("KASAN", r"KASAN:", "mm/kasan/report.c"),
    ("KFENCE", r"BUG: KFENCE: ", "mm/kfence/report.c"),
    ("KCSAN", r"BUG: KCSAN: ", "kernel/kcsan/report.c"),
    ("UBSAN", r"UBSAN:", "lib/ubsan.c"),
    ("soft lockup", r"BUG: soft lockup", "kernel/watchdog.c"),
    ("hard lockup", r"Watchdog detected hard LOCKUP", "kernel/watchdog.c"),
    ("hung task", r"INFO: task .* blocked for more than", "kernel/hung_task.c"),
    ("RCU stall", r"rcu_sched self-detected stall|INFO: rcu_.* detected stall",
     "kernel/rcu/tree_stall.h"),
    ("lockdep", r"possible circular locking|inconsistent lock state|"
     r"possible recursive locking|suspicious RCU usage", "kernel/locking/lockdep.c"),
    ("debugobjects", r"ODEBUG:", "lib/debugobjects.c"),
    ("kmemleak", r"kmemleak: \d+ new suspected memory leak|unreferenced object 0x",
     "mm/kmemleak.c"),
    ("refcount", r"refcount_t: ", "lib/refcount.c"),
    ("list corruption", r"list_(add|del) corruption", "lib/list_debug.c"),
    ("OOM", r"invoked oom-killer: |Out of memory", "mm/oom_kill.c"),
    ("spurious IRQ", r"irq \d+: nobody cared", "kernel/irq/spurious.c"),
    # Then the general ones.
    ("BUG()", r"kernel BUG at ", "lib/bug.c"),
    ("oops", r"Internal error: |Oops", "arch/arm/kernel/traps.c"),
    ("panic", r"Kernel panic", "kernel/panic.c"),
    ("fault", r"Unable to handle kernel", "arch/arm/mm/fault.c"),
    ("BUG report", r"BUG: ", "kernel/sched/core.c, mm/page_alloc.c, "
     "kernel/locking/spinlock_debug.c, ..."),
    ("WARNING", r"WARNING: ", "kernel/panic.c (__warn)"),
]
SPLAT = re.compile("|".join(f"(?:{p})" for _, p, _ in SPLATS))
SPLAT_KINDS = [(name, re.compile(p)) for name, p, _ in SPLATS]
# /proc/sys/kernel/tainted, bit by bit (kernel/panic.c, taint_flags[]).
TAINT_FLAGS = "PFSRMBUDAWCIOELKXTNJ"
# The policy's own backtrace: WARN() in ioremap_ram_event() (inlined or
# not into arm_ioremap_ram_allowed() and arm_ioremap_pool_conflict_allowed()),
# whose message is the policy's report line (event 1 of a call site).
POLICY_WARN = re.compile(
    r"WARNING: CPU: \d+ PID: \d+ at arch/arm/mm/ioremap-ram\.c:\d+ "
    r"(ioremap_ram_event|arm_ioremap_ram_allowed|arm_ioremap_pool_conflict_allowed)\+")
# What a report says the range is: system RAM, or remap pool memory that
# a live mapping of another kind of memory type holds.
POLICY_WHAT = r"is (system RAM|remap pool memory mapped [a-z-]+)"
POLICY_LINE = (r"^ioremap_ram: \[mem 0x[0-9a-f]+-0x[0-9a-f]+\] " + POLICY_WHAT +
               r": \S+ mapping by (?P<caller>\S+)(?: \[(?P<module>\S+)\])? "
               r"(rejected|mapping anyway) \(event ")
POLICY_REPORT = re.compile(POLICY_LINE + r"1 of this call site\); ")
# A report line of a later event of a call site: no WARNING comes with it.
POLICY_LATER = re.compile(POLICY_LINE + r"(?!1 )\d+ of this call site\)")
# The test modules of the series, whose policy events are the tests'.
TEST_MODULE = re.compile(r"^test_arm_ioremap_\w+$")
BANNER = re.compile(r"^Booting Linux on physical CPU|^Linux version ")
PANIC = re.compile(r"Kernel panic|Internal error:|BUG:|Unable to handle kernel|Oops")
KTAP_START = re.compile(r"^K?TAP version \d+$")


class JudgeError(Exception):
    """Input the judge cannot judge: exit 2, no verdict."""


class Verdict:
    """The checks of one run, in order, each PASS, FAIL or SKIP."""

    def __init__(self):
        self.checks = []

    def add(self, status, name, why=""):
        self.checks.append((status, name, " ".join(str(why).split())))

    def failed(self):
        return any(s == "FAIL" for s, _, _ in self.checks)


def clean(line):
    """A console line as a kernel developer reads it: without its carriage
    returns, ANSI colour escapes, printk time stamp and caller id."""
    return TIMESTAMP.sub("", ANSI.sub("", line.rstrip("\r\n").replace("\r", "")))


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
        raise JudgeError(f"no kunit_parser.py in {kunit_dir}: {err}") from err
    # The parser prints its progress: keep it, it is the judge's log.
    kunit_printer.stdout._output = io.StringIO()  # pylint: disable=protected-access
    kunit_printer.stdout._use_color = False  # pylint: disable=protected-access

    def add_error(test, message):
        test.counts.errors += 1
        test.__dict__.setdefault("errors", []).append(message)

    kunit_parser.Test.add_error = add_error
    return kunit_parser


def skip_upper(line):
    """The TAP14 SKIP directive is case-insensitive and TAP readers take it
    without the space after "#"; kunit_parser wants " # SKIP"."""
    if not RESULT.match(line.strip()):
        return line
    return re.sub(r"\s*#\s*[sS][kK][iI][pP]\b", " # SKIP", line, count=1)


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


def named_nodes(node):
    """The tests under NODE that consumed a result line of their own
    (kunit_parser's stand-in for a missing case has no name), depth first."""
    for sub in node.subtests:
        if sub.name:
            yield sub
        yield from named_nodes(sub)


def unconsumed(ktap_lines, root):
    """The result lines of a KTAP document that kunit_parser did not turn
    into a test: a case beyond the plan, a result after the document's end.
    Counted by name: each name's result lines past the parser's count."""
    parsed = Counter(n.name for n in named_nodes(root))
    left = []
    for line in ktap_lines:
        m = RESULT.match(line.strip())
        if not m:
            continue
        name = m.group(3).strip()
        if parsed[name] > 0:
            parsed[name] -= 1
        else:
            left.append(line.strip())
    return left


def walk(kp, ktap_lines, test, observed, problems):
    """Parse one KTAP document with kunit_parser.  With TEST, the document
    is one kselftest's and its results are TEST's cases; without (KUnit in
    the kernel log), each top-level result is a suite, "kunit:SUITE", and
    its subtests are the cases.  observed[(TEST, CASE)] gets each case's
    status; problems[TEST] what did not end well (crashed, failed, no plan,
    the parser's own errors, result lines it did not consume).  Returns the
    names of the tests (TEST, or the suites) the document had, or None if
    there was no KTAP at all."""
    try:
        root = kp.parse_run_tests(ktap_lines)
    except ValueError as err:    # the parser read past the end
        problems.setdefault(test or "kunit", []).append(f"unparsable KTAP: {err}")
        return [test or "kunit"]
    if root.status.name == "FAILURE_TO_PARSE_TESTS":
        return None
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
    for line in unconsumed(ktap_lines, root):
        problems.setdefault(test or "kunit", []).append(
            f"result line not counted (beyond the plan or after the document): '{line}'")
    return [name for name, _ in groups]


def ktap_documents(lines):
    """The KTAP documents of the kernel log: each begins at a version line
    of its own ("KTAP version 1" unindented; KUnit prints one each time it
    runs suites, at boot and when a module with suites is loaded) and runs
    to the next.  Returns (line index of the version line, lines) each."""
    docs = []
    for i, line in enumerate(lines):
        if KTAP_START.match(line):
            docs.append((i, []))
        if docs:
            docs[-1][1].append(line)
    return docs


def read_expectations(path):
    """The row's expectations: "TEST CASE ok|skip" a case, and what the
    row allows: "allow taint FLAGS" (taint letters, e.g. "W N") and "allow
    caller SYMBOL" (a function whose ioremap() of RAM the policy reports
    on this row, besides the series' test modules).  Returns the cases in
    order and {"taint": set, "caller": set}."""
    want, allow = OrderedDict(), {"taint": set(), "caller": set(), "panic": None}
    try:
        with open(path, encoding="utf-8") as f:
            text = f.readlines()
    except (OSError, UnicodeDecodeError) as err:
        raise JudgeError(f"{path}: cannot read the expectations: {err}") from err
    for n, line in enumerate(text, 1):
        fields = line.split("#", 1)[0].split()
        if not fields:
            continue
        if fields[0] == "allow" and len(fields) >= 3 and fields[1] == "taint":
            flags = "".join(fields[2:])
            bad = [c for c in flags if c not in TAINT_FLAGS]
            if bad:
                raise JudgeError(f"{path}:{n}: unknown taint flag(s) {''.join(bad)!r} "
                                 f"(flags: {TAINT_FLAGS}), in '{line.strip()}'")
            allow["taint"].update(flags)
            continue
        if fields[0] == "allow" and len(fields) == 3 and fields[1] == "caller":
            allow["caller"].add(fields[2])
            continue
        if fields[0] == "expect" and len(fields) >= 3 and fields[1] == "panic":
            allow["panic"] = " ".join(line.split("#", 1)[0].split()[2:])
            continue
        if len(fields) != 3 or fields[2] not in ("ok", "skip") or fields[0] in ("allow", "expect"):
            raise JudgeError(f"{path}:{n}: want 'TEST CASE ok|skip', 'allow taint FLAGS', "
                             f"'allow caller SYMBOL' or 'expect panic TEXT', got '{line.strip()}'")
        want[(fields[0], fields[1])] = fields[2]
    return want, allow


def taint_letters(value):
    """The letters of a /proc/sys/kernel/tainted value, as the kernel
    prints them ("W", "N"); an unknown bit as "bitN"."""
    return [TAINT_FLAGS[b] if b < len(TAINT_FLAGS) else f"bit{b}"
            for b in range(value.bit_length()) if value >> b & 1]


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


def splat_kind(line):
    """The kind of report (SPLATS) a console line is, or None."""
    return next((name for name, rx in SPLAT_KINDS if rx.search(line)), None)


def splats(lines):
    """The console lines (clean()ed) that report a problem, as (line
    number, text), less the policy's own WARNINGs, each paired with its
    report line."""
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


def stray_callers(lines, allowed):
    """The policy's report lines (clean()ed) whose caller is neither in a
    test module of the series nor a function the row allows, as (line
    number, caller): a driver of the kernel mapping RAM is a regression."""
    found = []
    for i, line in enumerate(lines):
        m = POLICY_REPORT.match(line) or POLICY_LATER.match(line)
        if not m:
            continue
        module, caller = m.group("module"), m.group("caller")
        if module and TEST_MODULE.match(module):
            continue
        if caller.split("+", 1)[0] in allowed:
            continue
        found.append((i + 1, caller + (f" [{module}]" if module else "")))
    return found


def read_console(console):
    """The console's lines, raw.  A missing, empty or binary file is no
    console log: JudgeError."""
    try:
        with open(console, "rb") as f:
            data = f.read()
    except OSError as err:
        raise JudgeError(f"{console}: cannot read the console log: {err.strerror}") from err
    if not data.strip():
        raise JudgeError(f"{console}: the console log is empty (the guest printed nothing)")
    nul = data.find(b"\0")
    if nul >= 0:
        raise JudgeError(f"{console}: the console log is binary (a NUL byte at offset "
                         f"{nul}): not a console log")
    text = data.decode("utf-8", errors="replace")
    return [line.replace("\r", "") for line in text.split("\n")]


def check_policy(v, lines, policy):
    """policy: the policy the kernel reports (the suite's marker) is the row's."""
    got = next((x[len(MARK + "policy "):] for x in lines if x.startswith(MARK + "policy ")), None)
    if got == policy:
        v.add("PASS", "policy", f"kernel reports '{got}'")
    else:
        v.add("FAIL", "policy", f"kernel reports '{got or 'nothing'}', row expects '{policy}'")


def judge_panic(lines, want, text, policy):
    """A row that must end in the panic "Kernel panic - not syncing: TEXT",
    after a report of the policy's (the warn policy under panic_on_warn)."""
    v = Verdict()
    suite, _ = section(lines, "suite")
    if suite is not None:
        v.add("PASS", "boot", "the guest began the suite")
    else:
        v.add("FAIL", "boot", "the suite never began")
    check_policy(v, lines, policy)
    want_panic = "Kernel panic - not syncing: " + text
    at = next((i for i, x in enumerate(lines) if want_panic in x), None)
    report = next((i for i, x in enumerate(lines[:at] if at is not None else lines)
                   if POLICY_REPORT.search(x)), None)
    bad = splats(lines[:at]) if at is not None else []
    if at is None:
        other = next((x for x in lines if PANIC.search(x)), None)
        v.add("FAIL", "panic", f"no '{want_panic}'" +
              (f"; first report: {other[:120]}" if other else ""))
    elif report is None:
        v.add("FAIL", "panic", f"'{want_panic}' at console line {at + 1}, "
              "but no report of the policy before it")
    elif bad:
        v.add("FAIL", "panic", f"before the panic, {len(bad)} other report line(s), first: "
              f"console line {bad[0][0]}: {bad[0][1][:120]}")
    else:
        v.add("PASS", "panic", f"the policy's report at console line {report + 1}, then "
              f"'{want_panic}' at line {at + 1}")
    for test, case in want:
        v.add("SKIP", f"{test}/{case}", "not reached: the row ends in the panic it expects")
    return v


def judge(console, expect, policy, kp):
    want, allow = read_expectations(expect)
    lines = [clean(line) for line in read_console(console)]
    if allow["panic"]:
        return judge_panic(lines, want, allow["panic"], policy)
    v = Verdict()

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
    check_policy(v, lines, policy)

    # suite: the runner's exit and each kselftest's own end.
    observed, problems = OrderedDict(), OrderedDict()
    rc = next((x.split("rc=", 1)[1].strip() for x in lines
               if x.startswith(MARK + "suite end rc=")), None)
    ktests = {t for t, _ in want if not t.startswith("kunit:")}
    if suite is not None:
        plan, tests = kselftests(suite)
        for test, n in Counter(t for t, _, _ in tests).items():
            if n > 1:
                problems.setdefault(test, []).append(f"ran {n} times")
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
        else:
            docs = ktap_documents(dump)
            if not docs:
                problems["kunit"] = ["no KTAP in the kernel log"]
            seen = {}
            for at, doc in docs:
                for name in walk(kp, doc, None, observed, problems) or []:
                    if name in seen:
                        problems.setdefault(name, []).append(
                            f"a second KTAP document for the suite, at line {at + 1} of the "
                            f"kernel log (the first at line {seen[name] + 1})")
                    else:
                        seen[name] = at
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
    bad = splats(lines)
    stray = stray_callers(lines, allow["caller"])
    first = next((x for x in (dump or []) if x.strip()), None)
    if dump is None:
        v.add("FAIL", "kernel-log", "no kernel log dumped")
    elif not first or not BANNER.search(first):
        v.add("FAIL", "kernel-log", "incomplete: the dump does not start at the boot banner "
              f"(the ring buffer wrapped?), it starts with: {(first or 'nothing')[:100]}")
    elif bad or stray:
        why = []
        if bad:
            kinds = list(OrderedDict.fromkeys(splat_kind(t) for _, t in bad))
            why.append(f"{len(bad)} unexpected report line(s) ({', '.join(kinds)}), first: "
                       f"console line {bad[0][0]}: {bad[0][1][:160]}")
        if stray:
            why.append(f"ioremap() of RAM by a caller this row does not expect: "
                       f"{', '.join(sorted({c for _, c in stray}))} "
                       f"(first at console line {stray[0][0]})")
        v.add("FAIL", "kernel-log", "; ".join(why))
    else:
        v.add("PASS", "kernel-log", "complete from the boot banner; no oops, BUG, panic "
              "or WARNING but the policy's own reports, each by an expected caller")

    # taint: the kernel's own summary, read at the last marker.
    m = re.match(re.escape(MARK) + r"kernel log end tainted=(\d+)$",
                 next((x for x in lines if x.startswith(MARK + "kernel log end")), ""))
    if not m:
        v.add("FAIL", "taint", "no 'kernel log end tainted=N' marker: the guest never read "
              "/proc/sys/kernel/tainted")
    else:
        flags = taint_letters(int(m.group(1)))
        extra = [f for f in flags if f not in allow["taint"]]
        allowed = " ".join(sorted(allow["taint"])) or "none"
        if extra:
            v.add("FAIL", "taint", f"tainted={m.group(1)} ({' '.join(flags)}): "
                  f"{' '.join(extra)} not allowed on this row (allowed: {allowed})")
        else:
            v.add("PASS", "taint", f"tainted={m.group(1)} ({' '.join(flags) or 'none'}; "
                  f"allowed: {allowed})")
    return v


def skip_reason(suite, dump, test, case):
    """The reason a case gave for its skip, if its result line has one."""
    for line in (suite if not test.startswith("kunit:") else dump):
        m = re.match(r"^(?:#\s*)*ok \d+ (?:- )?" + re.escape(case) + r" #\s*skip\s*(.*)$", line.strip(), re.I)
        if m and m.group(1):
            return m.group(1)
    return "skipped, as expected"


def patterns_table():
    """SPLATS as the Markdown table of Documentation/testing.md."""
    return "\n".join(["| report | pattern (Python re, on a console line) | printed by |",
                      "|---|---|---|"] +
                     [f"| {name} | `{pattern.replace('|', '&#124;')}` | {where} |"
                      for name, pattern, where in SPLATS])


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--console", help="the guest's console log")
    ap.add_argument("--expect", help="kselftest/expect/NAME")
    ap.add_argument("--policy", help="the policy the kernel must report")
    ap.add_argument("--kunit-dir", help="tools/testing/kunit of a kernel tree")
    ap.add_argument("--tsv", help="write the checks here too")
    ap.add_argument("--parser-log", help="write kunit_parser's own output here")
    ap.add_argument("--patterns", action="store_true",
                    help="print the kernel's reports the judge knows, as a Markdown table")
    args = ap.parse_args()
    if args.patterns:
        print(patterns_table())
        return 0
    missing = [o for o in ("console", "expect", "policy", "kunit_dir") if not getattr(args, o)]
    if missing:
        ap.error("missing " + ", ".join("--" + o.replace("_", "-") for o in missing))
    if args.tsv:
        # No verdict of an earlier run survives this one, whatever happens.
        open(args.tsv, "w", encoding="utf-8").close()
    try:
        for path in (args.console, args.expect):
            if not os.path.isfile(path):
                raise JudgeError(f"{path}: no such file")
        kp = load_parser(args.kunit_dir)
        v = judge(args.console, args.expect, args.policy, kp)
    except JudgeError as err:
        print(f"judge: {err}", file=sys.stderr)
        return 2
    except Exception as err:    # pylint: disable=broad-except
        # No verdict is a failed run, never a crashed judge's exit 1.
        print(f"judge: cannot judge: {type(err).__name__}: {err}", file=sys.stderr)
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
