#!/bin/bash
# make bench: the remap pool's alloc+free against raw genalloc, measured in
# one guest booted with -icount (the guest clock counts instructions, so
# the figures repeat from boot to boot), as medians and ratios.
# Benchmarks are not tests: nothing here asserts a time.
#
# Usage: scripts/bench.sh [ROW]	(default: 6.12-pool-cmdline, for its kernel)
set -euo pipefail
. "$(dirname "$0")/lib.sh"

row=${1:-6.12-pool-cmdline}
base=$(row_field "$row" base) || die bench "" "no row '$row' in configs/matrix.tsv"
read -ra frags <<<"$(row_field "$row" fragments)"
key=$(build_key "$base" "${frags[@]}")
out=$BUILD/out/$key
res=$BUILD/results/bench
mkdir -p "$res"

src=$("$TOP/scripts/tree.sh" "$base" | tail -n 1)
SEEDS=$(build_seeds "$base" "$key") "$TOP/scripts/build.sh" "$src" "$out" "${frags[@]}"
"$TOP/scripts/rootfs.sh" "$src" "$out"

say bench "building bench/ioremap_pool_bench.ko out of tree"
run_logged bench "$res/build.log" make -C "$src" O="$out" M="$TOP/bench" modules
root=$res/rootfs
rm -rf "$root"
cp -a "$out/rootfs" "$root"
mkdir -p "$root/bench"
cp "$TOP/bench/ioremap_pool_bench.ko" "$root/bench/"
(cd "$root" && find . | LC_ALL=C sort | cpio -o -H newc --quiet | gzip -1) >"$res/rootfs.cpio.gz"

# boot.sh boots OUT's zImage with OUT's rootfs: give it a folder with both.
guest=$res/guest
mkdir -p "$guest/arch/arm/boot"
cp "$out/arch/arm/boot/zImage" "$guest/arch/arm/boot/"
cp "$res/rootfs.cpio.gz" "$guest/"
"$TOP/scripts/boot.sh" "$guest" "$res" "-m 1024 -smp 1 -icount shift=0,sleep=off" \
	"ioremap_pool=16M bench=1"

# busybox insmod tries a second system call when the first fails, so the
# module (which fails on purpose) runs twice: keep the first run.
tr -d '\r' <"$res/console.log" | sed -n 's/.*ioremap_pool_bench: bench: //p' |
	awk '!seen[$1]++' >"$res/bench.txt"
[ -s "$res/bench.txt" ] || die bench "$res/console.log" "no bench lines in the console log"
echo
echo "Remap pool: ioremap_pool_alloc()+ioremap_pool_free() against gen_pool_alloc()+gen_pool_free()"
echo "(kernel of row $row, QEMU -smp 1 -icount shift=0: 1 ns = 1 instruction; median of 5 runs of 200)"
printf '%10s %12s %12s %8s\n' size pool_ns genalloc_ns ratio
while read -r size p q ratio; do
	printf '%10s %12s %12s %8s\n' "$size" "$p" "$q" "$ratio"
done <"$res/bench.txt"
