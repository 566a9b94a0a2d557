#!/bin/bash
# Stage "tree": prepare a kernel git tree for BASE and apply the series.
#
# Usage: scripts/stages/tree.sh BASE
#   Without KERNEL_SRC the tree is build/src/linux-BASE, made from Debian's
#   linux-source-BASE tarball with one base commit tagged "base"; the series
#   is applied on its branch "ioremap-ram".
#   With KERNEL_SRC=/path/to/a/git/repository (a clone, a worktree, a
#   --separate-git-dir clone, a bare repository: whatever git rev-parse
#   takes) the series is applied to its commit tagged "base", or else its
#   HEAD, in a detached git worktree of that repository under build/src
#   (lib.sh tree_path).  The user's checkout, index, branches, stashes,
#   config and any git am or rebase in progress there are never touched.
#   A tree that already holds this series on the same commit is used as it
#   is (with any change made there); one with uncommitted changes is never
#   overwritten: the stage fails and says so.  If the series does not apply,
#   the stage fails naming the patch and leaves no half-applied tree.
#   Prints the tree's path, the only line on stdout (progress goes to stderr).
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
build_lock "$@"

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

src=$(tree_path "$base") ||
	die tree "" "KERNEL_SRC=$KERNEL_SRC is not a git repository (git rev-parse finds none there)"
if [ -n "${KERNEL_SRC:-}" ]; then
	user=$KERNEL_SRC
	start=$(git -C "$user" rev-parse -q --verify 'refs/tags/base^{commit}' ||
		git -C "$user" rev-parse -q --verify 'HEAD^{commit}') ||
		die tree "" "KERNEL_SRC=$user has no commit to apply the series to (no tag base, no HEAD)"
	for f in Makefile arch/arm/mm/ioremap.c mm/memblock.c; do
		git -C "$user" cat-file -e "$start:$f" 2>/dev/null ||
			die tree "" "KERNEL_SRC=$user is not a Linux kernel tree: $(git -C "$user" rev-parse --short "$start") has no $f"
	done
else
	tarball=/usr/src/linux-source-$base.tar.xz
	if ! git -C "$src" rev-parse -q --verify refs/tags/base >/dev/null 2>&1; then
		[ -f "$tarball" ] || die tree "" "$tarball missing (run scripts/stages/deps.sh)"
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
	start=$(git -C "$src" rev-parse 'base^{commit}')
fi

# The series' fingerprint and the commit under it: the tree is used as it
# is when it holds both already.
stamp="$(series_stamp) $start"
if [ -e "$src/.git" ] && [ "$(tree_note "$src" stamp || true)" = "$stamp" ]; then
	if git -C "$src" diff --quiet HEAD; then
		say tree "$src: series already applied"
	else
		say tree "$src: series already applied; its uncommitted changes are built as they are"
	fi
	echo "$src" >&3
	exit 0
fi

if [ -e "$src/.git" ]; then
	# The harness's own tree: an am of an earlier run that was stopped is
	# its own, and is undone; changes someone made there are not.  A run
	# stopped in the middle of it (noted "applying") may have left git's
	# index lock and a half-applied patch: both are the harness's.
	applying=$(tree_note "$src" applying || true)
	if [ -n "$applying" ]; then
		say tree "$src: undoing the series' application of a run that was stopped"
		rm -f "$(git -C "$src" rev-parse --path-format=absolute --git-path index.lock)"
	fi
	git -C "$src" am --abort >/dev/null 2>&1 || true
	if [ -n "$applying" ]; then
		run_logged tree "$log" git -C "$src" reset -q --hard
		tree_note "$src" applying ""
	fi
	if ! git -C "$src" diff --quiet HEAD; then
		die tree "" "$src has uncommitted changes and the series (or the commit under it) changed:" \
			"commit them and run 'make export', or discard them (git -C $src reset --hard), then run again"
	fi
	tree_note "$src" stamp ""
	if [ -n "${KERNEL_SRC:-}" ]; then
		run_logged tree "$log" git -C "$src" checkout -q --detach "$start"
	else
		run_logged tree "$log" git -C "$src" checkout -q -B ioremap-ram "$start"
	fi
elif [ -n "${KERNEL_SRC:-}" ]; then
	say tree "a worktree of $user at $(git -C "$user" rev-parse --short "$start"): $src"
	# -f: the path may be registered still, from a build folder removed since.
	run_logged tree "$log" git -C "$user" worktree add -q -f --detach "$src" "$start"
fi

say tree "applying the series to $src with git am"
mapfile -t list < <(series_list "$src" "$start" 2>>"$log")
if grep -q '^leaving out' "$log"; then
	say tree "$(grep -m1 '^leaving out' "$log")"
fi
# One git am for the whole series: each call refreshes the index of the
# whole tree, which costs ~20 s on a kernel tree.
tree_note "$src" applying "$(date '+%F %T')"
if ! git_q am -q "${list[@]/#/$TOP/patches/}" >>"$log" 2>&1; then
	n=$(sed -n 's/^Patch failed at \([0-9]*\) .*/\1/p' "$log" | tail -n 1)
	failed=${n:+${list[10#$n - 1]}}
	git_q am --abort >/dev/null 2>&1 || true
	if [ -n "${KERNEL_SRC:-}" ]; then
		git -C "$user" worktree remove --force "$src" >>"$log" 2>&1 || true
	fi
	die tree "$log" "the series does not apply to $(git -C "${user:-$src}" rev-parse --short "$start")" \
		"(base $base)${failed:+: $failed failed}; no tree is left half-applied"
fi
# The cover letter's subject and blurb, which scripts/series/export-series.sh
# writes back into the cover letter.
cover=$TOP/patches/0000-cover-letter.patch
if [ -f "$cover" ]; then
	# (A long subject is folded: its continuation lines start with a space.)
	tree_note "$src" description "$(awk '
		!body && /^Subject: / { s = $0; sub(/^Subject: \[PATCH[^]]*\] /, "", s); subj = 1; next }
		!body && subj && /^ / { s = s $0; next }
		!body { subj = 0 }
		!body && /^$/ { body = 1; print s; print ""; next }
		body && /^[^ ].* \([0-9]+\):$/ { exit }
		body { print }' "$cover")"
fi
tree_note "$src" base "$start"
tree_note "$src" applying ""
tree_note "$src" stamp "$stamp"
echo "$src" >&3
