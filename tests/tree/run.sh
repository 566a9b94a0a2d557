#!/bin/bash
# The tree stage's own tests (scripts/stages/tree.sh, scripts/series/export-series.sh):
# a user's repository given as KERNEL_SRC is never touched.  A small git
# repository with the files tree.sh looks for stands in for a kernel tree,
# and a two-patch series for the series (a TOP of its own, so the real
# patches/ is not read).  Each case checks the user's working tree, index,
# refs, stashes, config and in-progress git am before and after.  No
# kernel is built; runs in seconds.  Results in build/results/tree/.
#
# Usage: tests/tree/run.sh
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../../scripts/lib.sh"
build_lock "$@"
scripts=$TOP/scripts

res=$BUILD/results/tree
tsv=$res/results.tsv
mkdir -p "$res"
: >"$tsv"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
log=$res/run.log
: >"$log"
# The trees go to a build folder of the tests' own.
tbuild=$tmp/build

# Fixed dates: the same tree made twice is the same commit (the fake
# series' base and the user's repository, as Debian's tarball makes one).
g() {
	GIT_AUTHOR_DATE=2000-01-01T00:00:00Z GIT_COMMITTER_DATE=2000-01-01T00:00:00Z \
		git -c user.name=Test -c user.email=test@example.org -c init.defaultBranch=master "$@"
}

# A kernel-like repository: the files tree.sh checks for, and one the
# patches change.
mkrepo() {
	mkdir -p "$1/arch/arm/mm" "$1/mm"
	printf 'VERSION = 6\n' >"$1/Makefile"
	printf 'int ioremap;\n' >"$1/arch/arm/mm/ioremap.c"
	printf 'int memblock;\n' >"$1/mm/memblock.c"
	printf 'one\ntwo\nthree\n' >"$1/lines.txt"
	g -C "$1" init -q
	g -C "$1" add -A
	g -C "$1" commit -q -m "kernel"
}

# The fake project: patches/ with a cover letter and two patches made from
# a scratch copy of the repository, and the qemu.env lib.sh reads.
top=$tmp/top
mkdir -p "$top/patches" "$top/configs"
cp "$TOP/configs/qemu.env" "$top/configs/"
mkrepo "$tmp/scratch"
sed -i 's/^two$/TWO/' "$tmp/scratch/lines.txt"
g -C "$tmp/scratch" commit -q -a -m "lines: two in capitals"
printf 'int memblock_new;\n' >>"$tmp/scratch/mm/memblock.c"
g -C "$tmp/scratch" commit -q -a -m "mm: a second patch"
g -C "$tmp/scratch" -c core.abbrev=12 format-patch -q --cover-letter --no-signature \
	--base=HEAD~2 -o "$top/patches" HEAD~2..HEAD
# A subject long enough to be folded, as git folds it.
sed -i -e 's/\*\*\* SUBJECT HERE \*\*\*/a two-patch series that stands in for the series of the\n project in its tests/' \
	-e 's/^\*\*\* BLURB HERE \*\*\*$/It stands in for the series./' "$top/patches/0000-cover-letter.patch"
(cd "$top/patches" && ls 000[1-9]-*.patch) >"$top/patches/series"

# state REPO: what the user has there: HEAD, refs, stashes, index,
# working tree (tracked and untracked), config, an am or rebase in
# progress, the worktrees.
state() {
	local r=$1
	git -C "$r" symbolic-ref -q HEAD || git -C "$r" rev-parse HEAD
	git -C "$r" for-each-ref
	git -C "$r" stash list
	git -C "$r" status --porcelain=v1 -uall 2>/dev/null || true
	git -C "$r" diff 2>/dev/null || true
	git -C "$r" diff --cached 2>/dev/null || true
	cat "$(git -C "$r" rev-parse --path-format=absolute --git-common-dir)/config"
	ls "$(git -C "$r" rev-parse --path-format=absolute --git-path rebase-apply)" 2>/dev/null || true
	git -C "$r" worktree list --porcelain | awk -v RS= -v ours="worktree $tbuild/src/" 'index($0, ours) != 1'

}

# kept REPO BEFORE: the user's state in REPO is BEFORE still; if not,
# the difference goes to the last case's output.
kept() {
	local now
	now=$(state "$1")
	[ "$now" = "$2" ] && return 0
	diff <(echo "$2") <(echo "$now") | sed 's/^/state changed: /' >>"$res/$case.out"
	return 1
}

# tree CASE SRC BASE: scripts/stages/tree.sh BASE with KERNEL_SRC=SRC, in the fake
# project; its output in $res/CASE.out, its status in $rc, the path it
# printed in $out.
tree() {
	rc=0
	case=$1
	BUILD=$tbuild KERNEL_SRC=$2 TOP=$top "$scripts/stages/tree.sh" "$3" >"$res/$1.out" 2>&1 || rc=$?
	out=$(tail -n 1 "$res/$1.out")
}

# check CASE COND DETAIL: one result.
check() {
	if [ "$2" = 0 ]; then record PASS "$1"; else record FAIL "$1" "$3 (output: $res/$case.out)"; fi
}

# applied TREE: the tree holds both patches on top of what it was made from.
applied() {
	[ "$(git -C "$1" log --format=%s -2 | tr '\n' '|')" = "mm: a second patch|lines: two in capitals|" ] &&
		grep -qx TWO "$1/lines.txt"
}

# 1. Uncommitted, staged and untracked work, a stash, a branch of the
# harness's old name: all kept, and the series applied elsewhere.
user=$tmp/user
mkrepo "$user"
g -C "$user" checkout -q -b work
g -C "$user" branch ioremap-ram
printf 'stashed\n' >>"$user/Makefile"
g -C "$user" stash -q
printf 'int edited;\n' >>"$user/mm/memblock.c"
printf 'staged\n' >>"$user/lines.txt"
g -C "$user" add lines.txt
printf 'new\n' >"$user/untracked.txt"
before=$(state "$user")
tree dirty "$user" t1
ok=1
[ "$rc" -eq 0 ] && kept "$user" "$before" && applied "$out" &&
	[ "${out#"$tbuild"/src/}" != "$out" ] && ok=0
check user-work-kept "$ok" "exit $rc, tree '$out'"

# 2. Again: the tree is used as it is, the user's state still kept.
first=$out
tree again "$user" t1
ok=1
[ "$rc" -eq 0 ] && [ "$out" = "$first" ] && grep -q 'already applied' "$res/again.out" &&
	kept "$user" "$before" && ok=0
check reused "$ok" "exit $rc, tree '$out' (first '$first')"

# 3. A change made in the harness's tree is not thrown away when the series
# changes: the stage fails and says so, the change stays.
printf 'harness edit\n' >>"$first/lines.txt"
cp -r "$top" "$tmp/top.orig"
printf '\n' >>"$top/patches/series"
tree harness-dirty "$user" t1
ok=1
[ "$rc" -ne 0 ] && grep -q 'uncommitted changes' "$res/harness-dirty.out" &&
	grep -qx 'harness edit' "$first/lines.txt" && ok=0
check harness-edit-kept "$ok" "exit $rc"
rm -rf "$top" && mv "$tmp/top.orig" "$top"

# 4. A linked worktree of the user's (its .git is a file), on a branch with
# a commit of its own: the series goes on that commit.
g -C "$user" worktree add -q -b feature "$tmp/userwt" master
printf 'feature\n' >"$tmp/userwt/feature.txt"
g -C "$tmp/userwt" add feature.txt
g -C "$tmp/userwt" commit -q -m feature
printf 'int wt_edit;\n' >>"$tmp/userwt/mm/memblock.c"
before=$(state "$user")
beforewt=$(state "$tmp/userwt")
tree worktree "$tmp/userwt" t4
ok=1
[ "$rc" -eq 0 ] && applied "$out" && [ -f "$out/feature.txt" ] &&
	kept "$user" "$before" && kept "$tmp/userwt" "$beforewt" && ok=0
check worktree "$ok" "exit $rc, tree '$out'"

# 5. A clone with --separate-git-dir, and a bare repository.
git clone -q --separate-git-dir="$tmp/sep.git" "$tmp/scratch" "$tmp/sep" 2>>"$log"
g -C "$tmp/sep" reset -q --hard HEAD~2
before=$(state "$tmp/sep")
tree separate "$tmp/sep" t5
ok=1
[ "$rc" -eq 0 ] && applied "$out" && kept "$tmp/sep" "$before" && ok=0
check separate-git-dir "$ok" "exit $rc, tree '$out'"
git clone -q --bare "$tmp/sep" "$tmp/bare.git" 2>>"$log"
tree bare "$tmp/bare.git" t5b
ok=1
[ "$rc" -eq 0 ] && applied "$out" && ok=0
check bare "$ok" "exit $rc, tree '$out'"

# 6. A git am of the user's in progress (stopped on a conflict) is left
# as it is.
amrepo=$tmp/am
mkrepo "$amrepo"
mkrepo "$tmp/am-scratch"
sed -i 's/6/7/' "$tmp/am-scratch/Makefile"
g -C "$tmp/am-scratch" commit -q -a -m "Makefile: 7"
g -C "$tmp/am-scratch" format-patch -q -o "$tmp/am-patch" HEAD~1
sed -i 's/6/5/' "$amrepo/Makefile"
g -C "$amrepo" commit -q -a -m "Makefile: 5"
g -C "$amrepo" am -q "$tmp/am-patch/"*.patch >>"$log" 2>&1 || true
before=$(state "$amrepo")
ok=1
if [ -d "$(git -C "$amrepo" rev-parse --path-format=absolute --git-path rebase-apply)" ]; then
	tree am-in-progress "$amrepo" t6
	[ "$rc" -eq 0 ] && applied "$out" && kept "$amrepo" "$before" &&
		[ -d "$(git -C "$amrepo" rev-parse --path-format=absolute --git-path rebase-apply)" ] && ok=0
fi
check am-in-progress "$ok" "exit ${rc:-?}: the user's git am (rebase-apply) or state changed"

# 7. Bad input: not a git repository, not a kernel tree, a series that does
# not apply.  Each fails, says which, and leaves nothing behind.
mkdir -p "$tmp/plain"
tree not-git "$tmp/plain" t7
ok=1
[ "$rc" -ne 0 ] && grep -q "KERNEL_SRC=$tmp/plain is not a git repository" "$res/not-git.out" &&
	! ls -d "$tbuild"/src/kernel-src-t7-* >/dev/null 2>&1 && ok=0
check not-a-repository "$ok" "exit $rc"

mkdir -p "$tmp/notkernel"
printf 'x\n' >"$tmp/notkernel/README"
g -C "$tmp/notkernel" init -q
g -C "$tmp/notkernel" add -A
g -C "$tmp/notkernel" commit -q -m x
before=$(state "$tmp/notkernel")
tree not-kernel "$tmp/notkernel" t8
ok=1
[ "$rc" -ne 0 ] && grep -q 'is not a Linux kernel tree: .* has no Makefile' "$res/not-kernel.out" &&
	kept "$tmp/notkernel" "$before" && ! ls -d "$tbuild"/src/kernel-src-t8-* >/dev/null 2>&1 && ok=0
check not-a-kernel-tree "$ok" "exit $rc"

conflict=$tmp/conflict
mkrepo "$conflict"
printf 'int memblock_other;\n' >>"$conflict/mm/memblock.c"
g -C "$conflict" commit -q -a -m "mm: something else"
printf 'int edited;\n' >>"$conflict/Makefile"
before=$(state "$conflict")
tree conflict "$conflict" t9
ok=1
[ "$rc" -ne 0 ] && grep -q 'the series does not apply to .*: 0002-mm-a-second-patch.patch failed' "$res/conflict.out" &&
	kept "$conflict" "$before" && ! ls -d "$tbuild"/src/kernel-src-t9-* >/dev/null 2>&1 && ok=0
check does-not-apply "$ok" "exit $rc"

# 8. make export from the tree, with no change made there, gives back
# patches/ byte for byte.
exp=$tmp/export
cp -r "$top" "$exp"
tree export "$user" t10
ok=1
if [ "$rc" -eq 0 ] && TOP=$exp "$scripts/series/export-series.sh" "$out" >>"$res/export.out" 2>&1; then
	ok=0
	diff <(sed '/^#/d' "$top/patches/series") <(sed '/^#/d' "$exp/patches/series") >>"$res/export.out" || ok=1
	for f in "$top"/patches/*.patch; do
		diff "$f" "$exp/patches/${f##*/}" >>"$res/export.out" 2>&1 || ok=1
	done
fi
check export-round-trip "$ok" "exit $rc, or patches differ byte for byte"

report tree
