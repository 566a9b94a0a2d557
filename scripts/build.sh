#!/bin/bash
# Stage "build": configure and build one kernel (zImage + modules).
#
# Usage: scripts/build.sh SRC OUT FRAGMENT...
#   The config is allnoconfig merged with the fragments (paths under configs/)
#   by scripts/kconfig/merge_config.sh.  Every symbol a fragment sets must end
#   up in the final .config, or the stage fails naming it.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

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
	run_logged build "$log" make -C "$src" O="$out" allnoconfig
	run_logged build "$log" env -C "$src" ARCH=arm scripts/kconfig/merge_config.sh \
		-O "$out" -m "$out/.config" "${frags[@]}"
	run_logged build "$log" make -C "$src" O="$out" olddefconfig
	# merge_config.sh only warns when a value does not take: make it fatal.
	# A later fragment overrides an earlier one, as in merge_config.sh.
	declare -A want=()
	while IFS= read -r line; do
		case $line in CONFIG_*=*) want[${line%%=*}]=$line ;; esac
	done < <(sed -e 's/#.*//' -e 's/[[:space:]]*$//' -e '/^$/d' "${frags[@]}")
	bad=()
	for sym in "${!want[@]}"; do
		line=${want[$sym]}
		case $line in
		*=n) if grep -q "^$sym=" "$out/.config"; then bad+=("$line"); fi ;;
		*) grep -qxF "$line" "$out/.config" || bad+=("$line") ;;
		esac
	done
	[ ${#bad[@]} -eq 0 ] ||
		die build "$log" "fragment values not in the final .config: ${bad[*]}"
	echo "$stamp" >"$out/.fragments"
fi

say build "make zImage modules ($(nproc) jobs) in $out"
run_progress build "$log" make -C "$src" O="$out" -j"$(nproc)" zImage modules
say build "done: $(du -h "$out/arch/arm/boot/zImage" | cut -f1) zImage"
