#!/bin/bash
# Stage "deps": install the Debian packages the harness needs, if missing.
#
# Usage: scripts/deps.sh [BASE...]	(default: every base of configs/matrix.tsv)
# Needs root (or sudo) only when something is missing.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

log=$BUILD/logs/deps.log
mkdir -p "$BUILD/logs"

bases=("$@")
if [ ${#bases[@]} -eq 0 ]; then
	mapfile -t bases < <(for r in $(matrix_rows); do row_field "$r" base; done | sort -u)
fi

pkgs=(make gcc git bc bison flex libssl-dev libelf-dev kmod cpio rsync xz-utils
	gzip python3 python3-yaml gcc-arm-linux-gnueabihf qemu-system-arm shellcheck quilt coccinelle
	sparse python3-sphinx ccache device-tree-compiler liburcu-dev)
[ -n "${KERNEL_SRC:-}" ] || for b in "${bases[@]}"; do pkgs+=("linux-source-$b"); done

missing=()
for p in "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing+=("$p")
done
armhf=1
dpkg --print-foreign-architectures | grep -qx armhf || armhf=0

if [ ${#missing[@]} -eq 0 ] && [ $armhf -eq 1 ]; then
	say deps "all packages present"
	exit 0
fi

sudo=()
if [ "$(id -u)" -ne 0 ]; then
	command -v sudo >/dev/null ||
		die deps "" "not root and no sudo: install ${missing[*]} (and dpkg --add-architecture armhf)"
	sudo=(sudo)
fi
say deps "installing: ${missing[*]:-armhf architecture}"
: >"$log"
[ $armhf -eq 1 ] || run_logged deps "$log" "${sudo[@]}" dpkg --add-architecture armhf
# A mirror in the middle of a sync fails one index (apt-get update exits
# 100) while the others are fine: try again, then install from what came.
if ! "${sudo[@]}" apt-get update >>"$log" 2>&1 && ! "${sudo[@]}" apt-get update >>"$log" 2>&1; then
	say deps "apt-get update reported errors ($(grep -m1 '^E: ' "$log" | cut -c1-100)); installing from the indexes it got"
fi
if [ ${#missing[@]} -gt 0 ]; then
	run_progress deps "$log" "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive \
		apt-get install -y --no-install-recommends "${missing[@]}"
fi
say deps "done"
