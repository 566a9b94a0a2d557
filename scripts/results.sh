#!/bin/bash
# Stage "results": the verdict of one row's guest run, by the judge.
#
# Usage: scripts/results.sh ROW [CONSOLE [OUT]]
#   Judges CONSOLE (default build/results/ROW/console.log, from
#   scripts/boot.sh; scripts/lava-run.sh passes a LAVA job's target log,
#   and OUT, the folder of the results, instead of build/results/ROW)
#   against the row's expectations and policy (its record,
#   build/rows/ROW.env: scripts/lib.sh row_record) with scripts/judge.py, which decides
#   every check (see there).  Writes OUT/{results.tsv,junit.xml,judge.log,
#   ktap.txt,dmesg.txt} and prints one line per check: PASS, FAIL or SKIP,
#   the check's name and why.  Exits 1 if any check failed.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

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
rc=0
"$TOP/scripts/judge.py" --console "$console" --expect "$EXPECT" --policy "$POLICY" \
	--kunit-dir "$(kunit_dir)" --tsv "$tsv" --parser-log "$res/judge.log" >/dev/null 2>"$res/judge.err" || rc=$?
if [ "$rc" -gt 1 ] || [ ! -s "$tsv" ]; then
	# The judge itself failed: the row has no verdict, so it failed.
	printf 'FAIL\tjudge\tscripts/judge.py exit %s: %s\n' "$rc" "$(tail -n 1 "$res/judge.err")" >"$tsv"
fi

# JUnit XML for CI systems.
xml() { sed -e 's/&/\&amp;/g' -e 's/</\&lt;/g' -e 's/>/\&gt;/g' -e 's/"/\&quot;/g' <<<"$1"; }
{
	printf '<?xml version="1.0" encoding="UTF-8"?>\n'
	printf '<testsuite name="%s" tests="%d" failures="%d" skipped="%d">\n' "$row" \
		"$(wc -l <"$tsv")" "$(grep -c '^FAIL' "$tsv" || true)" "$(grep -c '^SKIP' "$tsv" || true)"
	while IFS=$'\t' read -r status check detail; do
		printf '  <testcase classname="%s" name="%s">' "$row" "$(xml "$check")"
		case $status in
		FAIL) printf '<failure message="%s"/>' "$(xml "$detail")" ;;
		SKIP) printf '<skipped message="%s"/>' "$(xml "$detail")" ;;
		esac
		printf '</testcase>\n'
	done <"$tsv"
	printf '</testsuite>\n'
} >"$res/junit.xml"

report "$row"
