"""Pipelines under pipefail whose reader can close the pipe early: the
writer still writing gets SIGPIPE (or EPIPE), and the pipeline fails.
scripts/harness.py writes each output in one write() and ends quietly on
SIGPIPE; check.sh takes the first row of a base with `matrix rows --base
BASE --first`; no shell script of the harness that runs under pipefail
pipes into head, grep -q/-m/-l, read, cmp, sed ...q or awk ...exit."""
import collections
import os
import re
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, "..", ".."))
SCRIPTS = os.path.join(REPO, "scripts")
sys.dont_write_bytecode = True  # no scripts/__pycache__
sys.path.insert(0, SCRIPTS)
import harness  # noqa: E402

BASE = "6.12"
# The rows into head -n 1, unbuffered: with print()'s two writes about 4
# runs in 10 failed.
RUNS_HEAD = 100
# The selection check.sh makes, as many times: it must never fail.
RUNS_FIRST = 200

# One bash for all the runs (a Python start from unittest each costs
# more), JOBS workers at a time, the output of a run through a file (a
# command substitution is one more fork a run).  Each worker J writes
# "FAILED RIGHT" to DIR/J.count: its runs that exited non-zero, those that
# printed the wanted row alone; the harness's stderr passes through.
# python3 -S: the matrix needs no site packages, and a start without them
# is about a third shorter.
LOOP = r"""
set -uo pipefail
py=$1 base=$2 want=$3 runs=$4 mode=$5 dir=$6 jobs=$7
worker() {
	local failed=0 right=0 i lines
	for ((i = $1; i < runs; i += jobs)); do
		if [ "$mode" = head ]; then
			"$py" -S scripts/harness.py matrix --file configs/matrix.tsv rows --base "$base" | head -n 1 >"$dir/$1.out"
		else
			"$py" -S scripts/harness.py matrix --file configs/matrix.tsv rows --base "$base" --first >"$dir/$1.out"
		fi || failed=$((failed + 1))
		mapfile -t lines <"$dir/$1.out"
		[ "${lines[*]}" != "$want" ] || [ ${#lines[@]} -ne 1 ] || right=$((right + 1))
	done
	echo "$failed $right" >"$dir/$1.count"
}
for ((j = 0; j < jobs; j++)); do
	worker "$j" &
done
wait
"""

# Where the shell scripts are; build/ (kernel trees) and patches/ are not.
SCRIPT_DIRS = ("scripts", "tests", "bench", "kselftest", "configs", ".ci")

# A pipe: "|" or "|&", not "||" and not the ">|" redirection.
PIPE = re.compile(r"(?<![|>])\|&?(?!\|)")


def shell_scripts(top):
    """(path, text) of the shell scripts under TOP's SCRIPT_DIRS (a sh or
    bash shebang, or a "# shellcheck shell=" line: a sourced library), and
    the Makefile."""
    for d in SCRIPT_DIRS:
        for dirpath, dirs, files in os.walk(os.path.join(top, d)):
            dirs[:] = sorted(x for x in dirs if x != "__pycache__")
            for name in sorted(files):
                path = os.path.join(dirpath, name)
                try:
                    with open(path, encoding="utf-8") as f:
                        text = f.read(1 << 20)
                except (OSError, UnicodeDecodeError):
                    continue
                first = text.split("\n", 1)[0]
                if (re.match(r"#!\s*\S*/(env\s+)?(ba)?sh\b", first)
                        or re.search(r"^# shellcheck shell=", text, re.M)):
                    yield path, text
    makefile = os.path.join(top, "Makefile")
    if os.path.exists(makefile):
        with open(makefile, encoding="utf-8") as f:
            yield makefile, f.read()


def under_pipefail(path, text):
    """Whether TEXT's pipelines run under pipefail: it sets it, or it is a
    bash library (sourced by scripts that set it), or it is a Makefile
    whose shell flags have it."""
    if os.path.basename(path) == "Makefile":
        return "pipefail" in text
    return bool(re.search(r"^\s*set\s+(-[a-zA-Z]+\s+)*-[a-zA-Z]*o\s+pipefail\b", text, re.M)
                or re.search(r"^# shellcheck shell=bash\b", text, re.M))


def logical_lines(text):
    """(first line number, line) of TEXT without its comment lines, a line
    continued by a trailing backslash or pipe joined to the next."""
    out, cur, start = [], "", 0
    for n, line in enumerate(text.split("\n"), 1):
        s = line.strip()
        if s.startswith("#"):
            continue
        if not cur:
            start = n
        if s.endswith("\\"):
            cur += " " + s[:-1]
            continue
        cur += " " + s
        if PIPE.search(s[-2:]) and not s.endswith("||"):
            continue
        out.append((start, cur.strip()))
        cur = ""
    if cur:
        out.append((start, cur.strip()))
    return out


def early_reader(cmd):
    """What in CMD, the text after a pipe, may exit before it read all its
    input; None if nothing."""
    stage = cmd.split("|", 1)[0]
    words = stage.split()
    if not words:
        return None
    if words[0] in ("head", "read", "cmp"):
        return words[0]
    if words[0] in ("grep", "egrep", "fgrep"):
        for w in words[1:]:
            if not w.startswith("-"):
                break
            if re.match(r"-[A-Za-z]*[qlLm]|--(quiet|silent|max-count|files-with)", w):
                return "grep " + w
    if words[0] == "sed" and re.search(r"""(^|[;{'"\s0-9$])q(\s*[;}'"0-9]|\s|$)""", stage[3:]):
        return "sed ...q"
    if words[0] == "awk" and re.search(r"\bexit\b", stage.split("END", 1)[0]):
        return "awk ...exit"
    return None


def early_readers(top):
    """"PATH:LINE: | READER: TEXT" of each pipe into an early reader in
    the scripts under TOP that run under pipefail."""
    found = []
    for path, text in shell_scripts(top):
        if not under_pipefail(path, text):
            continue
        for n, line in logical_lines(text):
            for m in PIPE.finditer(line):
                what = early_reader(line[m.end():].lstrip())
                if what:
                    found.append("%s:%d: | %s: %s" % (os.path.relpath(path, top), n, what, line[:100]))
    return found


class Pipes(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        _, rows, _ = harness.read_table(os.path.join(REPO, "configs", "matrix.tsv"))
        cls.first = [r["name"] for r in rows if r["base"] == BASE][0]

    def loop(self, mode, runs, env):
        """RUNS runs for the matrix's first row of BASE, MODE "head" (the
        rows into head -n 1) or "first" (--first): (failed runs, runs that
        printed the row alone, {line of stderr: times})."""
        jobs = min(max(os.cpu_count() or 1, 2), 8)
        with tempfile.TemporaryDirectory() as d:
            p = subprocess.run(["bash", "-c", LOOP, "_", sys.executable, BASE, self.first, str(runs), mode,
                                d, str(jobs)],
                               cwd=REPO, env=env, capture_output=True, text=True, check=True)
            failed = right = 0
            for j in range(jobs):
                with open(os.path.join(d, "%d.count" % j), encoding="utf-8") as f:
                    f_, r_ = map(int, f.read().split())
                failed, right = failed + f_, right + r_
        return failed, right, collections.Counter(p.stderr.splitlines())

    def test_rows_into_head(self):
        """The rows into head -n 1 under pipefail: every run exits 0 and
        prints the first row, nothing on stderr.  Unbuffered, print()
        wrote the rows and their newline in two writes, the second often
        into the pipe head had closed: "harness.py matrix: [Errno 32]
        Broken pipe", exit 1."""
        env = dict(os.environ, PYTHONUNBUFFERED="1")
        self.assertEqual(self.loop("head", RUNS_HEAD, env), (0, RUNS_HEAD, {}))

    def test_first(self):
        """--first, no pipeline: every run exits 0 and prints the first
        row alone."""
        self.assertEqual(self.loop("first", RUNS_FIRST, dict(os.environ)), (0, RUNS_FIRST, {}))

    def test_first_output(self):
        """--first: the first row of the base, or of all, alone; an empty
        line if there is none, as without it."""
        with tempfile.TemporaryDirectory() as d:
            m = os.path.join(d, "m.tsv")
            with open(m, "w", encoding="utf-8") as f:
                f.write("name\tbase\na-1\t6.12\nb-1\t6.1\na-2\t6.12\n")
            run = [sys.executable, os.path.join(SCRIPTS, "harness.py"), "matrix", "--file", m, "rows"]
            for args, out in ((["--base", "6.12", "--first"], "a-1\n"), (["--first"], "a-1\n"),
                              (["--base", "6.1", "--first"], "b-1\n"), (["--base", "5.0", "--first"], "\n"),
                              (["--base", "6.12"], "a-1\na-2\n")):
                p = subprocess.run(run + args, capture_output=True, text=True, check=False)
                self.assertEqual((p.returncode, p.stdout, p.stderr), (0, out, ""), args)

    def test_sigpipe_quiet(self):
        """A reader that closed the pipe before the output was written:
        harness.py ends of SIGPIPE, as cat would, without a word on stderr."""
        r, w = os.pipe()
        os.close(r)
        try:
            p = subprocess.run([sys.executable, os.path.join(SCRIPTS, "harness.py"), "matrix",
                                "--file", os.path.join(REPO, "configs", "matrix.tsv"), "rows"],
                               stdout=w, stderr=subprocess.PIPE, text=True, check=False)
        finally:
            os.close(w)
        self.assertEqual((p.returncode, p.stderr), (-13, ""))

    def test_no_early_reader(self):
        """No shell script under pipefail pipes into a reader that can exit
        before the writer is done: take the output whole instead
        (grep -q PAT <<<"$(cmd)", grep -m1 PAT FILE, sed -n 1p, an option
        of the writer)."""
        found = early_readers(REPO)
        self.assertEqual(found, [], "\n".join(found))

    def test_scanner(self):
        """early_readers() finds the shapes it is for, and only under pipefail."""
        bad = ['x=$(cmd | head -n 1)', 'cmd | grep -q pat || y', 'cmd |\n\tgrep -m1 pat', 'cmd |& grep -qx a',
               'cmd | read -r a', 'cmd | sed 1q', "cmd | awk '{ print; exit }'", 'cmd | cmp - f',
               'cmd \\\n\t| head -1', 'x=$(a | sort | head -n 1)']
        good = ['grep -q pat <<<"$(cmd)"', 'cmd | sed -n 1p', 'cmd | grep -c pat', 'a || head -n 1 f',
                'cmd | while read -r l; do :; done', "cmd | awk 'END { exit 1 }'",
                'grep -m1 pat file | cut -f2', 'grep -qxF x < <(cmd)', '# cmd | head', 'echo x >| f',
                'cmd | sed -n "s/quiet/q/p"']
        with tempfile.TemporaryDirectory() as top:
            os.makedirs(os.path.join(top, "scripts"))
            for name, text in (("bad.sh", "\n".join(bad)), ("good.sh", "\n".join(good))):
                with open(os.path.join(top, "scripts", name), "w", encoding="utf-8") as f:
                    f.write("#!/bin/bash\nset -euo pipefail\n" + text + "\n")
            with open(os.path.join(top, "scripts", "nopipefail.sh"), "w", encoding="utf-8") as f:
                f.write("#!/bin/sh\nset -eu\n" + "\n".join(bad) + "\n")
            found = early_readers(top)
        self.assertEqual(len(found), len(bad), "\n".join(found))
        self.assertTrue(all(f.startswith("scripts/bad.sh:") for f in found), "\n".join(found))


if __name__ == "__main__":
    unittest.main()
