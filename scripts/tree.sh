#!/bin/bash
# Stage "tree": prepare a kernel git tree for BASE and apply the series.
#
# Usage: scripts/tree.sh BASE
#   Without KERNEL_SRC the tree is build/src/linux-BASE, made from Debian's
#   linux-source-BASE tarball with one base commit tagged "base".  With
#   KERNEL_SRC=/path/to/git/tree that tree is used: the series is applied on
#   a branch "ioremap-ram" made from its HEAD (or from "base" if tagged).
#   Prints the tree's path on the last line of stdout.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

base=${1:?usage: tree.sh BASE}
# Progress goes to stderr; stdout carries only the tree's path.
exec 3>&1 1>&2
log=$BUILD/logs/tree-$base.log
mkdir -p "$BUILD/logs" "$BUILD/src"
# One tree.sh per base at a time (the rows and the gates both ask for it).
exec 8>"$BUILD/src/.lock-$base"
flock 8
: >"$log"

# A fixed identity and date make the base commit the same on every machine
# for the same tarball, so that the cover letter's base-commit means something.
git_q() {
	GIT_AUTHOR_DATE="2000-01-01T00:00:00Z" GIT_COMMITTER_DATE="2000-01-01T00:00:00Z" \
		git -C "$src" -c user.name="Debian linux-source" -c user.email=linux-source@debian.invalid \
			-c gc.auto=0 "$@"
}

if [ -n "${KERNEL_SRC:-}" ]; then
	src=$KERNEL_SRC
	[ -d "$src/.git" ] || die tree "" "KERNEL_SRC=$src is not a git tree"
else
	src=$BUILD/src/linux-$base
	tarball=/usr/src/linux-source-$base.tar.xz
	if ! git -C "$src" rev-parse -q --verify refs/tags/base >/dev/null 2>&1; then
		[ -f "$tarball" ] || die tree "" "$tarball missing (run scripts/deps.sh)"
		say tree "extracting $tarball"
		rm -rf "$src" "$src.tmp"
		mkdir -p "$src.tmp"
		run_logged tree "$log" tar -C "$src.tmp" -xf "$tarball" --strip-components=1
		mv "$src.tmp" "$src"
		say tree "making the base commit (git add -f -A)"
		run_logged tree "$log" git_q init -q -b base-branch
		run_logged tree "$log" git_q add -f -A
		run_logged tree "$log" git_q commit -q -m "Debian linux-source-$base"
		run_logged tree "$log" git_q tag base
		# No automatic gc: git am would repack 80,000 loose objects (minutes).
		git -C "$src" config gc.auto 0
	fi
fi

# The series' fingerprint: skip re-applying when the tree already has it.
stamp=$(series_stamp)
start=base
git -C "$src" rev-parse -q --verify refs/tags/base >/dev/null || start=HEAD
if [ "$(git -C "$src" config --get ioremap-ram.stamp || true)" = "$stamp" ] &&
	[ "$(git -C "$src" rev-parse --abbrev-ref HEAD)" = ioremap-ram ] &&
	git -C "$src" diff --quiet HEAD; then
	say tree "$src: series already applied"
else
	say tree "applying the series to $src with git am"
	[ "$start" = base ] || start=$(git -C "$src" rev-parse HEAD)
	git_q am --abort >/dev/null 2>&1 || true
	run_logged tree "$log" git_q checkout -q -f -B ioremap-ram "$start"
	mapfile -t list < <(series_list "$src" "$start" 2>>"$log")
	if grep -q '^leaving out' "$log"; then
		say tree "$(grep '^leaving out' "$log" | head -n 1)"
	fi
	# One git am for the whole series: each call refreshes the index of
	# the whole tree, which costs ~20 s on a kernel tree.
	if ! git_q am -q "${list[@]/#/$TOP/patches/}" >>"$log" 2>&1; then
		failed=$(sed -n 's/^Patch failed at [0-9]* //p' "$log" | tail -n 1)
		git_q am --abort >/dev/null 2>&1 || true
		die tree "$log" "git am failed on $base${failed:+ at: $failed}"
	fi
	# The cover letter's subject and blurb become the branch description,
	# which scripts/export-series.sh turns back into the cover letter.
	cover=$TOP/patches/0000-cover-letter.patch
	if [ -f "$cover" ]; then
		awk '/^Subject: / { sub(/^Subject: \[PATCH[^]]*\] /, ""); print; print ""; next }
			/^$/ && !body { body = 1; next }
			body && /^[^ ].* \([0-9]+\):$/ { exit }
			body { print }' "$cover" >"$BUILD/cover-description.txt"
		git -C "$src" config branch.ioremap-ram.description "$(cat "$BUILD/cover-description.txt")"
	fi
	git -C "$src" config ioremap-ram.stamp "$stamp"
fi
echo "$src" >&3
