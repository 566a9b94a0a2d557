#!/bin/bash
# Compile coverage of the series, its W=1 and sparse warnings against the
# base, and its bisectability, without building whole kernels: two gates,
# which scripts/gates/gates.sh runs at the same time, each in a git
# worktree and a build folder of its own.
#   rows (compile-BASE): for each row of configs/compile.tsv (a defconfig
#     plus fragments), the objects the series touches that the config
#     builds are compiled with W=1 C=1 (sparse) and each header the series
#     touches is compiled on its own; every warning (file and text, not
#     line) is compared with the same config at the base: one the base does
#     not have fails the row.  The base builds only the objects that read a
#     warned file (their .cmd files say which), none when the series has no
#     warning.  Worktree BUILD/src/linux-BASE-wt (the mbox test's too), build
#     folder BUILD/compile/BASE/o, reconfigured row by row: Kbuild's host
#     tools are built once, and going from the series to the base within a
#     row rebuilds only what the series' files and symbols touch.
#   bisect (bisect-BASE): each prefix of the series compiles the objects it
#     touches, in the first row's config, with W=1, no error and no warning
#     the base does not have (the series' objects built at the base first,
#     in the same config); one build folder, incremental: a prefix rebuilds
#     what its patch changed (a prefix that changes no C file, header,
#     Kconfig or Makefile of the kernel builds what the one before it
#     built).  Worktree BUILD/src/linux-BASE-bisect-wt, build folder
#     BUILD/compile/BASE/bisect.
# The worktrees (lib.sh scratch_worktree) are kept from run to run and
# checked out at the series, the base or a prefix.  The base's .config is
# the series' one, run through syncconfig at the base (the series' symbols
# dropped, every other value the same).  One PASS/FAIL line per row or
# prefix, also in BUILD/results/GATE/results.tsv.  A run on the same
# commits, configs and scripts keeps the previous results.
#
# Usage: [JOBS=N] scripts/gates/compile-test.sh SRC BASE [rows|bisect]
#   (default: rows)
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
build_lock "$@"

usage="usage: compile-test.sh SRC BASE [rows|bisect]"
src=$(realpath -m "${1:?$usage}")
base=${2:?$usage}
mode=${3:-rows}
jobs=${JOBS:-$(nproc)}
cdir=$BUILD/compile/$base
# Per mode: the stage its messages name, the gate, the scratch worktree's
# suffix, the build folder, where the rows' .config files are kept.
case $mode in
rows) stage=compile wtname="" o=$cdir/o saved=$cdir/ ;;
bisect) stage=bisect wtname=bisect o=$cdir/bisect saved=$cdir/bisect- ;;
*) die compile "" "$usage (not '$mode')" ;;
esac
gate=$stage-$base
res=$BUILD/results/$gate
tsv=$res/results.tsv
log=$res/$stage.log
mkdir -p "$res" "$cdir"

base_rev=$(tree_base "$src") ||
	die "$stage" "" "$src has no tag 'base' and no note of the commit under the series (prepare it with scripts/stages/tree.sh)"
mapfile -t commits < <(git -C "$src" rev-list --reverse "$base_rev"..HEAD)
[ ${#commits[@]} -gt 0 ] || die "$stage" "" "$src has no commits on top of 'base'"

# Trees, not commit ids: re-applying the same series gives new commit ids.
key=$({ echo "$mode"
	git -C "$src" log --format=%T "$base_rev"..HEAD
	cat "$TOP/configs/compile.tsv" "$TOP"/configs/compile/*.config "$0" "$TOP/scripts/lib.sh"
} | sha1sum | cut -c1-40)
if [ -s "$tsv" ] && [ "$(cat "$res/key" 2>/dev/null)" = "$key" ]; then
	say "$stage" "series, configs and scripts unchanged: results of the last run"
	report "$gate"
	exit
fi
rm -f "$res/key" "$res"/*.log "$res"/*.warnings "$res"/*.new-warnings
: >"$tsv"
: >"$log"

# The worktree, whatever an earlier command left checked out there: each
# build checks its commit out first.
wt=$(scratch_worktree "$src" "$wtname") || die "$stage" "" "no git worktree of $src under $BUILD/src"
checkout() { run_logged "$stage" "$log" git -C "$wt" checkout -q -f --detach "$1"; }

# The kernel's C files, not the user-space tests' (tools/: the memblock
# simulator's cases, which scripts/gates/memblock-test.sh builds and runs).
mapfile -t cfiles < <(git -C "$src" diff --name-only base HEAD -- '*.c' ':!tools/')
mapfile -t hfiles < <(git -C "$src" diff --name-only base HEAD -- 'include/*.h' 'arch/arm/include/*.h')

# Kconfig runs: each costs about 6 s of CPU (it probes the compiler some 75
# times), and a Kbuild build after a .config change runs one more
# (syncconfig) unless include/config/auto.conf is newer than the .config.
# So each configuration here is one run that leaves auto.conf up to date:
#   - olddefconfig when there is no auto.conf: it writes auto.conf too;
#   - syncconfig when the .config holds every symbol the tree has (the
#     series' .config at the base or at a prefix: the series only adds
#     symbols).  syncconfig would ask for a symbol the .config lacks;
#     nothing here reads standard input (/dev/null): it takes the default.
kconfig() {
	local tree=$1 o=$2 target=$3
	[ "$target" != olddefconfig ] || rm -f "$o/include/config/auto.conf"
	run_logged "$stage" "$log" make -C "$tree" O="$o" "$target" </dev/null
}

# configure TREE O DEFCONFIG FRAGMENT...: O's .config from the defconfig and
# the fragments (configs/compile/), unless O already has exactly that: the
# defconfig file and the fragments merged as text (merge_config.sh -m), then
# olddefconfig, which gives every other symbol its default, as the
# defconfig target does.
configure() {
	local tree=$1 o=$2 defconfig=$3 stamp
	shift 3
	stamp=$({ git -C "$tree" rev-parse HEAD; echo "$defconfig"; cat "$@"; } | sha1sum)
	[ "$(cat "$o/.compile-stamp" 2>/dev/null)" != "$stamp" ] || return 0
	mkdir -p "$o"
	run_logged "$stage" "$log" env -C "$tree" scripts/kconfig/merge_config.sh -O "$o" \
		-m "arch/arm/configs/$defconfig" "$@"
	kconfig "$tree" "$o" olddefconfig
	echo "$stamp" >"$o/.compile-stamp"
}

# objects TREE O: the objects of the series' C files that O's config builds,
# read off the obj-y / obj-m / obj-$(CONFIG_...) line of their Makefile
# (a file #included by another is built with it, not listed).
objects() {
	local tree=$1 o=$2 f d b lhs sym
	for f in "${cfiles[@]}"; do
		[ -f "$tree/$f" ] || continue
		d=${f%/*} b=${f##*/}
		b=${b%.c}
		# (awk reads to the end: exiting at the match, it would leave sed
		# writing into a closed pipe, and with pipefail SIGPIPE fails the
		# assignment and ends objects() early under set -e: seen once,
		# on arch/arm/mm/Makefile, which is more than one 4 KiB write)
		lhs=$(sed -e ':a' -e '/\\$/{N;s/\\\n/ /;ba' -e '}' "$tree/$d/Makefile" |
			awk -v re="(^|[[:space:]=])${b}[.]o([[:space:]]|\$)" '!found && $0 ~ re { print $1; found = 1 }')
		lhs=${lhs%%[:+]=*}
		case $lhs in
		obj-y | obj-m) ;;
		obj-\$\(CONFIG_*\))
			sym=${lhs#obj-\$(}
			grep -qE "^${sym%)}=[ym]\$" "$o/.config" || continue
			;;
		*) continue ;;
		esac
		echo "$d/$b.o"
	done
}

# no_objects: why nothing is built when objects finds no object (every
# config builds mm/memblock.o, so it is never right): make without one
# would build the whole kernel with W=1.
no_objects() {
	local n=0 f
	for f in "${cfiles[@]}"; do
		[ ! -f "$wt/$f" ] || n=$((n + 1))
	done
	echo "no object of the series found in $wt at $(git -C "$wt" rev-parse --short HEAD 2>&1)" \
		"($n of ${#cfiles[@]} C files there, .config: $(grep -c '^CONFIG_' "$o/.config" 2>&1) symbols);" \
		"not built: make without an object builds the whole kernel"
}

# warnings TREE LOG: the warnings and errors of a build log, without line
# numbers and folder names, so that the base's and the series' compare.
warnings() {
	{ grep -E ': (warning|error): ' "$2" || true; } |
		sed -E -e "s|$1/||g" -e "s|$BUILD/compile/[^/]*/[^/]*/||g" \
			-e 's|^([^: ]+):[0-9]+(:[0-9]+)?: |\1: |' | sort -u
}

# compile TREE O LOG OBJECT...: build the objects anew (KEEP=1: only those
# whose sources changed) with W=1 and, unless SPARSE=0, C=1
compile() {
	local tree=$1 o=$2 out=$3
	shift 3
	[ -n "${KEEP:-}" ] || (cd "$o" && rm -f "$@")
	make -C "$tree" O="$o" -j"$jobs" W=1 C="${SPARSE:-1}" "$@" >"$out" 2>&1 </dev/null
}

# warned_objects O WARNINGS OBJECT...: of the objects, those whose
# dependencies (Kbuild's .cmd file: the source and every header it read)
# include a file WARNINGS names; all of them if a file is in none (a
# header compiled on its own, a warning without a file).
warned_objects() {
	local o=$1 wfile=$2 f obj hit all=0 found=()
	shift 2
	while IFS= read -r f; do
		hit=0
		for obj in "$@"; do
			if grep -qF -- "/$f" "$o/${obj%/*}/.${obj##*/}.cmd" 2>/dev/null; then
				found+=("$obj")
				hit=1
			fi
		done
		[ "$hit" = 1 ] || all=1
	done < <(sed -E 's/^([^: ]+): .*/\1/' "$wfile" | sort -u)
	if [ "$all" = 1 ]; then
		printf '%s\n' "$@"
	else
		printf '%s\n' "${found[@]}" | sort -u
	fi
}

# headers O LOG: compile each header the series touches on its own, with the
# flags Kbuild used for mm/memblock.o (which every config builds).
headers() {
	local o=$1 out=$2 h inc cmd
	cmd=$(sed -n -E 's/^(saved)?cmd_mm\/memblock\.o := //p' "$o/mm/.memblock.o.cmd")
	cmd=${cmd%% -c -o *}
	cmd=${cmd/-Wp,-MMD,mm\/.memblock.o.d/}
	for h in "${hfiles[@]}"; do
		case $h in
		include/*) inc=${h#include/} ;;
		arch/arm/include/*) inc=${h#arch/arm/include/} ;;
		esac
		printf '#include <%s>\n' "$inc" >"$o/header-test.c"
		echo "HEADER $inc" >>"$out"
		(cd "$o" && eval "$cmd -c -o header-test.o header-test.c") >>"$out" 2>&1 || return 1
	done
}

# row_config LINE: a line of configs/compile.tsv configured at the series
# (name, defconfig and fragments then set, the .config kept as
# SAVED-NAME.config); returns 1, with the row failed, when a fragment's
# value is not in the .config.
row_config() {
	IFS=$'\t' read -r name defconfig fragments <<<"$1"
	read -ra frags <<<"$fragments"
	frags=("${frags[@]/#/$TOP/configs/compile/}")
	say "$stage" "$name: $defconfig + $fragments"
	checkout "$head"
	configure "$wt" "$o" "$defconfig" "${frags[@]}"
	bad=$(fragments_not_taken "$o/.config" "${frags[@]}")
	if [ -n "$bad" ]; then
		record FAIL "$name" "fragment values not in the .config: $bad"
		return 1
	fi
	cp "$o/.config" "$saved$name.config"
}

# base_warnings NAME OBJECT...: the same config at the base (the series'
# .config without its symbols), those of the objects it builds there
# (bobjs) built, their warnings in RES/NAME.base.warnings.
base_warnings() {
	local name=$1
	shift
	checkout "$base_rev"
	kconfig "$wt" "$o" syncconfig
	rm -f "$o/.compile-stamp"
	mapfile -t bobjs < <(objects "$wt" "$o" | grep -Fxf <(printf '%s\n' "$@") || true)
	if [ ${#bobjs[@]} -gt 0 ]; then
		compile "$wt" "$o" "$res/$name.base.log" "${bobjs[@]}" ||
			die "$stage" "$res/$name.base.log" "$name: the base does not build"
	else
		: >"$res/$name.base.log"
	fi
	warnings "$wt" "$res/$name.base.log" >"$res/$name.base.warnings"
}

mapfile -t table < <(sed -e '/^#/d' -e '/^$/d' "$TOP/configs/compile.tsv" | tail -n +2)
head=${commits[${#commits[@]} - 1]}

# The rows: the series' objects and headers, then the base's.
if [ "$mode" = rows ]; then
	for line in "${table[@]}"; do
		row_config "$line" || continue
		mapfile -t objs < <(objects "$wt" "$o")
		if [ ${#objs[@]} -eq 0 ]; then
			record FAIL "$name" "$(no_objects)"
			continue
		fi
		rc=0
		compile "$wt" "$o" "$res/$name.log" "${objs[@]}" || rc=$?
		[ "$rc" -ne 0 ] || headers "$o" "$res/$name.log" || rc=$?
		if [ "$rc" -ne 0 ]; then
			record FAIL "$name" "build failed: $(grep -m1 error: <<<"$(warnings "$wt" "$res/$name.log")" ||
				tail -n 1 "$res/$name.log"), log: $res/$name.log"
			continue
		fi
		warnings "$wt" "$res/$name.log" >"$res/$name.warnings"
		detail="${#objs[@]} objects, ${#hfiles[@]} headers, $(wc -l <"$res/$name.warnings") warnings"
		# No warning: nothing to compare with the base.
		if [ ! -s "$res/$name.warnings" ]; then
			: >"$res/$name.base.warnings"
			record PASS "$name" "$detail"
			continue
		fi
		# The objects the base must build to explain the warnings: read
		# before the checkout, which leaves the series' .cmd files in
		# place until the base rebuilds them.
		mapfile -t need < <(warned_objects "$o" "$res/$name.warnings" "${objs[@]}")
		base_warnings "$name" "${need[@]}"
		new=$(comm -13 "$res/$name.base.warnings" "$res/$name.warnings")
		detail+=", all also at the base (${#bobjs[@]} objects built there)"
		if [ -z "$new" ]; then
			record PASS "$name" "$detail"
		else
			printf '%s\n' "$new" >"$res/$name.new-warnings"
			record FAIL "$name" "$(wc -l <<<"$new") new warning(s), first: $(head -n 1 <<<"$new"); all: $res/$name.new-warnings"
		fi
	done
	echo "$key" >"$res/key"
	report "$gate"
	exit
fi

# Bisection: the first row's config at the series, the base's warnings in
# it (every object of the series that the base has, built there, W=1),
# then each prefix of the series, in the same folder (incremental: a
# prefix rebuilds what its patch changed, the first one what the series
# changed up to it from the base).
if ! row_config "${table[0]}"; then
	report "$gate"
	exit 1
fi
first=$name
mapfile -t need < <(objects "$wt" "$o")
SPARSE=0 base_warnings "$first" "${need[@]}"
say "$stage" "$first at the base: ${#bobjs[@]} objects, $(wc -l <"$res/$first.base.warnings") warnings"
n=0
for c in "${commits[@]}"; do
	n=$((n + 1))
	subject=$(git -C "$src" log -1 --format=%s "$c")
	kernel=(-- '*.c' '*.h' '*Kconfig*' '*Makefile' '*Kbuild' ':!tools/' ':!Documentation/')
	if [ "$n" -gt 1 ] && git -C "$src" diff --quiet "$c~1" "$c" "${kernel[@]}"; then
		record PASS "bisect/$n" "$subject: no C file, header, Kconfig or Makefile of the kernel changed"
		continue
	fi
	checkout "$c"
	# The first row's values for the symbols this prefix has (a new
	# symbol would otherwise get its default).
	if [ "$n" -eq 1 ] || ! git -C "$src" diff --quiet "$c~1" "$c" -- '*Kconfig*'; then
		cp "$saved$first.config" "$o/.config"
		kconfig "$wt" "$o" syncconfig
	fi
	mapfile -t objs < <(objects "$wt" "$o")
	if [ ${#objs[@]} -eq 0 ]; then
		record FAIL "bisect/$n" "$subject: $(no_objects)"
		continue
	fi
	blog=$res/bisect-$(printf '%02d' "$n").log
	say "$stage" "prefix $n/${#commits[@]}: $subject (${#objs[@]} objects)"
	if ! KEEP=1 SPARSE=0 compile "$wt" "$o" "$blog" "${objs[@]}"; then
		record FAIL "bisect/$n" "$subject: build failed: $(grep -m1 'error:' "$blog" || tail -n 1 "$blog"), log: $blog"
		continue
	fi
	new=$(comm -13 "$res/$first.base.warnings" <(warnings "$wt" "$blog"))
	if [ -z "$new" ]; then
		record PASS "bisect/$n" "$subject: ${#objs[@]} objects"
	else
		record FAIL "bisect/$n" "$subject: new warning: $(head -n 1 <<<"$new"), log: $blog"
	fi
done
echo "$key" >"$res/key"
report "$gate"
