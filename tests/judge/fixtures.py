#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The judge (scripts/stages/judge.py) on its fixtures, each against the whole
table it must answer.

A fixture is tests/judge/NAME.want: the table of checks the judge must
print for the console log NAME.log, in order, one "STATUS<TAB>check<TAB>
reason" a line, where the reason, if given, must be part of the judge's
(empty: any; parts joined by " ... " must each be part of it, in any
order).  A line "..." stands for any checks, as few as need be, up to the
next line that matches.  Lines before the table may say how the judge is
called:

  policy NAME      the policy the row expects (default: reject)
  expect FILE      the expectations, in tests/judge/ (default: expect)
  console FILE     the console log, in tests/judge/ (default: NAME.log)
  exit 2 TEXT      the judge cannot judge: it exits 2, prints no check,
                   and TEXT is part of what it says on stderr

The judge must exit 1 where the table has a FAIL, else 0.  Prints one
result a fixture, "PASS|FAIL<TAB>fixture/NAME<TAB>why"; exits 1 if one
failed.  --update NAME writes NAME.want from the judge's answer (to review
with git diff, never to accept unread).

Usage: fixtures.py --kunit-dir DIR [--update NAME]
       fixtures.py --kunit-dir DIR --want FILE --console LOG
         (one fixture on a log made elsewhere: scripts/gates/judge-live.sh)
"""

import argparse
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
JUDGE = os.path.join(HERE, "..", "..", "scripts", "stages", "judge.py")


# How the judge is called on a fixture, unless its lines before the table
# say otherwise.
DEFAULT_CALL = {"policy": "reject", "expect": "expect", "console": None, "exit": None}


def read_want(path):
    """The fixture's call (policy, expect, console, exit) and its table."""
    call = dict(DEFAULT_CALL)
    table = []
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line.strip() or line.startswith("#"):
                continue
            if line == "...":
                table.append(("...", "", ""))
                continue
            fields = line.split("\t")
            if fields[0] in ("PASS", "FAIL", "SKIP"):
                if len(fields) not in (2, 3):
                    raise ValueError(f"{path}:{n}: want STATUS<TAB>check[<TAB>reason]")
                table.append((fields[0], fields[1], fields[2] if len(fields) == 3 else ""))
                continue
            key, _, value = line.partition(" ")
            if key not in call or not value:
                raise ValueError(f"{path}:{n}: unknown line '{line}'")
            call[key] = value
    return call, table


def run(name, call, kunit_dir):
    """The judge on the fixture: exit code, its checks, its stderr."""
    console = os.path.join(HERE, call["console"] or name + ".log")
    proc = subprocess.run(
        [sys.executable, JUDGE, "--console", console, "--expect",
         os.path.join(HERE, call["expect"]), "--policy", call["policy"],
         "--kunit-dir", kunit_dir],
        capture_output=True, text=True, check=False)
    checks = [tuple((line.split("\t") + ["", ""])[:3])
              for line in proc.stdout.splitlines() if line]
    return proc.returncode, checks, proc.stderr.strip()


def compare(call, table, rc, checks, err):
    """Why the judge's answer is not the table's, or None."""
    if call["exit"]:
        code, _, text = call["exit"].partition(" ")
        if rc != int(code) or checks or text not in err:
            return f"must exit {code} with no check, saying '{text}'; " \
                   f"exited {rc} with {len(checks)} check(s), saying '{err[:200]}'"
        return None
    # The exit code agrees with the judge's checks, and with the table's
    # (a table with "..." and no FAIL leaves it to the checks).
    want_rc = 1 if any(s == "FAIL" for s, _, _ in table) else \
        1 if any(s == "..." for s, _, _ in table) and any(s == "FAIL" for s, _, _ in checks) \
        else 0
    if rc != want_rc or rc != (1 if any(s == "FAIL" for s, _, _ in checks) else 0):
        return f"exit {rc}, must be {want_rc}" + (f" (stderr: {err[:200]})" if err else "")
    i = 0
    for n, want in enumerate(table):
        if want[0] == "...":
            continue
        skip = n > 0 and table[n - 1][0] == "..."
        while i < len(checks) and skip and not matches(want, checks[i]):
            i += 1
        if i >= len(checks):
            same = [c for c in checks if c[1] == want[1]]
            return f"check {i + 1}: missing {want[0]} {want[1]}" + (
                f" ({want[2][:150]}); the judge has {same[0][0]} {want[1]} ({same[0][2][:200]})"
                if same else "")
        got = checks[i]
        if not matches(want, got):
            return (f"check {i + 1}: {got[0]} {got[1]} ({got[2][:150]}), "
                    f"must be {want[0]} {want[1]}" + (f" ({want[2][:150]})" if want[2] else ""))
        i += 1
    if i < len(checks) and not (table and table[-1][0] == "..."):
        got = checks[i]
        return f"check {i + 1}: extra {got[0]} {got[1]} ({got[2][:150]})"
    return None


def matches(want, got):
    """A line of the table and a check of the judge's agree."""
    return (want[0], want[1]) == (got[0], got[1]) and \
        all(part in got[2] for part in want[2].split(" ... "))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("--kunit-dir", required=True)
    ap.add_argument("--update", metavar="NAME")
    ap.add_argument("--want", help="one fixture's table, for --console")
    ap.add_argument("--console", help="the log to judge against --want")
    args = ap.parse_args()
    if args.want or args.console:
        if not (args.want and args.console):
            ap.error("--want and --console go together")
        call, table = read_want(args.want)
        call["console"] = os.path.abspath(args.console)
        name = os.path.basename(args.want)[:-5]
        why = compare(call, table, *run(name, call, args.kunit_dir))
        print(f"{'FAIL' if why else 'PASS'}\tlive/{name}\t{why or ''}")
        return 1 if why else 0
    if args.update:
        path = os.path.join(HERE, args.update + ".want")
        call, _ = read_want(path) if os.path.exists(path) else (dict(DEFAULT_CALL), [])
        _, checks, _ = run(args.update, call, args.kunit_dir)
        head = []
        if os.path.exists(path):
            with open(path, encoding="utf-8") as f:
                head = [x for x in f if not x.startswith(("PASS\t", "FAIL\t", "SKIP\t"))]
        with open(path, "w", encoding="utf-8") as f:
            f.writelines(head)
            f.writelines("\t".join(c) + "\n" for c in checks)
        return 0
    names = sorted(f[:-5] for f in os.listdir(HERE) if f.endswith(".want"))
    failed = 0
    for name in names:
        try:
            call, table = read_want(os.path.join(HERE, name + ".want"))
            why = compare(call, table, *run(name, call, args.kunit_dir))
        except (OSError, ValueError) as err:
            why = str(err)
        if why:
            failed += 1
            print(f"FAIL\tfixture/{name}\t{why}")
        else:
            fails = sorted({c for s, c, _ in table if s == "FAIL"})
            print(f"PASS\tfixture/{name}\t" + (f"exit {call['exit']}" if call["exit"] else
                                               f"fails: {' '.join(fails)}" if fails else ""))
    if not names:
        print(f"FAIL\tfixtures\tno fixture (*.want) in {HERE}")
        return 1
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
