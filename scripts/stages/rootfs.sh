#!/bin/bash
# Stage "rootfs": assemble the initramfs for one built kernel.
#
# Usage: scripts/stages/rootfs.sh SRC OUT
#   SRC: the kernel tree; OUT: its build folder (O=).  Writes OUT/rootfs.cpio.gz
#   from busybox-static:armhf, the kernel's modules (modules_install + depmod)
#   and its installed kselftests (TARGETS=arm), with kselftest/init as /init,
#   the setup it shares with the LAVA guests' /init (kselftest/setup.sh) as
#   /lib/ioremap-ram/setup.sh and kselftest/suite as /usr/bin/ioremap-ram-suite.  The harness's own
#   guest test kselftest/vmap_stacks.sh (not part of the series) is
#   installed beside the series' kselftests, first in their list.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

src=$(realpath -m "${1:?usage: rootfs.sh SRC OUT}")
out=$(realpath -m "${2:?usage: rootfs.sh SRC OUT}")
log=$out/rootfs.log
: >"$log"

# busybox-static for armhf, downloaded once
bb=$BUILD/cache/busybox/bin/busybox
if [ ! -x "$bb" ]; then
	say rootfs "fetching busybox-static:armhf"
	mkdir -p "$BUILD/cache/debs"
	(cd "$BUILD/cache/debs" && apt-get download busybox-static:armhf) >>"$log" 2>&1 ||
		die rootfs "$log" "apt-get download busybox-static:armhf"
	run_logged rootfs "$log" dpkg-deb -x "$(ls "$BUILD"/cache/debs/busybox-static_*_armhf.deb)" \
		"$BUILD/cache/busybox"
fi

# The initramfs depends on the modules, the kselftests, /init and this
# script: rows that share a build share it, made once.
stamp=$({ find "$out" -path "$out/rootfs" -prune -o -name '*.ko' -printf '%P %s %T@\n' | sort
	cat "$TOP/kselftest/init" "$TOP/kselftest/setup.sh" "$TOP/kselftest/suite" \
		"$TOP/kselftest/vmap_stacks.sh" "$0" \
		"$src"/tools/testing/selftests/arm/*
} | sha1sum | cut -c1-40)
if [ -s "$out/rootfs.cpio.gz" ] && [ "$(cat "$out/rootfs.stamp" 2>/dev/null)" = "$stamp" ]; then
	say rootfs "$(du -h "$out/rootfs.cpio.gz" | cut -f1) initramfs, unchanged"
	exit 0
fi
rm -f "$out/rootfs.stamp"

root=$out/rootfs
rm -rf "$root"
mkdir -p "$root"/{bin,sbin,usr/bin,usr/sbin,proc,sys,dev,tmp,run,kselftest}
cp "$bb" "$root/bin/busybox"
ln -s busybox "$root/bin/sh"
install -m 755 "$TOP/kselftest/init" "$root/init"
install -D -m 644 "$TOP/kselftest/setup.sh" "$root/lib/ioremap-ram/setup.sh"
install -m 755 "$TOP/kselftest/suite" "$root/usr/bin/ioremap-ram-suite"

say rootfs "modules_install and depmod"
run_logged rootfs "$log" make -C "$src" O="$out" INSTALL_MOD_PATH="$root" \
	INSTALL_MOD_STRIP=1 modules_install
rm -f "$root"/lib/modules/*/build	# a link to the host's build folder

say rootfs "installing kselftests (TARGETS=arm)"
run_logged rootfs "$log" make -C "$src/tools/testing/selftests" TARGETS=arm \
	O="$out/kselftest" INSTALL_PATH="$root/kselftest" install
[ -x "$root/kselftest/arm/ioremap_ram.sh" ] ||
	die rootfs "$log" "kselftest install did not produce arm/ioremap_ram.sh"
# vmap_stacks.sh runs first after boot (its window of the vmalloc area must
# be new): first in the list, unless the tree's own kselftests have it.
if [ ! -e "$root/kselftest/arm/vmap_stacks.sh" ]; then
	install -m 755 "$TOP/kselftest/vmap_stacks.sh" "$root/kselftest/arm/vmap_stacks.sh"
	list=$root/kselftest/kselftest-list.txt
	{ echo arm:vmap_stacks.sh; cat "$list"; } >"$list.new" && mv "$list.new" "$list"
fi

(cd "$root" && find . | LC_ALL=C sort | cpio -o -H newc --quiet | gzip -1) \
	>"$out/rootfs.cpio.gz" 2>>"$log" || die rootfs "$log" "cpio"
echo "$stamp" >"$out/rootfs.stamp"
say rootfs "$(du -h "$out/rootfs.cpio.gz" | cut -f1) initramfs"
