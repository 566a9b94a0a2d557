#!/bin/bash
# The series' review gates, on kernel trees with the series applied: for
# each BASE the lint (scripts/gates/lint.sh: checkpatch --strict, subjects,
# kernel-doc, quilt, htmldocs); on the first BASE the Coccinelle check on
# its labelled corpus (scripts/gates/cocci.sh) and the compile coverage
# (scripts/gates/compile-test.sh: the configs of configs/compile.tsv, W=1 C=1,
# each prefix of the series)
# and the sub-series' mboxes (tests/mbox/run.sh: make mbox, each mbox
# applied alone after what it needs, checkpatch, built);
# for each BASE the memblock simulator (scripts/gates/memblock-test.sh): on the
# first BASE with the whole series, on the others with the series up to its
# fix alone (the sub-series "fix", which upstream would take first: up to the commit whose
# subject is FIX_SUBJECT below).
# Each gate's results go to build/results/GATE/results.tsv, its output to
# build/logs/GATE.log, its name to stdout when it is done ("gate: NAME",
# which scripts/check.sh reads, after the plan: "plan: NAME" a gate).
# With --summary (make gates) a summary follows, ending "N passed,
# N failed, N skipped"; exits 1 if a check failed.
#
# Usage: scripts/gates/gates.sh [--summary] BASE...	(make gates: BASE=6.12)
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
build_lock "$@"

summ=0
if [ "${1:-}" = --summary ]; then
	summ=1
	shift
fi
[ $# -gt 0 ] || die gates "" "usage: gates.sh [--summary] BASE..."
names=()
mkdir -p "$BUILD/logs"
# gate NAME CMD...: run one gate, timed, its output to its log; a gate
# that fails still leaves its results for the summary.  One that exits
# non-zero with no failed check (stopped before its last check, by an
# error of its own) gets a failed check "exit".
gate() {
	local name=$1 log=$BUILD/logs/$1.log tsv=$BUILD/results/$1/results.tsv rc=0
	shift
	rm -f "$tsv"
	say gates "$name (log: $log)"
	waited timed gate "$name" "$@" >"$log" 2>&1 || rc=$?
	if [ "$rc" -ne 0 ] && ! grep -qs '^FAIL' "$tsv"; then
		mkdir -p "${tsv%/*}"
		printf 'FAIL\texit\texit status %s with no failed check: stopped before its last check; log: %s\n' \
			"$rc" "$log" >>"$tsv"
	fi
	grep -v '^\[' "$log" | grep -E '^  (FAIL|SKIP)' || true
	echo "gate: $name"
	names+=("$name")
}

FIX_SUBJECT='ARM: mm: check the whole range in ioremap() of system RAM'
# The gates, as "BASE GATE" in the order they run, built once: printed
# first as the plan ("plan: GATE": scripts/check.sh fails the planned gates
# that never reported, if it has to stop them), then run from the same list.
plan=()
for base in "$@"; do
	plan+=("$base lint-$base" "$base memblock-$base")
	[ "$base" != "$1" ] || plan+=("$base cocci" "$base compile-$base" "$base mbox")
done
printf 'plan: %s\n' "${plan[@]#* }"
declare -A srcs=()
for entry in "${plan[@]}"; do
	base=${entry%% *} name=${entry#* }
	if [ -z "${srcs[$base]+set}" ]; then
		srcs[$base]=$("$TOP/scripts/stages/tree.sh" "$base") || srcs[$base]=""
	fi
	src=${srcs[$base]}
	if [ -z "$src" ]; then
		mkdir -p "$BUILD/results/$name"
		printf 'FAIL\ttree\tscripts/stages/tree.sh %s failed, log: %s\n' "$base" \
			"$BUILD/logs/tree-$base.log" >"$BUILD/results/$name/results.tsv"
		echo "gate: $name"
		names+=("$name")
		continue
	fi
	case $name in
	lint-*) gate "$name" "$TOP/scripts/gates/lint.sh" "$src" "$base" ;;
	cocci) gate cocci "$TOP/scripts/gates/cocci.sh" "$src" corpus ;;
	compile-*) gate "$name" "$TOP/scripts/gates/compile-test.sh" "$src" "$base" ;;
	mbox) gate mbox "$TOP/tests/mbox/run.sh" ;;
	memblock-*)
		if [ "$base" = "$1" ]; then
			gate "$name" "$TOP/scripts/gates/memblock-test.sh" "$src" "$base"
			continue
		fi
		# The other bases: the series up to its fix alone (none found, as
		# in a tree whose base is unknown: the gate fails on
		# "no-fix-commit", naming it, and the other gates still run).
		fix=$(git -C "$src" log --format='%H %s' "$(tree_base "$src")"..HEAD 2>/dev/null |
			awk -v s="$FIX_SUBJECT" 'substr($0, 42) == s { print $1 }') || fix=""
		gate "$name" "$TOP/scripts/gates/memblock-test.sh" "$src" "$base" "${fix:-no-fix-commit}"
		;;
	esac
done
if [ "$summ" = 1 ]; then
	echo
	rc=0
	summary "${names[@]}" || rc=1
	tail -n 1 "$BUILD/summary.txt"
	exit "$rc"
fi
