#!/bin/bash
# The artifacts that the qemu LAVA jobs deploy, from the harness's builds:
# for each build of the rows given (default: every row whose build exists),
# $BUILD/lava/artifacts/BUILD_KEY/qemu/ gets
#   zImage          the kernel, as built
#   modules.tar.xz  lib/modules/VERSION of the build's initramfs
#   rootfs.cpio.gz  that initramfs without the modules, and with
#                   configs/lava/init as /init: a shell on the console for
#                   LAVA instead of running the suite and powering off
#   SHA256SUMS
# Publish $BUILD/lava/artifacts at ARTIFACTS_URL for a LAVA lab to fetch.
#
# Usage: scripts/lava/artifacts.sh [ROW...]
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
build_lock "$@"

rows=("$@")
explicit=${#rows[@]}
[ "$explicit" -gt 0 ] || mapfile -t rows < <(matrix rows)
log=$BUILD/logs/lava-artifacts.log
mkdir -p "$BUILD/logs" "$BUILD/lava"
: >"$log"

declare -A done_keys=()
tmp=""
trap 'rm -rf "$tmp"' EXIT
for row in "${rows[@]}"; do
	# shellcheck source=/dev/null
	. "$(row_record "$row")"
	key=$KEY
	[ -z "${done_keys[$key]:-}" ] || continue
	done_keys[$key]=1
	out=$OUT
	if [ ! -f "$out/arch/arm/boot/zImage" ] || [ ! -f "$out/rootfs.cpio.gz" ]; then
		[ "$explicit" -eq 0 ] || die lava-art "" "$key is not built: make run ROW=$row first"
		say lava-art "$key: not built, skipped"
		continue
	fi
	dest=$BUILD/lava/artifacts/$key/qemu
	if [ -f "$dest/SHA256SUMS" ] && [ "$dest/SHA256SUMS" -nt "$out/rootfs.cpio.gz" ] &&
		[ "$dest/SHA256SUMS" -nt "$out/arch/arm/boot/zImage" ] &&
		[ "$dest/SHA256SUMS" -nt "$TOP/configs/lava/init" ]; then
		say lava-art "$key: up to date"
		continue
	fi
	tmp=$(mktemp -d "$BUILD/lava/.artifacts.XXXXXX")
	mkdir -p "$tmp/root" "$tmp/qemu"
	(cd "$tmp/root" && gzip -dc "$out/rootfs.cpio.gz" | cpio -idm --quiet) >>"$log" 2>&1 ||
		die lava-art "$log" "unpacking $out/rootfs.cpio.gz"
	[ -d "$tmp/root/lib/modules" ] || die lava-art "" "$out/rootfs.cpio.gz has no lib/modules"
	run_logged lava-art "$log" tar -C "$tmp/root" --owner=0 --group=0 -cJf "$tmp/qemu/modules.tar.xz" lib/modules
	rm -rf "$tmp/root/lib/modules"
	install -m 755 "$TOP/configs/lava/init" "$tmp/root/init"
	(cd "$tmp/root" && find . | LC_ALL=C sort | cpio -o -H newc --quiet | gzip -1) \
		>"$tmp/qemu/rootfs.cpio.gz" 2>>"$log" || die lava-art "$log" "cpio"
	cp "$out/arch/arm/boot/zImage" "$tmp/qemu/zImage"
	(cd "$tmp/qemu" && sha256sum zImage modules.tar.xz rootfs.cpio.gz >SHA256SUMS)
	rm -rf "$dest"
	mkdir -p "${dest%/*}"
	mv "$tmp/qemu" "$dest"
	rm -rf "$tmp"
	tmp=""
	say lava-art "$key: $(du -sh "$dest" | cut -f1) in $dest"
done
