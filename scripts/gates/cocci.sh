#!/bin/bash
# Run the series' Coccinelle check for ioremap() of RAM
# (scripts/coccinelle/api/ioremap_ram.cocci in the kernel tree).
#
# Usage: scripts/gates/cocci.sh SRC corpus	judge the labelled corpus tests/cocci/*.c:
#					one check per file, then precision and recall
#        scripts/gates/cocci.sh SRC DIR	report the hits under DIR (absolute, or
#					relative to SRC), with the time it took
#   SRC is a kernel tree with the series applied.  Corpus checks are printed
#   as PASS/FAIL/SKIP lines and written to build/results/cocci/results.tsv.
#   A file spatch cannot parse is reported and fails; it is never counted
#   as clean.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
build_lock "$@"

src=$(realpath -m "${1:?usage: cocci.sh SRC corpus|DIR}")
what=${2:?usage: cocci.sh SRC corpus|DIR}
cocci=$src/scripts/coccinelle/api/ioremap_ram.cocci
res=$BUILD/results/cocci
mkdir -p "$res"

if ! command -v spatch >/dev/null; then
	if [ "$what" = corpus ]; then
		printf 'SKIP\tcorpus\tspatch not installed (Debian package coccinelle)\n' >"$res/results.tsv"
		say cocci "SKIP: spatch not installed (Debian package coccinelle)"
		exit 0
	fi
	die cocci "" "spatch not installed: apt-get install coccinelle"
fi
[ -d "$src" ] || die cocci "" "kernel tree $src does not exist"
[ -f "$cocci" ] ||
	die cocci "" "$cocci missing: $src does not have the series applied (make edit)"

spatch_report() {
	spatch --very-quiet -D report --no-includes --include-headers \
		--sp-file "$cocci" "$@"
}

if [ "$what" != corpus ]; then
	case $what in /*) dir=$what ;; *) dir=$src/$what ;; esac
	[ -d "$dir" ] || die cocci "" "directory $what does not exist (in $src or as a path)"
	say cocci "spatch over $dir ($(nproc) jobs)"
	start=$(date +%s)
	# A big tree overflows spatch's (OCaml) stack: a segmentation fault on
	# drivers/ with the default 8 MiB.  Unlimited stack, and a time limit
	# per file, which spatch reports.
	(ulimit -s unlimited && spatch_report -j "$(nproc)" --timeout 120 --dir "$dir") \
		2>"$res/dir.err" | sort -u | tee "$res/dir.hits"
	say cocci "$(grep -c 'ioremap of RAM' "$res/dir.hits" || true) hits under $what in $(($(date +%s) - start)) s"
	if [ -s "$res/dir.err" ]; then
		say cocci "spatch reported problems (files it could not parse are not counted as clean): $res/dir.err"
		head -n 5 "$res/dir.err"
	fi
	exit 0
fi

tsv=$res/results.tsv
: >"$tsv"
tp=0 fp=0 fn=0 tn=0
for f in "$TOP"/tests/cocci/*.c; do
	name=${f##*/}
	label=$(sed -n 's,^// cocci-corpus: *,,p' "$f")
	case $label in offender|clean) ;;
	*) printf 'FAIL\tcocci/%s\tno "// cocci-corpus: offender|clean" label\n' "$name" >>"$tsv"
	   continue ;;
	esac
	parse=$(spatch --parse-c "$f" 2>&1 || true)
	if ! grep -q 'perfect = 1' <<<"$parse"; then
		printf 'FAIL\tcocci/%s\tspatch cannot parse it: skipped, not counted\n' "$name" >>"$tsv"
		continue
	fi
	hits=$(spatch_report "$f" 2>&1 | grep -c 'ioremap of RAM' || true)
	case $label:$hits in
	offender:0) fn=$((fn + 1)); printf 'FAIL\tcocci/%s\toffender not found\n' "$name" ;;
	offender:*) tp=$((tp + 1)); printf 'PASS\tcocci/%s\toffender found\n' "$name" ;;
	clean:0) tn=$((tn + 1)); printf 'PASS\tcocci/%s\tclean, not flagged\n' "$name" ;;
	clean:*) fp=$((fp + 1)); printf 'FAIL\tcocci/%s\tclean, but flagged %s times\n' "$name" "$hits" ;;
	esac >>"$tsv"
done
pct() { if [ "$2" -gt 0 ]; then echo "$((100 * $1 / $2))%"; else echo "n/a"; fi; }
summary="corpus of $((tp + fp + fn + tn)): $tp true positives, $fp false positives, $fn missed, $tn true negatives; precision $(pct $tp $((tp + fp))), recall $(pct $tp $((tp + fn)))"
echo "$summary" >"$res/summary.txt"
while IFS=$'\t' read -r status check detail; do
	printf '  %-4s %-12s %s%s\n' "$status" cocci "$check" "${detail:+  ($detail)}"
done <"$tsv"
say cocci "$summary"
! grep -q '^FAIL' "$tsv"
