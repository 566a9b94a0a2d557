#!/bin/bash
# Stage "results": the verdict of one row's guest run, by the judge.
#
# Usage: scripts/stages/results.sh ROW [CONSOLE [OUT]]
#   Judges CONSOLE (default build/results/ROW/console.log, from
#   scripts/stages/boot.sh; scripts/lava/run.sh passes a LAVA job's target log,
#   and OUT, the folder of the results, instead of build/results/ROW)
#   against the row's expectations and policy (its record,
#   build/rows/ROW.env: scripts/lib.sh row_record) with scripts/stages/judge.py, which decides
#   every check (see there).  Writes OUT/{results.tsv,junit.xml,judge.log,
#   ktap.txt,dmesg.txt} and prints one line per check: PASS, FAIL or SKIP,
#   the check's name and why.  Exits 1 if any check failed.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

row=${1:?usage: results.sh ROW [CONSOLE [OUT]]}
rec=$BUILD/rows/$row.env
[ -f "$rec" ] || rec=$(row_record "$row")
# shellcheck source=/dev/null
. "$rec"
res=${3:-$RES}
console=${2:-$res/console.log}
mkdir -p "$res"
[ -f "$EXPECT" ] || die results "" "no expectations for row $row ($EXPECT)"
[ -f "$console" ] || die results "" "$console missing (run the boot stage)"

# The suite's KTAP and the kernel log, on their own (scripts/reliability.sh
# reads the cases' figures off the KTAP).
section() { tr -d '\r' <"$console" | sed -n "/^=== ioremap-ram: $1 begin/,/^=== ioremap-ram: $1 end/p"; }
section suite >"$res/ktap.txt"
section "kernel log" >"$res/dmesg.txt"

tsv=$res/results.tsv
# No verdict of an earlier run survives this one (judging a lab's log again
# into the same folder).
: >"$tsv"
rm -f "$res/junit.xml"
rc=0
"$TOP/scripts/stages/judge.py" --console "$console" --expect "$EXPECT" --policy "$POLICY" \
	--kunit-dir "$(kunit_dir)" --tsv "$tsv" --parser-log "$res/judge.log" >/dev/null 2>"$res/judge.err" || rc=$?
if [ "$rc" -gt 1 ] || [ ! -s "$tsv" ]; then
	# The judge could not judge (exit 2) or died: the row has no verdict,
	# so it failed.
	printf 'FAIL\tjudge\tscripts/stages/judge.py could not judge (exit %s): %s\n' "$rc" \
		"$(tail -n 1 "$res/judge.err")" >"$tsv"
fi

# JUnit XML for CI systems (scripts/harness.py: ElementTree, and what XML
# cannot hold, as control characters of a console line, as escape text).
"$TOP/scripts/harness.py" junit --row "$row" --tsv "$tsv" --out "$res/junit.xml" ||
	die results "" "scripts/harness.py junit: no $res/junit.xml"

report "$row"
