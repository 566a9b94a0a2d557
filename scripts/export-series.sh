#!/bin/bash
# Export the series from a kernel git tree back into patches/ (git format-patch).
#
# Usage: scripts/export-series.sh SRC
#   Exports base..ioremap-ram of SRC (the tree `make edit` prepared) as
#   patches/NNNN-*.patch with a cover letter whose subject and blurb come
#   from the branch description (set from the old cover letter by
#   scripts/tree.sh; change it with `git branch --edit-description`), and
#   rewrites patches/series.  Old patch files are removed first.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

src=$(realpath -m "${1:?usage: export-series.sh SRC}")
base=base
git -C "$src" rev-parse -q --verify refs/tags/base >/dev/null ||
	base=$(git -C "$src" config --get ioremap-ram.base) ||
	die export "" "$src has no tag 'base' and no ioremap-ram.base: prepare it with 'make edit'"
git -C "$src" diff --quiet HEAD ||
	die export "" "$src has uncommitted changes: commit them (git add -f for new files) first"
[ "$(git -C "$src" rev-parse --abbrev-ref HEAD)" = ioremap-ram ] ||
	die export "" "$src is not on branch ioremap-ram"
git -C "$src" config --get branch.ioremap-ram.description >/dev/null ||
	die export "" "branch ioremap-ram has no description (the cover letter's subject and blurb)"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# The cover letter is "from" the series' author (format-patch would take the
# identity of whoever exports), and hashes are abbreviated to a fixed length
# (git's default depends on the repository's object count).
name=$(git -C "$src" log -1 --format=%an ioremap-ram)
email=$(git -C "$src" log -1 --format=%ae ioremap-ram)
git -C "$src" -c user.name="$name" -c user.email="$email" -c core.abbrev=12 \
	format-patch -q --cover-letter --cover-from-description=subject \
	--base="$base" --no-signature --subject-prefix=PATCH -o "$tmp" "$base..ioremap-ram"
n=$(find "$tmp" -name '[0-9]*.patch' ! -name '0000-*' | wc -l)
[ "$n" -gt 0 ] || die export "" "no commits between $base and ioremap-ram"

# A blank context line is a lone space in a hunk.  checkpatch.pl, given a
# path that git tracks (patches/NNNN-*.patch in this repository), checks it
# as a source file and flags that space as trailing whitespace; git am and
# quilt (GNU patch) read an empty line as the same blank context line.
for f in "$tmp"/*.patch; do
	sed -i 's/^ $//' "$f"
done
# The notes after a patch's name in the old series ("# needs: ...") stay
# with the patch of the same name, whatever its number now.
declare -A note=()
while read -r name rest; do
	[ -z "$rest" ] || note[${name#[0-9][0-9][0-9][0-9]-}]=$rest
done < <(sed -e '/^[[:space:]]*#/d' -e '/^[[:space:]]*$/d' "$TOP/patches/series" 2>/dev/null || true)
rm -f "$TOP"/patches/[0-9][0-9][0-9][0-9]-*.patch
cp "$tmp"/*.patch "$TOP/patches/"
{
	echo "# The series, in order, for quilt and scripts/tree.sh."
	echo "# The cover letter (0000-cover-letter.patch) is not a patch and stays out."
	echo "# \"NAME  # needs: PATH\": only for trees that have PATH (left out on others);"
	echo "# \"NAME  # needs: PATH: TEXT\": only for trees whose PATH holds TEXT."
	for f in "$tmp"/[0-9]*.patch; do
		name=${f##*/}
		slug=${name#[0-9][0-9][0-9][0-9]-}
		[ "$name" = 0000-cover-letter.patch ] || echo "$name${note[$slug]:+  ${note[$slug]}}"
	done
} >"$TOP/patches/series"
# The tree holds exactly this series now: tell scripts/tree.sh, so that it
# does not apply it again (which would rewrite, and rebuild, every file).
git -C "$src" config ioremap-ram.stamp "$(series_stamp)"
say export "$n patches and the cover letter written to patches/"
