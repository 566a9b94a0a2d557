#!/bin/bash
# Stage "judge-test": the judge (scripts/stages/judge.py) on its fixtures, the
# harness's Python unit tests, and ShellCheck on the harness.  Each fixture
# is a console log with the whole table of checks the judge must answer
# (tests/judge/NAME.want, read by tests/judge/fixtures.py); the unit tests
# are tests/py/test_*.py.  Results in build/results/judge/results.tsv.
# Runs in seconds, first in make check: every later verdict comes from
# this judge.
#
# Usage: scripts/gates/judge-test.sh
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
build_lock "$@"

res=$BUILD/results/judge
fix=$TOP/tests/judge
tsv=$res/results.tsv
mkdir -p "$res"
: >"$tsv"
kdir=$(kunit_dir)

# The fixtures, each against its whole table (tests/judge/fixtures.py).
"$fix/fixtures.py" --kunit-dir "$kdir" >>"$tsv" 2>"$res/fixtures.err" || true
grep -q "fixture/" "$tsv" || record FAIL fixtures "tests/judge/fixtures.py answered nothing: $(tail -n 1 "$res/fixtures.err")"

# The unit tests of the harness's Python (tests/py/test_*.py, unittest):
# one result a test (tests/py/run.py), the tracebacks in unittest.log.
rc=0
KUNIT_DIR=$kdir python3 "$TOP/tests/py/run.py" >>"$tsv" 2>"$res/unittest.log" || rc=$?
if [ "$rc" -ne 0 ] && ! grep -q '^FAIL' "$tsv"; then
	record FAIL unittest "tests/py/run.py exited $rc with no failed test: $(tail -n 1 "$res/unittest.log")"
fi

# ShellCheck: the harness's scripts, the guest's scripts.
mapfile -t sh < <(cd "$TOP" && grep -lE '^#!/bin/(ba)?sh' scripts/* scripts/*/* bench/*.sh tests/*/*.sh kselftest/* configs/lava/init .ci/run 2>/dev/null)
if out=$(cd "$TOP" && shellcheck -x "${sh[@]}" 2>&1); then
	record PASS shellcheck "${#sh[@]} scripts"
else
	record FAIL shellcheck "$(grep -c '^In ' <<<"$out") finding(s), first: $(grep -m1 '^In ' <<<"$out")"
fi
report judge
