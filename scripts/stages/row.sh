#!/bin/bash
# shellcheck disable=SC2153 # BASE, POLICY...: the row's record (row_record)
# Run one row of configs/matrix.tsv through every stage:
# tree, build, rootfs, boot, results.
#
# Usage: scripts/stages/row.sh [--prepare|--boot] ROW
#   --prepare runs tree, build and rootfs only, --boot boot and results only
#   (scripts/check.sh boots a row while it prepares the next).  The row is
#   resolved once into its record, build/rows/ROW.env (scripts/lib.sh
#   row_record), which every stage reads.  A stage that fails is recorded
#   as a failed check of the row in build/results/ROW/results.tsv (with its
#   log), and the script exits 1.  Each stage's time goes to build/times.tsv.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
build_lock "$@"

mode=all
case ${1:-} in
--prepare | --boot)
	mode=${1#--}
	shift
	;;
esac
row=${1:?usage: row.sh [--prepare|--boot] ROW}
if [ "$mode" = boot ] && [ -f "$BUILD/rows/$row.env" ]; then
	rec=$BUILD/rows/$row.env	# resolved by --prepare
else
	rec=$(row_record "$row")
fi
# shellcheck source=/dev/null
. "$rec"
read -ra frags <<<"$FRAGMENTS"
mkdir -p "$RES"

# A failed stage becomes the row's only result, so that the summary counts it.
stage_failed() {
	printf 'FAIL\t%s\tstage %s failed, log: %s\n' "$1" "$1" "$2" >"$RES/results.tsv"
	exit 1
}

if [ "$mode" != boot ]; then
	say row "=== $ROW ($KIND): linux-source-$BASE, $FRAGMENTS"
	# BUILT (scripts/check.sh): a file of the builds made during this run; a
	# row whose build is in it skips the tree and build stages (a no-op make of
	# the kernel costs seconds, and most rows share a build).
	src=$(tree_path "$BASE") || stage_failed tree "$BUILD/logs/tree-$BASE.log"
	if [ -n "${BUILT:-}" ] && grep -qxF "$KEY" "$BUILT" 2>/dev/null && [ -f "$OUT/arch/arm/boot/zImage" ]; then
		say build "$KEY: built earlier in this run"
	else
		src=$(timed tree "$BASE" "$TOP/scripts/stages/tree.sh" "$BASE") ||
			stage_failed tree "$BUILD/logs/tree-$BASE.log"
		SEEDS=$(build_seeds "$BASE" "$KEY") timed build "$KEY" "$TOP/scripts/stages/build.sh" "$src" "$OUT" "${frags[@]}" ||
			stage_failed build "$OUT/build.log"
		[ -z "${BUILT:-}" ] || echo "$KEY" >>"$BUILT"
	fi
	timed rootfs "$KEY" "$TOP/scripts/stages/rootfs.sh" "$src" "$OUT" || stage_failed rootfs "$OUT/rootfs.log"
fi
[ "$mode" != prepare ] || exit 0

# A row of kind "edge" boots its kernel a first time without ioremap_pool=,
# on the same machine, to read MemTotal (kselftest/init prints it and powers
# off when the command line has memtotal=1); the row's own boot gets it as
# IOREMAP_POOL_MEMTOTAL, and the pool's test checks what the pool cost.
cmdline=$CMDLINE
if [ "$KIND" = edge ]; then
	ref=$RES/without-pool
	read -ra words <<<"$CMDLINE"
	refcmd=""
	for w in "${words[@]}"; do
		[[ $w == ioremap_pool=* ]] || refcmd+="${refcmd:+ }$w"
	done
	BOOT_DT=${DT_FRAGMENT:-} timed boot "$ROW" "$TOP/scripts/stages/boot.sh" "$OUT" "$ref" "$QEMU_OPTS" "$refcmd memtotal=1" ||
		stage_failed boot "$ref/console.log"
	memtotal=$(sed -n 's/^=== ioremap-ram: MemTotal: *\([0-9]*\) kB.*/\1/p' "$ref/console.log")
	[ -n "$memtotal" ] || stage_failed boot-without-pool "$ref/console.log"
	say boot "$ROW: MemTotal without the pool: $memtotal kB"
	cmdline="$cmdline IOREMAP_POOL_MEMTOTAL=$memtotal"
fi

# The guest runs the tests the row's expectations name (TESTS), no others.
BOOT_DT=${DT_FRAGMENT:-} timed boot "$ROW" "$TOP/scripts/stages/boot.sh" "$OUT" "$RES" "$QEMU_OPTS" "$cmdline" ||
	stage_failed boot "$RES/console.log"
timed results "$ROW" "$TOP/scripts/stages/results.sh" "$ROW"
