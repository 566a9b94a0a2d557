#!/bin/bash
# Run one row of configs/matrix.tsv through every stage:
# tree, build, rootfs, boot, results.
#
# Usage: scripts/row.sh [--prepare|--boot] ROW
#   --prepare runs tree, build and rootfs only, --boot boot and results only
#   (scripts/check.sh boots a row while it prepares the next).  A stage that
#   fails is recorded as a failed check of the row in
#   build/results/ROW/results.tsv (with its log), and the script exits 1.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

mode=all
case ${1:-} in
--prepare | --boot)
	mode=${1#--}
	shift
	;;
esac
row=${1:?usage: row.sh [--prepare|--boot] ROW}
base=$(row_field "$row" base) || die row "" "no row '$row' in configs/matrix.tsv"
read -ra frags <<<"$(row_field "$row" fragments)"
qemu=$(row_field "$row" qemu)
cmdline=$(row_field "$row" cmdline)
key=$(build_key "$base" "${frags[@]}")
out=$BUILD/out/$key
res=$BUILD/results/$row
mkdir -p "$res"

# A failed stage becomes the row's only result, so that the summary counts it.
stage_failed() {
	printf 'FAIL\t%s\tstage %s failed, log: %s\n' "$1" "$1" "$2" >"$res/results.tsv"
	exit 1
}

if [ "$mode" != boot ]; then
	say row "=== $row: linux-source-$base, ${frags[*]}"
	# BUILT (scripts/check.sh): a file of the builds made during this run; a
	# row whose build is in it skips the tree and build stages (a no-op make of
	# the kernel costs seconds, and most rows share a build).
	src=${KERNEL_SRC:-$BUILD/src/linux-$base}
	if [ -n "${BUILT:-}" ] && grep -qxF "$key" "$BUILT" 2>/dev/null && [ -f "$out/arch/arm/boot/zImage" ]; then
		say build "$key: built earlier in this run"
	else
		src=$("$TOP/scripts/tree.sh" "$base" | tail -n 1) || stage_failed tree "$BUILD/logs/tree-$base.log"
		SEEDS=$(build_seeds "$base" "$key") "$TOP/scripts/build.sh" "$src" "$out" "${frags[@]}" ||
			stage_failed build "$out/build.log"
		[ -z "${BUILT:-}" ] || echo "$key" >>"$BUILT"
	fi
	"$TOP/scripts/rootfs.sh" "$src" "$out" || stage_failed rootfs "$out/rootfs.log"
fi
[ "$mode" != prepare ] || exit 0

# The guest runs the tests the row's expectations name, no others.
tests=$(awk '!/^#/ && NF && $1 !~ /^kunit:/ { print "arm:" $1 }' \
	"$TOP/kselftest/expect/$(row_field "$row" expect)" | awk '!seen[$0]++' | paste -sd, -)
[ "$cmdline" != "-" ] || cmdline=""
cmdline="$cmdline${tests:+ KSELFTEST_TESTS=$tests}"
"$TOP/scripts/boot.sh" "$out" "$res" "$qemu" "$cmdline" || stage_failed boot "$res/console.log"
"$TOP/scripts/results.sh" "$row"
