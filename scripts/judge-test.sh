#!/bin/bash
# Stage "judge-test": the judge (scripts/judge.py) on its fixtures, and
# ShellCheck on the harness.  Each fixture of tests/judge/cases.tsv is a
# console log with the checks that must fail on it: the judge passes the
# fixture when it fails exactly those checks (and exits 1), or none (and
# exits 0).  Results in build/results/judge/results.tsv.  Runs in seconds,
# first in make check: every later verdict comes from this judge.
#
# Usage: scripts/judge-test.sh
set -euo pipefail
. "$(dirname "$0")/lib.sh"

res=$BUILD/results/judge
fix=$TOP/tests/judge
tsv=$res/results.tsv
mkdir -p "$res"
: >"$tsv"
kdir=$(kunit_dir)

n=0
while IFS=$'\t' read -r log want; do
	n=$((n + 1))
	rc=0
	"$TOP/scripts/judge.py" --console "$fix/$log" --expect "$fix/expect" --policy reject \
		--kunit-dir "$kdir" >"$res/${log%.log}.tsv" 2>&1 || rc=$?
	got=$(awk -F'\t' '$1 == "FAIL" { print $2 }' "$res/${log%.log}.tsv" | sort | tr '\n' ' ')
	got=${got% }
	want=$(tr ' ' '\n' <<<"$want" | { grep -vx -- - || true; } | sort | tr '\n' ' ')
	want=${want% }
	wrc=1
	[ -n "$want" ] || wrc=0
	if [ "$rc" -gt 1 ]; then
		record FAIL "fixture/$log" "judge exit $rc: $(tail -n 1 "$res/${log%.log}.tsv")"
	elif [ "$got" = "$want" ] && [ "$rc" -eq "$wrc" ]; then
		record PASS "fixture/$log" "${want:+fails: $want}"
	else
		record FAIL "fixture/$log" "failed [${got:-none}] (exit $rc), must fail [${want:-none}] (exit $wrc)"
	fi
done < <(sed -e '/^#/d' -e '/^[[:space:]]*$/d' "$fix/cases.tsv")
[ "$n" -gt 0 ] || record FAIL fixtures "no fixture in $fix/cases.tsv"

# The unit tests of the harness's Python (tests/py/test_*.py, unittest):
# one result a test.
if compgen -G "$TOP/tests/py/test_*.py" >/dev/null; then
	rc=0
	(cd "$TOP/tests/py" && KUNIT_DIR=$kdir python3 -m unittest discover -v -p 'test_*.py') \
		>"$res/unittest.log" 2>&1 || rc=$?
	n=0
	# "test_x (module.Class.test_x) ... ok" (Python 3.11)
	while read -r name result; do
		n=$((n + 1))
		case $result in
		ok) record PASS "unit/$name" ;;
		skipped*) record SKIP "unit/$name" "${result#skipped }" ;;
		*) record FAIL "unit/$name" "$result (log: $res/unittest.log)" ;;
		esac
	done < <(sed -n 's/^test[^ ]* (\([^)]*\)) \.\.\. \(.*\)$/\1 \2/p' "$res/unittest.log")
	if [ "$rc" -ne 0 ] && ! grep -q '^FAIL' "$tsv"; then
		record FAIL unittest "python3 -m unittest exited $rc with no failed test: $(tail -n 1 "$res/unittest.log")"
	fi
	[ "$n" -gt 0 ] || record FAIL unittest "no test ran (log: $res/unittest.log)"
fi

# ShellCheck: the harness's scripts, the guest's scripts.
mapfile -t sh < <(cd "$TOP" && grep -lE '^#!/bin/(ba)?sh' scripts/* tests/*/*.sh kselftest/* configs/lava/init .ci/run 2>/dev/null)
if out=$(cd "$TOP" && shellcheck -x "${sh[@]}" 2>&1); then
	record PASS shellcheck "${#sh[@]} scripts"
else
	record FAIL shellcheck "$(grep -c '^In ' <<<"$out") finding(s), first: $(grep -m1 '^In ' <<<"$out")"
fi
report judge
