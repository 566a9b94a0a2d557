#!/bin/bash
# The whole matrix: every row of configs/matrix.tsv (or those given), the
# series' review gates on each base (scripts/lint.sh), the Coccinelle
# corpus (scripts/cocci.sh), then a summary.  With FULL=1 (make check) also
# the compile coverage (scripts/compile-test.sh) and the LAVA jobs: every
# row's generated and validated, the first row's run with lava-run.  Ends with the line
# "N passed, N failed, N skipped"; exits 1 if any check failed.
#
# Usage: scripts/check.sh [ROW...]
set -euo pipefail
. "$(dirname "$0")/lib.sh"

# One run at a time per build folder: two would build in the same O= folders.
mkdir -p "$BUILD"
exec 9>"$BUILD/.lock"
flock -n 9 || die check "" "another make run/check is using $BUILD"

rows=("$@")
lint_rows=()
[ ${#rows[@]} -gt 0 ] || mapfile -t rows < <(matrix_rows)
for row in "${rows[@]}"; do
	row_field "$row" base >/dev/null ||
		die check "" "no row '$row' in configs/matrix.tsv (rows: $(matrix_rows | tr '\n' ' '))"
done

# The compile coverage (scripts/compile-test.sh, FULL=1: make check)
# needs only the tree of the first row's base: it runs beside the rows,
# niced, on the core that QEMU and the single-threaded stages leave idle.
ctest=()
if [ "${FULL:-0}" = 1 ]; then
	cbase=$(row_field "${rows[0]}" base)
	csrc=$("$TOP/scripts/tree.sh" "$cbase" | tail -n 1) || csrc=""
	clog=$BUILD/logs/compile-test-$cbase.log
	rm -f "$BUILD/results/compile-$cbase/results.tsv"
	if [ -n "$csrc" ]; then
		say check "compile coverage of the series runs beside the rows, log: $clog"
		nice -n 10 "$TOP/scripts/compile-test.sh" "$csrc" "$cbase" >"$clog" 2>&1 &
		ctest=("compile-$cbase" "$!")
	fi
fi

# Rows in order; a row boots (one guest at a time) while the next one
# builds: QEMU keeps one core busy, the compiler the other.
BUILT=$BUILD/.built-this-run
: >"$BUILT"
export BUILT
booting=""
for row in "${rows[@]}"; do
	rm -f "$BUILD/results/$row/results.tsv"
	prepared=1
	"$TOP/scripts/row.sh" --prepare "$row" || prepared=0
	[ -z "$booting" ] || wait "$booting" || true
	booting=""
	if [ "$prepared" -eq 1 ]; then
		"$TOP/scripts/row.sh" --boot "$row" &
		booting=$!
	fi
done
[ -z "$booting" ] || wait "$booting" || true
if [ ${#ctest[@]} -gt 0 ]; then
	say check "waiting for the compile coverage"
	wait "${ctest[1]}" || true
	grep -v '^\[' "$clog" || true
	rows+=("${ctest[0]}")
fi

# The review gates, on each base the rows used.
for base in $(for r in "${rows[@]}"; do row_field "$r" base; done | sort -u); do
	rm -f "$BUILD/results/lint-$base/results.tsv"
	"$TOP/scripts/lint.sh" "${KERNEL_SRC:-$BUILD/src/linux-$base}" "$base" || true
	lint_rows+=("lint-$base")
done

# The Coccinelle check, from the series, on its labelled corpus.
rm -f "$BUILD/results/cocci/results.tsv"
src=${KERNEL_SRC:-$BUILD/src/linux-$(row_field "${rows[0]}" base)}
"$TOP/scripts/cocci.sh" "$src" corpus || true
rows+=("${lint_rows[@]}" cocci)

# LAVA: a job per row and device type, validated with LAVA's own code
# (scripts/lava-jobs.sh, lava-validate.sh), and the first row's qemu job run
# for real with lava-run (scripts/lava-run.sh).
if [ "${FULL:-0}" = 1 ]; then
	rm -f "$BUILD/results/lava/results.tsv" "$BUILD/results/lava-run/results.tsv"
	{ "$TOP/scripts/lava-jobs.sh" && "$TOP/scripts/lava-validate.sh"; } || true
	"$TOP/scripts/lava-run.sh" "${rows[0]}" || true
	rows+=(lava lava-run)
fi

# What the rows put the series through, as a table (never a verdict).
if [ "${FULL:-0}" = 1 ]; then
	"$TOP/scripts/reliability.sh" >/dev/null &&
		say check "reliability table (load, faults, bad input, splats): $BUILD/results/reliability.md"
fi

pass=0 fail=0 skip=0
echo
echo "Summary (KTAP, JUnit XML and console logs under $BUILD/results/):"
for row in "${rows[@]}"; do
	tsv=$BUILD/results/$row/results.tsv
	if [ ! -s "$tsv" ]; then
		mkdir -p "${tsv%/*}"
		printf 'FAIL\t%s\tno results\n' "$row" >"$tsv"
	fi
	p=$(grep -c '^PASS' "$tsv" || true)
	f=$(grep -c '^FAIL' "$tsv" || true)
	s=$(grep -c '^SKIP' "$tsv" || true)
	printf '  %-12s %3d passed, %d failed, %d skipped\n' "$row" "$p" "$f" "$s"
	{ grep '^FAIL' "$tsv" || true; } | while IFS=$'\t' read -r _ check detail; do
		printf '      FAIL %s: %s\n' "$check" "$detail"
	done
	pass=$((pass + p)) fail=$((fail + f)) skip=$((skip + s))
done
say check "done"
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
