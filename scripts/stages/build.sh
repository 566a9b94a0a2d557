#!/bin/bash
# Stage "build": configure and build one kernel (zImage + modules).
#
# Usage: scripts/stages/build.sh SRC OUT FRAGMENT...
#   The config is allnoconfig with the fragments (paths under configs/) as
#   KCONFIG_ALLCONFIG (scripts/kconfig/merge_config.sh -n): a symbol no
#   fragment names is off wherever Kconfig allows it.  Every symbol a
#   fragment sets must end up in the final .config, or the stage fails
#   naming it.
#   A first build in OUT started by the harness (scripts/stages/row.sh and
#   bench/run.sh set SEEDS="DIR...") starts from a copy of the objects of
#   the SEEDS folder (builds of the same tree) whose .config differs least
#   from OUT's: Kbuild then rebuilds only what the config changes touch.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

src=$(realpath -m "${1:?usage: build.sh SRC OUT FRAGMENT...}")
out=$(realpath -m "${2:?usage: build.sh SRC OUT FRAGMENT...}")
shift 2
frags=()
for f in "$@"; do frags+=("$TOP/configs/$f"); done
log=$out/build.log
mkdir -p "$out"
: >"$log"

stamp=$(cat "${frags[@]}" | sha1sum | cut -c1-40)
if [ ! -f "$out/.config" ] || [ "$(cat "$out/.fragments" 2>/dev/null)" != "$stamp" ]; then
	say build "configuring: allnoconfig + $*"
	rm -f "$out/.config"
	run_logged build "$log" env -C "$src" ARCH=arm scripts/kconfig/merge_config.sh -n \
		-O "$out" "${frags[@]}"
	# merge_config.sh only warns when a value does not take: make it fatal.
	bad=$(fragments_not_taken "$out/.config" "${frags[@]}")
	[ -z "$bad" ] || die build "$log" "fragment values not in the final .config: $bad"
	echo "$stamp" >"$out/.fragments"
fi

# Seed a first build from the closest other build of the same tree.
if [ ! -f "$out/vmlinux" ] && [ -n "${SEEDS:-}" ]; then
	best="" best_n=""
	for seed in $SEEDS; do
		if [ ! -f "$seed/vmlinux" ] || [ ! -f "$seed/.config" ]; then
			continue
		fi
		n=$(diff <(grep '^CONFIG_' "$out/.config" | sort) \
			<(grep '^CONFIG_' "$seed/.config" | sort) | grep -c '^[<>]' || true)
		if [ -z "$best_n" ] || [ "$n" -lt "$best_n" ]; then
			best=$seed best_n=$n
		fi
	done
	if [ -n "$best" ]; then
		say build "seeding from ${best##*/} ($best_n config lines differ)"
		cp "$out/.config" "$out/.config.own"
		tar -C "$best" --exclude=./build.log --exclude='./rootfs*' -cf - . |
			tar -C "$out" -xf -
		mv "$out/.config.own" "$out/.config"
		echo "$stamp" >"$out/.fragments"
	fi
fi

say build "make zImage modules ($(nproc) jobs) in $out"
run_progress build "$log" make -C "$src" O="$out" -j"$(nproc)" zImage modules
# The zImage must carry the kernel just built: its piggy.o embeds the
# compressed Image (.incbin), which a stale object (a compiler cache, a
# copied seed) would replace with an earlier build's.  A stale piggy.o is
# newer than piggy_data, so make would keep it: remove it and build once
# more, and fail if that does not mend it.
boot=$out/arch/arm/boot/compressed
piggy_ok() {
	run_logged build "$log" "${CROSS_COMPILE}objcopy" -O binary -j .piggydata \
		"$boot/piggy.o" "$boot/piggy.check"
	cmp -s "$boot/piggy.check" "$boot/piggy_data"
}
if ! piggy_ok; then
	say build "piggy.o does not embed this build's kernel: rebuilding the zImage"
	rm -f "$boot/piggy.o" "$out/arch/arm/boot/zImage"
	run_progress build "$log" make -C "$src" O="$out" -j"$(nproc)" zImage
	piggy_ok || die build "$log" "$boot/piggy.o does not embed this build's kernel ($boot/piggy_data) even rebuilt"
fi
rm -f "$boot/piggy.check"
say build "done: $(du -h "$out/arch/arm/boot/zImage" | cut -f1) zImage"
