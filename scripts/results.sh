#!/bin/bash
# Stage "results": judge one row's console log against its expectations.
#
# Usage: scripts/results.sh ROW
#   Reads build/results/ROW/console.log (from scripts/boot.sh) and the row's
#   expectations, kselftest/expect/EXPECT (column "expect" of the matrix).
#   Writes build/results/ROW/{ktap.txt,dmesg.txt,results.tsv,junit.xml} and
#   prints one
#   line per check: PASS, FAIL or SKIP, the check's name and why.  The checks:
#   the guest reached the end of the suite; the policy it reports is the
#   row's; every expected case, of the kselftests and of the KUnit suites in
#   the kernel log, has its expected result and no other case ran; the kernel
#   console log holds no oops, BUG, panic, KASAN/lockdep/kmemleak report or
#   unexpected WARNING.
#   Exits 1 if any check failed.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

row=${1:?usage: results.sh ROW}
res=$BUILD/results/$row
console=$res/console.log
expect=$TOP/kselftest/expect/$(row_field "$row" expect)
mkdir -p "$res"
[ -f "$expect" ] || die results "" "no expectations for row $row ($expect)"
[ -f "$console" ] || die results "" "$console missing (run the boot stage)"

tsv=$res/results.tsv
: >"$tsv"

section() { tr -d '\r' <"$console" | sed -n "/^=== ioremap-ram: $1 begin/,/^=== ioremap-ram: $1 end/p"; }
section suite >"$res/ktap.txt"
section "kernel log" >"$res/dmesg.txt"

# 1. The guest got through the suite.
if ! grep -q '^=== ioremap-ram: kernel log end' "$console"; then
	why=$(grep -m1 -E 'Kernel panic|Internal error|BUG:|Unable to handle' "$console" || true)
	record FAIL boot "never reached the end of the suite${why:+: $why} (see $console)"
else
	record PASS boot "booted, ran the suite and dumped the kernel log in $(cat "$res/boot.seconds" 2>/dev/null || echo '?')s"
fi

# 2. The policy the kernel reports is the row's.
want_policy=$(row_field "$row" policy)
got_policy=$(tr -d '\r' <"$console" | sed -n 's/^=== ioremap-ram: policy //p' | head -n 1)
[ -n "$got_policy" ] || got_policy=$(sed -n 's/^# # policy: //p' "$res/ktap.txt" | head -n 1)
if [ "$got_policy" = "$want_policy" ]; then
	record PASS policy "kernel reports '$got_policy'"
else
	record FAIL policy "kernel reports '${got_policy:-nothing}', row expects '$want_policy'"
fi

# 3. Each case as expected.  Observed results: test, case, ok|fail|skip, detail.
# ktap_cases INDENT HEADER NAME_PREFIX: the results of nested KTAP tests,
# whose lines start with INDENT, each test named by the field after HEADER.
ktap_cases() {
	awk -v indent="$1" -v header="$2" -v prefix="$3" '
		index($0, indent header) == 1 {
			test = substr($0, length(indent header) + 1); sub(/ .*/, "", test); next
		}
		index($0, indent) == 1 && test != "" {
			line = substr($0, length(indent) + 1)
			if (line !~ /^(not )?ok [0-9]+ /) next
			status = "ok"
			if (line ~ /^not ok/) { status = "fail"; sub(/^not ok [0-9]+ /, "", line) }
			else sub(/^ok [0-9]+ /, "", line)
			name = line; sub(/ .*/, "", name)
			detail = ""
			if (index(line, " # ")) detail = substr(line, index(line, " # ") + 3)
			if (status == "ok" && detail ~ /^SKIP/) { status = "skip"; sub(/^SKIP ?/, "", detail) }
			printf "%s%s\t%s\t%s\t%s\n", prefix, test, name, status, detail
			next
		}
		/^(not )?ok [0-9]+ / { test = "" }'
}
# kselftests: "# selftests: arm: TEST", then "# ok N case" per case.
ktap_cases "# " "selftests: arm: " "" <"$res/ktap.txt" >"$res/observed.tsv"
# KUnit suites, in the kernel log: "    # Subtest: SUITE", then "    ok N case".
sed 's/^\[[ 0-9.]*\] //' "$res/dmesg.txt" | ktap_cases "    " "# Subtest: " "kunit:" \
	>>"$res/observed.tsv"

declare -A seen=()
while read -r test name want; do
	seen["$test $name"]=1
	obs=$(awk -F'\t' -v t="$test" -v n="$name" '$1 == t && $2 == n' "$res/observed.tsv" | head -n 1)
	check="$test/$name"
	if [ -z "$obs" ]; then
		record FAIL "$check" "did not run"
		continue
	fi
	status=$(cut -f3 <<<"$obs")
	detail=$(cut -f4 <<<"$obs")
	case "$status:$want" in
	ok:ok) record PASS "$check" ;;
	skip:skip) record SKIP "$check" "$detail" ;;
	fail:*) record FAIL "$check" "$detail" ;;
	skip:ok) record FAIL "$check" "skipped (${detail}) but expected to run on this row" ;;
	ok:skip) record FAIL "$check" "ran, but ${expect#"$TOP"/} expects a skip: update it" ;;
	*) record FAIL "$check" "unknown expectation '$want' in $expect" ;;
	esac
done < <(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$expect")
while IFS=$'\t' read -r test name _ _; do
	[ -n "${seen["$test $name"]:-}" ] ||
		record FAIL "$test/$name" "ran but is not listed in ${expect#"$TOP"/}"
done <"$res/observed.tsv"

# 4. Nothing anywhere in the console log (the boot, the suite and the kernel
# log dumped after it) that should not be there: oops, BUG (KASAN, sleeping
# in atomic context...), panic, WARNING (lockdep, debugobjects...), KASAN,
# UBSAN, kmemleak or lockdep reports, hung tasks.  The policy's own
# backtraces (WARNING at arch/arm/mm/ioremap-ram.c) are expected: the suite
# counts them per case.
splats=$(tr -d '\r' <"$console" | grep -nE 'BUG:|Oops|Internal error:|Kernel panic|Unable to handle kernel|WARNING:|UBSAN:|KASAN:|kmemleak: [0-9]+ new suspected memory leak|unreferenced object 0x|possible circular locking|inconsistent lock state|possible recursive locking|suspicious RCU usage|ODEBUG:|INFO: task .* blocked' |
	grep -v 'WARNING: .* at arch/arm/mm/ioremap-ram\.c:' || true)
if [ -n "$splats" ]; then
	record FAIL "kernel log" "$(wc -l <<<"$splats") unexpected report line(s), first: console line $(head -n 1 <<<"$splats") (in $console)"
elif [ -s "$res/dmesg.txt" ]; then
	record PASS "kernel log" "no oops, BUG, panic or unexpected WARNING"
else
	record FAIL "kernel log" "no kernel log captured"
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
