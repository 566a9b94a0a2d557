#!/bin/bash
# The series' review gates, on kernel trees with the series applied: for
# each BASE the lint (scripts/gates/lint.sh: checkpatch --strict, subjects,
# kernel-doc, quilt, htmldocs); on the first BASE the Coccinelle check on
# its labelled corpus (scripts/gates/cocci.sh), the compile coverage
# (scripts/gates/compile-test.sh: compile-BASE, the configs of
# configs/compile.tsv, W=1 C=1; bisect-BASE, each prefix of the series)
# and the sub-series' mboxes (tests/mbox/run.sh: make mbox, each mbox
# applied alone after what it needs, checkpatch, built);
# for each BASE the memblock simulator (scripts/gates/memblock-test.sh): on the
# first BASE with the whole series, on the others with the series up to its
# fix alone (the sub-series "fix", which upstream would take first: up to the commit whose
# subject is FIX_SUBJECT below).
# The gates run in two chains at the same time, each chain one gate after
# another: chain 1 compile-BASE then mbox (they share the scratch worktree
# BUILD/src/linux-BASE-wt, lib.sh scratch_worktree), chain 2 every other
# gate in order (bisect-BASE in a worktree of its own).  The first BASE's
# tree is prepared (scripts/stages/tree.sh) before the chains start; chain 2
# asks for the other bases' trees when it comes to them (tree.sh, under a
# lock a base: the mbox test, in chain 1, asks for 6.1's too).
# Each gate's results go to build/results/GATE/results.tsv, its output to
# build/logs/GATE.log, its name to stdout when it is done ("gate: NAME",
# which scripts/check.sh reads, after the plan: "plan: NAME" a gate, every
# gate first), the chains' lines in the order they finish, each line one
# write.  With --summary (make gates) a summary of every planned gate
# follows, ending "N passed, N failed, N skipped"; exits 1 if a check
# failed.
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
first=$1
mkdir -p "$BUILD/logs"

# lines: standard input on stdout, one write a line (the two chains write
# to the same file: their lines never mix).
lines() {
	local line
	while IFS= read -r line; do
		printf '%s\n' "$line"
	done
}

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
	{
		grep -v '^\[' "$log" | grep -E '^  (FAIL|SKIP)' || true
		echo "gate: $name"
	} | lines
}

FIX_SUBJECT='ARM: mm: check the whole range in ioremap() of system RAM'
# The gates, as "BASE GATE CHAIN" in the order they run in their chain,
# built once: printed first as the plan ("plan: GATE": scripts/check.sh
# fails the planned gates that never reported, if it has to stop them),
# then run from the same list.
plan=()
for base in "$@"; do
	plan+=("$base lint-$base 2" "$base memblock-$base 2")
	[ "$base" != "$first" ] ||
		plan+=("$base cocci 2" "$base compile-$base 1" "$base bisect-$base 2" "$base mbox 1")
done
names=()
for entry in "${plan[@]}"; do
	read -r _ name _ <<<"$entry"
	names+=("$name")
	# (Results of an earlier run: a gate its chain never ran has none.)
	rm -f "$BUILD/results/$name/results.tsv"
done
printf 'plan: %s\n' "${names[@]}"

# Each base's tree, asked for once a chain (scripts/stages/tree.sh).
declare -A srcs=()
srcs[$first]=$("$TOP/scripts/stages/tree.sh" "$first") || srcs[$first]=""

# run_gate BASE NAME: one gate of the plan on BASE's tree.
run_gate() {
	local base=$1 name=$2 src fix
	if [ -z "${srcs[$base]+set}" ]; then
		srcs[$base]=$("$TOP/scripts/stages/tree.sh" "$base") || srcs[$base]=""
	fi
	src=${srcs[$base]}
	if [ -z "$src" ]; then
		mkdir -p "$BUILD/results/$name"
		printf 'FAIL\ttree\tscripts/stages/tree.sh %s failed, log: %s\n' "$base" \
			"$BUILD/logs/tree-$base.log" >"$BUILD/results/$name/results.tsv"
		printf 'gate: %s\n' "$name"
		return
	fi
	case $name in
	lint-*) gate "$name" "$TOP/scripts/gates/lint.sh" "$src" "$base" ;;
	cocci) gate cocci "$TOP/scripts/gates/cocci.sh" "$src" corpus ;;
	compile-*) gate "$name" "$TOP/scripts/gates/compile-test.sh" "$src" "$base" rows ;;
	bisect-*) gate "$name" "$TOP/scripts/gates/compile-test.sh" "$src" "$base" bisect ;;
	mbox) gate mbox "$TOP/tests/mbox/run.sh" ;;
	memblock-*)
		if [ "$base" = "$first" ]; then
			gate "$name" "$TOP/scripts/gates/memblock-test.sh" "$src" "$base"
			return
		fi
		# The other bases: the series up to its fix alone (none found, as
		# in a tree whose base is unknown: the gate fails on
		# "no-fix-commit", naming it, and the other gates still run).
		fix=$(git -C "$src" log --format='%H %s' "$(tree_base "$src")"..HEAD 2>/dev/null |
			awk -v s="$FIX_SUBJECT" 'substr($0, 42) == s { print $1 }') || fix=""
		gate "$name" "$TOP/scripts/gates/memblock-test.sh" "$src" "$base" "${fix:-no-fix-commit}"
		;;
	esac
}

# chain N: the gates of chain N, in the plan's order.
chain() {
	local entry base name c
	for entry in "${plan[@]}"; do
		read -r base name c <<<"$entry"
		[ "$c" != "$1" ] || run_gate "$base" "$name"
	done
}

# The two chains as jobs, waited for with the wait builtin: a signal to
# gates.sh run by hand runs its trap (lib.sh run_stop, which ends both
# chains and everything under them) at once.
chains=()
chain 1 &
chains+=($!)
chain 2 &
chains+=($!)
rc=0
for i in 0 1; do
	crc=0
	wait "${chains[i]}" || crc=$?
	if [ "$crc" -ne 0 ]; then
		say gates "FAILED: chain $((i + 1)) ended with status $crc before its last gate; the gates it did not run have no results" >&2
		rc=1
	fi
done
if [ "$summ" = 1 ]; then
	echo
	summary "${names[@]}" || rc=1
	tail -n 1 "$BUILD/summary.txt"
fi
exit "$rc"
