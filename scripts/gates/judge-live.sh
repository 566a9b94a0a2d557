#!/bin/bash
# Stage "judge-live": the judge on a real kernel made to fail.  The debug
# row's kernel boots with tests/trip/judge_trip.c, a module built out of
# tree and added to the row's initramfs, which makes the kernel print
# SLUB's own report, a refcount_t underflow, a list corruption and a
# policy report by a caller that is no test module of the series, and
# /init runs the guest out of memory (the OOM killer); the
# judge must fail the run for each, as tests/judge/live/trip.want says
# (tests/judge/fixtures.py compares).  Results in
# build/results/judge-live/results.tsv.
#
# Usage: scripts/gates/judge-live.sh [ROW]	(default 6.12-debug; built if it is not)
# shellcheck disable=SC2153 # BASE, OUT, ...: the row's record (row_record)
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
build_lock "$@"

row=${1:-6.12-debug}
res=$BUILD/results/judge-live
tsv=$res/results.tsv
mkdir -p "$res"
: >"$tsv"
# shellcheck source=/dev/null
. "$(row_record "$row")"
live=$BUILD/out/judge-live
# (the record set RES, the row's own folder: this stage writes only $res)

failed() {
	record FAIL judge-live "$1"
	report judge-live
	exit 1
}

# The row's kernel and initramfs, as the row has them (in make check,
# built earlier in the run: scripts/stages/row.sh then only says so).
say judge-live "row $row's kernel and initramfs; log: $res/prepare.log"
"$TOP/scripts/stages/row.sh" --prepare "$row" >"$res/prepare.log" 2>&1 ||
	failed "row $row could not be built, log: $res/prepare.log"
src=$(tree_path "$BASE") || failed "no kernel tree for $BASE"

# The module, out of tree, against the row's build.
mod=$BUILD/trip
rm -rf "$mod"
mkdir -p "$mod"
cp "$TOP"/tests/trip/judge_trip.c "$TOP"/tests/trip/Kbuild "$mod/"
if ! make -C "$src" O="$OUT" M="$mod" modules >"$res/module.log" 2>&1; then
	failed "tests/trip/judge_trip.c did not build against $OUT, log: $res/module.log"
fi

# The row's initramfs with the module: a second cpio archive after it.
rm -rf "$live"
mkdir -p "$live/arch/arm/boot" "$mod/root/trip"
ln -s "$OUT/arch/arm/boot/zImage" "$live/arch/arm/boot/zImage"
cp "$mod/judge_trip.ko" "$mod/root/trip/"
(cd "$mod/root" && find . | LC_ALL=C sort | cpio -o -H newc --quiet | gzip -1) >"$mod/trip.cpio.gz"
cat "$OUT/rootfs.cpio.gz" "$mod/trip.cpio.gz" >"$live/rootfs.cpio.gz"

# One short kselftest after the trips (the policy's switches, a few
# seconds): the run must get to its end, so that what fails is the judge's
# reading of the log, not the boot.
BOOT_DT=${DT_FRAGMENT:-} timed judge-live boot "$TOP/scripts/stages/boot.sh" "$live" "$res" "$QEMU_OPTS" \
	"$PARAMS JUDGE_TRIP=slub,refcount,list,caller,oom KSELFTEST_TESTS=arm:ioremap_ram_policy.sh" ||
	failed "the boot stage failed, log: $res/console.log"

"$TOP/tests/judge/fixtures.py" --kunit-dir "$(kunit_dir)" --want "$TOP/tests/judge/live/trip.want" \
	--console "$res/console.log" >>"$tsv" 2>"$res/fixtures.err" || true
grep -q 'live/' "$tsv" || record FAIL judge-live "tests/judge/fixtures.py answered nothing: $(tail -n 1 "$res/fixtures.err")"
report judge-live
