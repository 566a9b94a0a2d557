# shellcheck shell=bash
# Helpers of the LAVA scripts (scripts/lava/*.sh).  Sourced after lib.sh.

# LAVA's Python modules are Debian's, for Debian's interpreter (a pyenv
# python3 may come first on PATH).
export LAVA_PY=/usr/bin/python3

# lava_install LOG PKG...: install those of the Debian packages PKG...
# that are missing (lib.sh pkgs_install, as scripts/stages/deps.sh does;
# its progress on stderr).  Returns 1, with the reason in pkgs_why, when
# they cannot be installed.
lava_install() {
	local log=$1 missing
	shift
	mapfile -t missing < <(pkgs_missing "$@")
	pkgs_install lava "$log" --no-install-recommends -- "${missing[@]}" >&2
}

# lava_device_types: print the folder of LAVA's device-type templates
# (qemu.jinja2, beaglebone-black.jinja2, ...).  They ship in lava-server,
# whose dependencies (Django, PostgreSQL) a dispatcher does not need: the
# package is downloaded and unpacked under $BUILD/cache, not installed.
# Returns 1, with the reason on stdout, when that fails.
lava_device_types() {
	local dir=$BUILD/cache/lava-server log=$BUILD/logs/lava-server.log
	local types=$dir/root/usr/share/lava-server/device-types
	if [ ! -f "$types/qemu.jinja2" ]; then
		mkdir -p "$dir" "$BUILD/logs"
		rm -rf "$dir/root" "$dir"/*.deb
		if ! (cd "$dir" && apt-get download lava-server) >"$log" 2>&1 ||
			! dpkg-deb -x "$(ls "$dir"/lava-server_*.deb)" "$dir/root" >>"$log" 2>&1 ||
			[ ! -f "$types/qemu.jinja2" ]; then
			echo "no device-type templates from lava-server: $(tail -n 1 "$log") (log: $log)"
			return 1
		fi
	fi
	echo "$types"
}
