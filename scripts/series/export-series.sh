#!/bin/bash
# Export the series from a kernel git tree back into patches/ (git format-patch).
#
# Usage: scripts/series/export-series.sh SRC
#   Exports BASE..HEAD of SRC (the tree `make edit` prepared; BASE is the
#   commit scripts/stages/tree.sh applied the series to) as patches/NNNN-*.patch
#   with a cover letter whose subject and blurb are the tree's note
#   "description" (lib.sh tree_note: scripts/stages/tree.sh takes it from the old
#   cover letter; edit the file `git -C SRC rev-parse --git-path
#   ioremap-ram/description` names to change them), and rewrites
#   patches/series.  Old patch files are removed first.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
build_lock "$@"

src=$(realpath -m "${1:?usage: export-series.sh SRC}")
git -C "$src" rev-parse -q --verify HEAD >/dev/null 2>&1 ||
	die export "" "$src is not a git tree: prepare it with 'make edit'"
base=$(tree_base "$src") ||
	die export "" "$src has no tag 'base' and no note of the commit under the series: prepare it with 'make edit'"
git -C "$src" diff --quiet HEAD ||
	die export "" "$src has uncommitted changes: commit them (git add -f for new files) first"
desc=$(tree_note "$src" description || true)
[ -n "$desc" ] ||
	die export "" "$src has no description (the cover letter's subject and blurb): prepare it with 'make edit'"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# The cover letter is "from" the series' author (format-patch would take the
# identity of whoever exports), and hashes are abbreviated to a fixed length
# (git's default depends on the repository's object count).
name=$(git -C "$src" log -1 --format=%an HEAD)
email=$(git -C "$src" log -1 --format=%ae HEAD)
git -C "$src" -c user.name="$name" -c user.email="$email" -c core.abbrev=12 \
	format-patch -q --cover-letter --base="$base" --no-signature --subject-prefix=PATCH \
	-o "$tmp" "$base..HEAD"
n=$(find "$tmp" -name '[0-9]*.patch' ! -name '0000-*' | wc -l)
[ "$n" -gt 0 ] || die export "" "no commits between $base and HEAD of $src"

# The description's first line is the subject (folded as git folds a
# subject: lines of at most 78 columns, continued with one space), the
# rest the blurb, in place of format-patch's placeholders.
printf '%s\n' "$desc" >"$tmp/description"
awk -v descf="$tmp/description" '
	BEGIN {
		getline subj <descf
		while ((getline line <descf) > 0) {
			if (!started && line == "") continue
			started = 1
			blurb = blurb line "\n"
		}
		sub(/\n+$/, "\n", blurb)
	}
	/^Subject: .*\*\*\* SUBJECT HERE \*\*\*$/ {
		sub(/\*\*\* SUBJECT HERE \*\*\*$/, "")
		n = split(subj, w, " ")
		out = $0
		sep = ""
		for (i = 1; i <= n; i++) {
			if (sep != "" && length(out) + 1 + length(w[i]) > 78) {
				print out
				out = " " w[i]
			} else
				out = out sep w[i]
			sep = " "
		}
		print out
		next
	}
	$0 == "*** BLURB HERE ***" { printf "%s", blurb; next }
	{ print }' "$tmp/0000-cover-letter.patch" >"$tmp/cover" &&
	mv "$tmp/cover" "$tmp/0000-cover-letter.patch"

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
# A patch that differs from the one in patches/ only in its "From <commit>"
# line and its Date: (the cover letter's is the time of the export; a
# commit made again has another id) keeps the old file: an export with no
# change leaves patches/ as it was, byte for byte.
same() {
	[ -f "$2" ] && cmp -s <(sed -E '1s/^From [0-9a-f]{40} /From /; /^Date: /d' "$1") \
		<(sed -E '1s/^From [0-9a-f]{40} /From /; /^Date: /d' "$2")
}
for f in "$tmp"/*.patch; do
	if same "$f" "$TOP/patches/${f##*/}"; then
		cp "$TOP/patches/${f##*/}" "$f"
	fi
done
rm -f "$TOP"/patches/[0-9][0-9][0-9][0-9]-*.patch
cp "$tmp"/*.patch "$TOP/patches/"
{
	echo "# The series, in order, for quilt and scripts/stages/tree.sh."
	echo "# The cover letter (0000-cover-letter.patch) is not a patch and stays out."
	echo "# \"NAME  # needs: PATH\": only for trees that have PATH (left out on others);"
	echo "# \"NAME  # needs: PATH: TEXT\": only for trees whose PATH holds TEXT."
	for f in "$tmp"/[0-9]*.patch; do
		name=${f##*/}
		slug=${name#[0-9][0-9][0-9][0-9]-}
		[ "$name" = 0000-cover-letter.patch ] || echo "$name${note[$slug]:+  ${note[$slug]}}"
	done
} >"$TOP/patches/series"
# The tree holds exactly this series now: tell scripts/stages/tree.sh, so that it
# does not apply it again (which would rewrite, and rebuild, every file).
tree_note "$src" stamp "$(series_stamp) $base"
say export "$n patches and the cover letter written to patches/"
