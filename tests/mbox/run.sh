#!/bin/bash
# make mbox's tests (scripts/series/mbox.sh), on the real series, with a stand-in
# sender (GIT_CONFIG_* in the environment, as git config user.name and
# user.email would give them):
#   - refusals: no identity, this repository's placeholder identity, the
#     series' role identity, and a sub-series that does not apply (policy
#     without the fix it needs): each exits non-zero, names what is wrong,
#     and writes nothing;
#   - the mboxes: for each sub-series of patches/subseries, its messages
#     numbered [PREFIX 0/N]..[PREFIX N/N], From: and Signed-off-by: the
#     sender on every patch and the role identity nowhere in a header,
#     base-commit:, one prerequisite-patch-id: per patch it needs; it
#     applies with git am on the pristine 6.12 base after the mboxes it
#     needs, and on 6.1 where patches/subseries says so; checkpatch.pl
#     --strict passes on each of its patches; and it builds: the tree it
#     makes with what it needs is a prefix of the stack, which the
#     bisection builds patch by patch (bisect-BASE, make compile-test), or
#     else its touched objects are compiled here (the KASAN fix, alone on
#     the base: arch/arm/mm/kasan_init.o in the debug rows' configuration).
# The mboxes are applied in each tree's scratch worktree (lib.sh
# scratch_worktree, kept from run to run; make mbox's and the compile
# coverage's rows' too: scripts/gates/gates.sh runs them one after the
# other).  One PASS/FAIL line per case, in build/results/mbox/results.tsv.
#
# Usage: tests/mbox/run.sh
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../../scripts/lib.sh"
build_lock "$@"

res=$BUILD/results/mbox
tsv=$res/results.tsv
log=$res/run.log
mkdir -p "$res"
: >"$tsv"
: >"$log"
tmp=$(mktemp -d "$BUILD/mbox-test.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# t CMD...: 0 if CMD succeeds, else 1 (for check, under set -e)
t() { if "$@"; then echo 0; else echo 1; fi; }
check() { # NAME CONDITION-STATUS DETAIL
	if [ "$2" -eq 0 ]; then record PASS "$1" "$3"; else record FAIL "$1" "$3"; fi
}
# as NAME EMAIL CMD...: run CMD with git's user.name and user.email set so
# ("" leaves one unset: GIT_CONFIG_GLOBAL and _SYSTEM point nowhere)
as() {
	local n=$1 e=$2 i=0
	shift 2
	local -a env=(GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_SYSTEM=/dev/null)
	if [ -n "$n" ]; then env+=("GIT_CONFIG_KEY_$i=user.name" "GIT_CONFIG_VALUE_$i=$n"); i=$((i + 1)); fi
	if [ -n "$e" ]; then env+=("GIT_CONFIG_KEY_$i=user.email" "GIT_CONFIG_VALUE_$i=$e"); i=$((i + 1)); fi
	env "${env[@]}" GIT_CONFIG_COUNT=$i "$@"
}
sender_name="Mbox Check"
sender_email="mbox.check@example.net"
sender="$sender_name <$sender_email>"

# refused CASE TEXT NAME EMAIL [ENV...]: scripts/series/mbox.sh as NAME <EMAIL>
# exits non-zero, says TEXT, and leaves its output folder as it was.
refused() { # NAME WANT-TEXT NAME-VALUE EMAIL-VALUE [ENV...]
	local case=$1 text=$2 n=$3 e=$4 out=$tmp/out-$1 rc=0
	shift 4
	mkdir -p "$out"
	echo keep >"$out/sentinel"
	as "$n" "$e" env "$@" "$TOP/scripts/series/mbox.sh" "$out" >"$res/$case.log" 2>&1 || rc=$?
	if [ "$rc" -eq 0 ]; then
		record FAIL "refuse/$case" "exit 0; log: $res/$case.log"
	elif ! grep -qF "$text" "$res/$case.log"; then
		record FAIL "refuse/$case" "no '$text' in the error; log: $res/$case.log"
	elif [ "$(find "$out" -mindepth 1 -printf '%f ')" != "sentinel " ] || [ "$(cat "$out/sentinel")" != keep ]; then
		record FAIL "refuse/$case" "it wrote to $out: $(find "$out" -mindepth 1 -printf '%f ')"
	else
		record PASS "refuse/$case" "$(grep -m1 'FAILED' "$res/$case.log" | sed 's/.*FAILED: //' | cut -c1-120)"
	fi
}
# No identity: neither set (the global config hidden).
refused no-identity "no git identity" "" ""
refused placeholder "this repository's placeholder" "Seed 617fb1ca maintainers" \
	"maintainers@users.noreply.a-seed-617fb1ca.example"
refused role-identity "the series' role identity" "ARM ioremap team" "arm-ioremap@example.org"
sed 's/^\(policy\t[^\t]*\t\)fix\t/\1-\t/' "$TOP/patches/subseries" >"$tmp/subseries-bad"
refused not-applying "sub-series policy does not apply on the base" "$sender_name" "$sender_email" \
	SUBSERIES="$tmp/subseries-bad"

# The real run.
out=$tmp/mbox
if ! as "$sender_name" "$sender_email" "$TOP/scripts/series/mbox.sh" "$out" >"$res/mbox.log" 2>&1; then
	record FAIL make-mbox "scripts/series/mbox.sh failed; log: $res/mbox.log"
	report mbox
	exit 1
fi
record PASS make-mbox "$(find "$out" -name '*.mbox' -printf '%f ')"

src=$("$TOP/scripts/stages/tree.sh" 6.12)
base=$(tree_base "$src")
mapfile -t stack < <(git -C "$src" rev-list --reverse "$base"..HEAD)
src61=""
if src61=$("$TOP/scripts/stages/tree.sh" 6.1 2>>"$log") && [ -n "$src61" ]; then
	base61=$(tree_base "$src61")
fi
# The mboxes are applied in each tree's scratch worktree (lib.sh
# scratch_worktree), am_all checking out the base first.
wt=$(scratch_worktree "$src" 2>>"$log") ||
	{ record FAIL worktree "no git worktree of $src; log: $log"; report mbox; exit 1; }
wt61=""
[ -z "$src61" ] || wt61=$(scratch_worktree "$src61" 2>>"$log") || wt61=""
gw() { as "$sender_name" "$sender_email" git -C "$@"; }
# am_all DIR BASE MBOX...: the mboxes on BASE, in order
am_all() {
	local d=$1 b=$2 m
	shift 2
	gw "$d" checkout -q -f --detach "$b"
	for m in "$@"; do
		if ! gw "$d" am -q --empty=drop "$out/$m.mbox" >>"$log" 2>&1; then
			gw "$d" am --abort >>"$log" 2>&1 || true
			echo "$m.mbox"
			return 1
		fi
	done
}

# am_detail MBOX TEXT: "MBOX does not apply", or TEXT when MBOX is empty
am_detail() { if [ -n "$1" ]; then echo "$1 does not apply"; else echo "$2"; fi; }

# The sub-series, as scripts/harness.py subseries reads them.
npatches=$(grep -cv '^[[:space:]]*\(#\|$\)' "$TOP/patches/series")
subs_lines=$(harness subseries --file "$TOP/patches/subseries" --patches "$npatches" 2>&1) ||
	{ record FAIL subseries "$subs_lines"; report mbox; exit 1; }
declare -A subs_count=()
while IFS=$'\t' read -r n first last _; do
	subs_count[$n]=$((last - first + 1))
done <<<"$subs_lines"

while IFS=$'\t' read -r n first last needs prefix on61; do
	[ "$needs" != - ] || needs=""
	count=$((last - first + 1))
	m=$out/$n.mbox
	# Subjects: [PREFIX 0/N] .. [PREFIX N/N], in order.
	got=$({ grep -o "^Subject: \[$prefix [0-9]*/$count\]" "$m" || true; } | sed 's/.* 0*\([0-9][0-9]*\)\/.*/\1/' | paste -sd' ')
	wantn=$(seq 0 "$count" | paste -sd' ')
	check "$n/subjects" "$(t [ "$got" = "$wantn" ])" "[$prefix k/$count], k = ${got:-none}"
	# The sender on every patch; the role identity in no header or sign-off.
	froms=$(grep -c "^From: $sender\$" "$m" || true)
	sobs=$(grep -c "^Signed-off-by: $sender\$" "$m" || true)
	roles=$(grep -c '^\(From\|Signed-off-by\): ARM ioremap team' "$m" || true)
	check "$n/sender" "$(t test "$froms" -eq $((count + 1)) -a "$sobs" -eq "$count" -a "$roles" -eq 0)" "From: $froms, Signed-off-by: $sobs of $((count + 1)) and $count; role identity: $roles"
	# base-commit, and one prerequisite-patch-id per patch needed.
	wantp=0
	for d in $needs; do
		wantp=$((wantp + subs_count[$d]))
	done
	bc=$(grep -c "^base-commit: $base\$" "$m" || true)
	pp=$(grep -c '^prerequisite-patch-id: [0-9a-f]\{40\}$' "$m" || true)
	check "$n/base" "$(t test "$bc" -eq 1 -a "$pp" -eq "$wantp")" "base-commit ${base:0:12}: $bc, prerequisite-patch-id: $pp of $wantp"
	# git am on the pristine base, after what it needs.
	rc=0
	# shellcheck disable=SC2086 # a list of names
	bad=$(am_all "$wt" "$base" $needs "$n") || rc=1
	applies=$rc
	check "$n/am-6.12" "$rc" "$(am_detail "$bad" "applies on $(git -C "$src" describe --tags --always "$base" 2>/dev/null || echo "${base:0:12}")${needs:+ after $needs}")"
	if [ "$on61" = yes ]; then
		if [ -z "$wt61" ]; then
			record FAIL "$n/am-6.1" "no 6.1 tree (scripts/stages/tree.sh 6.1) or no worktree of it; log: $log"
		else
			rc=0
			# shellcheck disable=SC2086 # a list of names
			bad=$(am_all "$wt61" "$base61" $needs "$n") || rc=1
			check "$n/am-6.1" "$rc" "$(am_detail "$bad" "applies on linux-source-6.1${needs:+ after $needs}")"
		fi
	fi
	# checkpatch.pl --strict on each of its patches, as sent.
	split=$tmp/split-$n
	mkdir -p "$split"
	git mailsplit -o"$split" "$m" >/dev/null
	nbad=0 first_bad=""
	for p in "$split"/*; do
		grep -q '^diff --git' "$p" || continue
		# As scripts/gates/lint.sh runs it (lib.sh).
		checkpatch "$src" "$split" "${p##*/}" >"$p.checkpatch"
		if [ -s "$p.checkpatch" ] &&
		   ! grep -q '^total: 0 errors, 0 warnings, 0 checks' "$p.checkpatch"; then
			nbad=$((nbad + 1))
			[ -n "$first_bad" ] || first_bad=$(grep -m1 '^Subject:' "$p" | cut -c10-80)
		fi
	done
	if [ "$nbad" -eq 0 ]; then
		record PASS "$n/checkpatch" "every patch passes --strict"
	else
		record FAIL "$n/checkpatch" "$nbad patches with checkpatch reports, first: $first_bad"
	fi
	# Builds: a prefix of the stack (compiled patch by patch by make
	# compile-test), or its objects compiled here; nothing is built when
	# the mbox does not apply or touches no C file (make without an
	# object would build the whole kernel).
	applied=$(git -C "$wt" rev-parse 'HEAD^{tree}')
	files=$(git -C "$wt" diff --name-only "$base" HEAD -- '*.c' | tr '\n' ' ')
	if [ "$applies" -ne 0 ]; then
		record FAIL "$n/builds" "not built: it does not apply on 6.12"
	elif [ "$(git -C "$src" rev-parse "${stack[last - 1]}^{tree}")" = "$applied" ]; then
		record PASS "$n/builds" "the tree is patches 1-$last of the stack, which make compile-test builds patch by patch"
	elif [ -z "$files" ]; then
		record FAIL "$n/builds" "not built: no C file in the tree it makes, which is not a prefix of the stack"
	else
		o=$tmp/o-$n
		objs=$(for f in $files; do echo "${f%.c}.o"; done)
		blog=$res/$n-build.log
		# The debug rows' kernel (KASAN, LPAE), without the series' own
		# fragments (reject, pool: not in a tree without the series).
		frags=(base.config lpae.config debug.config)
		mkdir -p "$o"
		# shellcheck disable=SC2086 # a list of objects
		if (cd "$wt" && ARCH=arm scripts/kconfig/merge_config.sh -n -O "$o" \
			"${frags[@]/#/$TOP/configs/}" && make O="$o" ARCH=arm -j"$(nproc)" W=1 \
			$objs) >"$blog" 2>&1; then
			warns=$(grep -c 'warning:' "$blog" || true)
			check "$n/builds" "$(t [ "$warns" -eq 0 ])" "$objs built alone on the base (debug rows' configuration, W=1): $warns warnings; log: $blog"
		else
			record FAIL "$n/builds" "$objs do not build alone on the base; log: $blog"
		fi
	fi
done <<<"$subs_lines"
report mbox
