#!/bin/bash
# make mbox: the sub-series of patches/subseries as maintainers receive
# them, one mbox each, OUT/NAME.mbox: the cover letter [PATCH 0/N] (subject
# and text from patches/cover/NAME.txt, base-commit: and, for a sub-series
# that builds on others, their prerequisite-patch-id: lines, as b4 writes
# them), then [PATCH 1/N]..[PATCH N/N] ("RFC PATCH" where the prefix says
# so), each To: the maintainers and Cc: the reviewers and lists that
# scripts/get_maintainer.pl names for the sub-series (without the series'
# own MAINTAINERS entry).  From: and Signed-off-by: are the person who
# runs it (git config user.name and user.email of this repository), in
# place of the role identity the patches carry.
#
# Each sub-series is applied with git am, from the mboxes just written, on
# the pristine base after the sub-series it needs.  The commits are made in
# the tree's scratch worktree (lib.sh scratch_worktree), on a detached
# HEAD, with no git am or cherry-pick left in progress there when one
# fails; the tree itself is not touched.  Nothing is written to
# OUT unless every mbox was made and applied: no identity, this
# repository's placeholder identity (or the series' role identity), a
# sub-series that does not apply, are each one error naming it.
#
# Usage: scripts/series/mbox.sh [OUT]	(default build/mbox; BASE=6.12;
#   its test, tests/mbox/run.sh, sets SUBSERIES=FILE instead of patches/subseries)
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
build_lock "$@"

out=$(realpath -m "${1:-$BUILD/mbox}")
base=${BASE:-6.12}
subs=${SUBSERIES:-$TOP/patches/subseries}
[ -f "$subs" ] || die mbox "" "no sub-series file $subs"

# The sender: a person, never the placeholder this repository was made
# with ("Seed ... maintainers", a users.noreply address).
name=$(git -C "$TOP" config user.name || true)
email=$(git -C "$TOP" config user.email || true)
if [ -z "${name//[[:space:]]/}" ] || [ -z "${email//[[:space:]]/}" ]; then
	die mbox "" "no git identity (user.name '${name}', user.email '${email}'): set yours with git config user.name and user.email; it is the From: and Signed-off-by: of every patch"
fi
me="$name <$email>"
case $me in
"Seed "*" maintainers <"* | *"@users.noreply."*)
	die mbox "" "git identity '$me' is this repository's placeholder, not a person: set yours with git config user.name and user.email"
	;;
esac

src=$("$TOP/scripts/stages/tree.sh" "$base") || die mbox "" "no patched $base tree (scripts/stages/tree.sh $base)"
base_rev=$(tree_base "$src") || die mbox "" "$src has no base commit"
mapfile -t commits < <(git -C "$src" rev-list --reverse "$base_rev"..HEAD)
npatches=$(grep -cv '^[[:space:]]*\(#\|$\)' "$TOP/patches/series")
[ "${#commits[@]}" -eq "$npatches" ] ||
	die mbox "" "$src holds ${#commits[@]} patches on its base, patches/series $npatches: the stack is not whole on $base"
role=$(git -C "$src" log -1 --format='%an <%ae>' "${commits[0]}")
[ "$me" != "$role" ] ||
	die mbox "" "git identity '$me' is the series' role identity, not a person: set yours with git config user.name and user.email"

work=$(mktemp -d "$BUILD/mbox-work.XXXXXX")
trap 'rm -rf "$work"' EXIT
wt=$(scratch_worktree "$src") || die mbox "" "no git worktree of $src under $BUILD/src"
gitw() { git -C "$wt" -c user.name="$name" -c user.email="$email" "$@"; }

# The sub-series: NAME FIRST LAST NEEDS PREFIX, in order, read and checked
# against the stack by scripts/harness.py subseries.
declare -A first=() last=() needs=() prefix=()
names=()
subs_lines=$(harness subseries --file "$subs" --patches "$npatches" 2>&1) ||
	die mbox "" "$subs_lines"
while IFS=$'\t' read -r n f l need pfx _; do
	[ "$need" != - ] || need=""
	first[$n]=$f last[$n]=$l needs[$n]=$need prefix[$n]=$pfx
	[ -f "$TOP/patches/cover/$n.txt" ] || die mbox "" "no cover letter patches/cover/$n.txt for sub-series $n"
	names+=("$n")
done <<<"$subs_lines"
[ ${#names[@]} -gt 0 ] || die mbox "" "$subs lists no sub-series"

# pick NAME: cherry-pick the sub-series' commits onto the worktree's HEAD.
pick() {
	local i c
	for ((i = first[$1]; i <= last[$1]; i++)); do
		c=${commits[i - 1]}
		gitw cherry-pick --allow-empty "$c" >"$work/pick.log" 2>&1 || {
			gitw cherry-pick --abort >/dev/null 2>&1 || true
			die mbox "$work/pick.log" "sub-series $1 does not apply on the base after '${needs[$1]:-nothing}': patch $i, $(git -C "$src" log -1 --format='"%s"' "$c")"
		}
	done
}

mkdir -p "$work/out"
for n in "${names[@]}"; do
	gitw checkout -q -f --detach "$base_rev"
	for d in ${needs[$n]}; do pick "$d"; done
	pick "$n"
	count=$((last[$n] - first[$n] + 1))
	dir=$work/$n
	# The recipients, from the sub-series' own patches.
	gitw format-patch -q -o "$dir.pre" "HEAD~$count..HEAD" >/dev/null
	to=() cc=()
	# "Name <address> (role:SECTION)" or "list@address (open list:SECTION)":
	# To: maintainers, supporters and odd fixers; Cc: reviewers and lists.
	while IFS= read -r line; do
		if [[ $line =~ ^([^<]*<[^>]+>)\ \((.*)\)$ ]] || [[ $line =~ ^([^ ]+)\ \((.*)\)$ ]]; then
			addr=${BASH_REMATCH[1]} what=${BASH_REMATCH[2]}
		else
			addr=$line what=""
		fi
		case $addr in *"${role#*<}"* | "") continue ;; esac
		case $what in
		maintainer:* | supporter:* | "odd fixer:"*) to+=("--to=$addr") ;;
		*) cc+=("--cc=$addr") ;;
		esac
	done < <(cd "$wt" && ./scripts/get_maintainer.pl --nogit --nogit-fallback --rolestats "$dir.pre"/*.patch 2>/dev/null)
	gitw format-patch -q --cover-letter --base="$base_rev" --subject-prefix="${prefix[$n]}" \
		"${to[@]}" "${cc[@]}" -o "$dir" "HEAD~$count..HEAD" >/dev/null
	# The cover letter's subject and text; the sender in place of the role.
	python3 - "$dir/0000-cover-letter.patch" "$TOP/patches/cover/$n.txt" <<'EOF'
import sys
path, cover = sys.argv[1], open(sys.argv[2]).read().rstrip('\n').split('\n')
subject, text = cover[0], '\n'.join(cover[1:]).strip('\n')
s = open(path).read()
s = s.replace('*** SUBJECT HERE ***', subject, 1).replace('*** BLURB HERE ***', text, 1)
open(path, 'w').write(s)
EOF
	for f in "$dir"/*.patch; do
		sed -i -e "s|^From: $role\$|From: $me|" -e "s|^Signed-off-by: $role\$|Signed-off-by: $me|" \
			"$f"
	done
	cat "$dir"/*.patch >"$work/out/$n.mbox"
done

# Each mbox on the pristine base, after the mboxes it needs.
for n in "${names[@]}"; do
	gitw checkout -q -f --detach "$base_rev"
	for m in ${needs[$n]} "$n"; do
		gitw am -q --empty=drop "$work/out/$m.mbox" >"$work/am.log" 2>&1 || {
			gitw am --abort >/dev/null 2>&1 || true
			die mbox "$work/am.log" "$m.mbox does not apply with git am on the base${needs[$n]:+ after ${needs[$n]}}"
		}
	done
done

mkdir -p "$out"
rm -f "$out"/*.mbox
mv "$work/out"/*.mbox "$out/"
for n in "${names[@]}"; do
	say mbox "$out/$n.mbox: $(grep -c '^Subject: ' "$out/$n.mbox") messages, [${prefix[$n]} 0/$((last[$n] - first[$n] + 1))] $(head -n 1 "$TOP/patches/cover/$n.txt")"
done
say mbox "From: $me; each message has its To: and Cc: lines; send with git send-email $out/NAME.mbox"
