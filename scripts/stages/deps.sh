#!/bin/bash
# Stage "deps": install the Debian packages the harness needs, if missing.
#
# Usage: scripts/stages/deps.sh [BASE...]	(default: every base of configs/matrix.tsv)
# Needs root (or sudo) only when something is missing.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
build_lock "$@"

log=$BUILD/logs/deps.log
mkdir -p "$BUILD/logs"

# The matrix is read with python3 (scripts/harness.py): that first.
if ! command -v python3 >/dev/null; then
	pkgs_install deps "$log" --no-install-recommends -- python3 python3-yaml ||
		die deps "$log" "$pkgs_why"
fi
bases=("$@")
if [ ${#bases[@]} -eq 0 ]; then
	bases_text=$(matrix bases 2>&1) || die deps "" "configs/matrix.tsv: $bases_text"
	mapfile -t bases <<<"$bases_text"
fi

# (gpg and gpg-agent: tests/py/test_pkgs_fetch.py signs its stand-in archive.)
pkgs=(make gcc git bc bison flex libssl-dev libelf-dev kmod cpio rsync xz-utils
	gzip python3 python3-yaml gcc-arm-linux-gnueabihf qemu-system-arm shellcheck quilt coccinelle
	sparse python3-sphinx ccache device-tree-compiler liburcu-dev gpg gpg-agent)
[ -n "${KERNEL_SRC:-}" ] || for b in "${bases[@]}"; do pkgs+=("linux-source-$b"); done

# The memblock simulator's run with a 32-bit phys_addr_t, as non-LPAE ARM
# has (scripts/gates/memblock-test.sh): an i386 compiler and liburcu, and
# qemu-user to run it (this kernel may run no i386 binary itself).  Not
# gcc-multilib, which removes the ARM cross compiler.  Optional: without
# them that run is skipped, saying why.
pkgs32=(crossbuild-essential-i386 qemu-user liburcu-dev:i386)

mapfile -t missing < <(pkgs_missing "${pkgs[@]}")
mapfile -t missing32 < <(pkgs_missing "${pkgs32[@]}")
# Failed on this machine before: not again at every make.
nope32=$BUILD/cache/deps-32bit-failed
[ ! -f "$nope32" ] || missing32=()
armhf=1
grep -qx armhf <<<"$(dpkg --print-foreign-architectures)" || armhf=0
i386=1
grep -qx i386 <<<"$(dpkg --print-foreign-architectures)" || i386=0

if [ ${#missing[@]} -eq 0 ] && [ $armhf -eq 1 ] && [ ${#missing32[@]} -eq 0 ]; then
	say deps "all packages present"
	exit 0
fi

sudo=$(pkgs_sudo) ||
	die deps "" "not root and no sudo: install ${missing[*]} (and dpkg --add-architecture armhf)"
: >"$log"

# A base whose linux-source-BASE the machine's own sources do not offer
# (no candidate in their indexes, which are updated first only if one of
# its suites has none): that package alone, from the first Debian suite
# that has it (lib.sh pkgs_fetch), fetched before anything is installed.
own=() debs=()
for p in "${missing[@]}"; do
	if [ "${p#linux-source-}" != "$p" ]; then
		[ -z "$(pkgs_unindexed)" ] || pkgs_update deps "$log"
		if [ -z "$(pkgs_candidate "$p")" ]; then
			pkgs_fetch deps "$log" "$p" || die deps "" "$pkgs_why"
			say deps "$p $pkgs_version: from Debian $pkgs_suite (the machine's sources do not have it); nothing else is taken from $pkgs_suite"
			debs+=("$pkgs_deb")
			continue
		fi
	fi
	own+=("$p")
done
missing=("${own[@]}")
# A new architecture needs its indexes: the next update is a real one.
# shellcheck disable=SC2086 # $sudo: "sudo" or nothing
if [ $armhf -eq 0 ]; then
	run_logged deps "$log" $sudo dpkg --add-architecture armhf
	pkgs_updated=""
fi
# shellcheck disable=SC2086
if [ $i386 -eq 0 ] && [ ${#missing32[@]} -gt 0 ]; then
	$sudo dpkg --add-architecture i386 >>"$log" 2>&1 || true
	pkgs_updated=""
fi
if [ ${#missing[@]} -gt 0 ]; then
	pkgs_install deps "$log" --no-install-recommends -- "${missing[@]}" || die deps "$log" "$pkgs_why"
elif [ $armhf -eq 0 ]; then
	# the armhf indexes, for busybox-static:armhf (scripts/stages/rootfs.sh)
	pkgs_update deps "$log"
fi
# (The file is not kept: dpkg has the package.)
for deb in "${debs[@]}"; do
	pkgs_install_deb deps "$log" "$deb" || die deps "" "${deb##*/}: $pkgs_why"
	rm -f "$deb"
done
# (with its recommends: the cross compiler's C library; --no-remove: never
# at the cost of another package)
if [ ${#missing32[@]} -gt 0 ] && ! pkgs_install deps "$log" --no-remove -- "${missing32[@]}"; then
	say deps "could not install ${missing32[*]}: the memblock simulator's 32-bit run will be skipped (log: $log; rm $nope32 to try again)"
	mkdir -p "${nope32%/*}"
	echo "${missing32[*]}" >"$nope32"
fi
say deps "done"
