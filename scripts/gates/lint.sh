#!/bin/bash
# The series' review gates, run on the kernel tree the series is applied to:
#   - checkpatch.pl --strict on every patch: no error, warning or check;
#   - every file the series adds has the series' maintainers, per
#     get_maintainer.pl and the MAINTAINERS entry the series adds;
#   - every patch has a subsystem subject ("ARM: mm: ...", "selftests: arm:
#     ...") and a Signed-off-by;
#   - kernel-doc -none -Wall on every C file and header the series touches:
#     no warning that the base does not also have;
#   - the series applies with quilt (GNU patch) to the base, as it does with
#     git am (the tree stage);
#   - make htmldocs SPHINXDIRS=arch/arm builds the new page without a warning.
# One PASS/FAIL line per check, also in build/results/lint-BASE/results.tsv.
#
# Usage: scripts/gates/lint.sh SRC BASE
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
build_lock "$@"

src=$(realpath -m "${1:?usage: lint.sh SRC BASE}")
base=${2:?usage: lint.sh SRC BASE}
res=$BUILD/results/lint-$base
mkdir -p "$res"
tsv=$res/results.tsv
: >"$tsv"
base_rev=$(tree_base "$src") ||
	die lint "" "$src has no tag 'base' and no note of the commit under the series (prepare it with scripts/stages/tree.sh)"
mapfile -t patches < <(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' -e 's/[[:space:]].*//' \
	"$TOP/patches/series")

# checkpatch (lib.sh), on a copy outside this git checkout.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for p in "${patches[@]}"; do
	cp "$TOP/patches/$p" "$tmp/$p"
	out=$(checkpatch "$src" "$tmp" "$p")
	total=$(grep '^total:' <<<"$out" || echo "total: no result")
	if grep -q '^total: 0 errors, 0 warnings, 0 checks' <<<"$out" || [ -z "$out" ]; then
		record PASS "checkpatch/$p"
	else
		record FAIL "checkpatch/$p" "$total; first: $(grep -v -m1 '^total:' <<<"$out")"
	fi
	# Each Fixes: tag names a known commit, by its id and its subject
	# (configs/fixes.tsv): a mistyped id or subject fails.
	while IFS= read -r tag; do
		id=$(sed -n 's/^Fixes: \([0-9a-f]\{12\}\) ("\(.*\)")$/\1/p' <<<"$tag")
		subj=$(sed -n 's/^Fixes: \([0-9a-f]\{12\}\) ("\(.*\)")$/\2/p' <<<"$tag")
		if [ -z "$id" ]; then
			record FAIL "fixes/$p" "'$tag' is not 'Fixes: <12 hex digits> (\"subject\")'"
		elif ! grep -qxF "$id	$subj" "$TOP/configs/fixes.tsv"; then
			record FAIL "fixes/$p" "'$tag' is not in configs/fixes.tsv (id and subject)"
		else
			record PASS "fixes/$p" "$id"
		fi
	done < <(grep '^Fixes: ' "$tmp/$p" || true)
	subject=$(sed -n 's/^Subject: \[PATCH[^]]*\] //p' "$tmp/$p")
	if ! grep -qE '^(ARM: mm: |ARM: kasan: |mm/memblock: |memblock tests: |selftests: arm: |Documentation: arm: |coccinelle: api: )' <<<"$subject"; then
		record FAIL "subject/$p" "'$subject' has no subsystem prefix"
	elif ! grep -q '^Signed-off-by: ' "$tmp/$p"; then
		record FAIL "subject/$p" "no Signed-off-by"
	else
		record PASS "subject/$p"
	fi
done

# MAINTAINERS: the entry's M: lines, and every added file under them.
mapfile -t maint < <(git -C "$src" diff base HEAD -- MAINTAINERS | sed -n 's/^+M:[[:space:]]*//p')
if [ ${#maint[@]} -eq 0 ]; then
	record FAIL maintainers "the series adds no MAINTAINERS entry with an M: line"
else
	orphans=()
	while IFS= read -r f; do
		who=$(cd "$src" && perl scripts/get_maintainer.pl --no-git --no-git-fallback \
			--no-rolestats -f "$f" 2>/dev/null) || true
		grep -qxF "${maint[0]}" <<<"$who" || orphans+=("$f")
	done < <(git -C "$src" diff --diff-filter=A --name-only base HEAD)
	if [ ${#orphans[@]} -eq 0 ]; then
		record PASS maintainers "every added file is ${maint[0]}'s"
	else
		record FAIL maintainers "${#orphans[@]} added file(s) without ${maint[0]}: ${orphans[*]}"
	fi
fi

# kernel-doc: new warnings only, against the same files at the base.
mapfile -t files < <(git -C "$src" diff --name-only base HEAD -- '*.c' '*.h')
mkdir -p "$tmp/base"
for f in "${files[@]}"; do
	if git -C "$src" cat-file -e "$base_rev:$f" 2>/dev/null; then
		mkdir -p "$tmp/base/$(dirname "$f")"
		git -C "$src" show "$base_rev:$f" >"$tmp/base/$f"
	fi
done
kdoc() { (cd "$1" && for f in "${files[@]}"; do [ -f "$f" ] && echo "$f"; done |
	xargs -r perl "$src/scripts/kernel-doc" -none -Wall 2>&1 |
	sed -E 's/:[0-9]+: /: /' | sort) || true; }
new=$(comm -13 <(kdoc "$tmp/base") <(kdoc "$src"))
if [ -z "$new" ]; then
	record PASS kernel-doc "${#files[@]} files, no new warning"
else
	record FAIL kernel-doc "$(wc -l <<<"$new") new warning(s), first: $(head -n 1 <<<"$new")"
fi

# Every symbol the series exports has a kernel-doc comment in the files it
# touches.
mapfile -t exported < <(git -C "$src" diff base HEAD -- '*.c' |
	sed -n 's/^+EXPORT_SYMBOL\(_GPL\)\{0,1\}(\([A-Za-z0-9_]*\));.*/\2/p' | sort -u)
undoc=()
for sym in "${exported[@]}"; do
	(cd "$src" && grep -qE "^ \* $sym(\(\))? - " "${files[@]}") || undoc+=("$sym")
done
if [ ${#undoc[@]} -eq 0 ]; then
	record PASS kernel-doc-exports "${#exported[@]} exported symbols, each with a kernel-doc comment"
else
	record FAIL kernel-doc-exports "no kernel-doc comment for: ${undoc[*]}"
fi

# quilt: the series on a copy of the files it touches, at the base.
q=$tmp/quilt
mkdir -p "$q/patches"
mapfile -t touched < <(cat "$TOP"/patches/[0-9]*.patch | sed -n 's,^--- a/,,p' | sort -u)
for f in "${touched[@]}"; do
	if git -C "$src" cat-file -e "$base_rev:$f" 2>/dev/null; then
		mkdir -p "$q/$(dirname "$f")"
		git -C "$src" show "$base_rev:$f" >"$q/$f"
	fi
done
cp "$TOP"/patches/[0-9]*.patch "$q/patches/"
series_list "$src" base >"$q/patches/series" 2>/dev/null
nq=$(wc -l <"$q/patches/series")
if out=$(cd "$q" && QUILT_PATCHES=patches quilt push -a -q 2>&1); then
	record PASS quilt "quilt push -a: $nq of ${#patches[@]} patches on linux-source-$base$(
		[ "$nq" -eq ${#patches[@]} ] || echo ", the rest marked '# needs:' a file it lacks")"
else
	record FAIL quilt "quilt push -a on linux-source-$base: $(tail -n 2 <<<"$out" | tr '\n' ' ')"
fi

# htmldocs: the ARM pages built by Sphinx (Debian's python3-sphinx) with no
# warning, the new page among them and, where the index has it, linked.
hlog=$res/htmldocs.log
if [ ! -f "$src/Documentation/arch/arm/index.rst" ]; then
	record SKIP htmldocs "linux-source-$base has no Documentation/arch/arm/index.rst (before v6.5): SPHINXDIRS=arch/arm cannot build there"
elif ! [ -x /usr/bin/sphinx-build ]; then
	record SKIP htmldocs "/usr/bin/sphinx-build missing (Debian's python3-sphinx; scripts/stages/deps.sh installs it)"
elif ! PYTHONDONTWRITEBYTECODE=1 make -C "$src" O="$BUILD/htmldocs-$base" SPHINXDIRS=arch/arm \
	PYTHON3=/usr/bin/python3 SPHINXBUILD=/usr/bin/sphinx-build htmldocs >"$hlog" 2>&1; then
	record FAIL htmldocs "make htmldocs SPHINXDIRS=arch/arm failed, log: $hlog"
else
	html=$BUILD/htmldocs-$base/Documentation/output/arch/arm
	# graphviz only improves the pictures (and this page has none).
	warn=$(grep -E 'WARNING|ERROR|CRITICAL' "$hlog" | grep -v 'dot(1) not found' || true)
	if [ -n "$warn" ]; then
		record FAIL htmldocs "$(wc -l <<<"$warn") warning(s), first: $(head -n 1 <<<"$warn"), log: $hlog"
	elif [ ! -s "$html/ioremap-ram.html" ]; then
		record FAIL htmldocs "no $html/ioremap-ram.html"
	elif grep -qx '   ioremap-ram' "$src/Documentation/arch/arm/index.rst" &&
		! grep -q 'href="ioremap-ram.html"' "$html/index.html"; then
		record FAIL htmldocs "the ARM index does not link ioremap-ram.html"
	else
		record PASS htmldocs "SPHINXDIRS=arch/arm: no warning, ioremap-ram.html$(
			grep -q 'href="ioremap-ram.html"' "$html/index.html" && echo ' linked from the index')"
	fi
fi

report "lint-$base"
