# shellcheck shell=bash
# Common helpers for the stage scripts: logging with elapsed time and
# failure reports that name the stage and its log.  Sourced, not run.

: "${TOP:=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}"
: "${BUILD:=$TOP/build}"
: "${T0:=$(date +%s)}"
export TOP BUILD T0

# elapsed: seconds since the top-level command started, as m:ss
elapsed() {
	local s=$(($(date +%s) - T0))
	printf '%d:%02d' $((s / 60)) $((s % 60))
}

# say STAGE MESSAGE...: one progress line
say() {
	local stage=$1
	shift
	printf '[%6s] %-8s %s\n' "$(elapsed)" "$stage" "$*"
}

# die STAGE LOG MESSAGE...: report a failed stage and where its log is
die() {
	local stage=$1 log=$2
	shift 2
	printf '[%6s] %-8s FAILED: %s\n' "$(elapsed)" "$stage" "$*" >&2
	if [ -n "$log" ] && [ -f "$log" ]; then
		printf '         log: %s (last lines below)\n' "$log" >&2
		tail -n 20 "$log" | sed 's/^/         | /' >&2
	fi
	exit 1
}

# run_logged STAGE LOG CMD...: run CMD with output to LOG, die on failure
run_logged() {
	local stage=$1 log=$2
	shift 2
	mkdir -p "$(dirname "$log")"
	if ! "$@" >>"$log" 2>&1; then
		die "$stage" "$log" "$*"
	fi
}

# row_field ROW COLUMN: a column of configs/matrix.tsv for one row
row_field() {
	local row=$1 col=$2
	awk -F'\t' -v row="$row" -v col="$col" '
		/^#/ || NF == 0 { next }
		!hdr { for (i = 1; i <= NF; i++) idx[$i] = i; hdr = 1; next }
		$1 == row { print $idx[col]; found = 1 }
		END { exit !found }' "$TOP/configs/matrix.tsv"
}

# expect_tests FILE: the kselftests an expectation file names, as the
# guest's suite takes them (kselftest/suite): "arm:NAME,arm:NAME...", not
# its KUnit suites ("kunit:SUITE") nor what it allows ("allow ...").
expect_tests() {
	awk '{ sub(/#.*/, "") } NF && $1 !~ /^kunit:/ && $1 != "allow" && $1 != "expect" { print "arm:" $1 }' "$1" |
		awk '!seen[$0]++' | paste -sd, -
}

# series_stamp: a fingerprint of patches/ (the series file and the patches)
series_stamp() {
	find "$TOP/patches" -name '*.patch' -o -name series | sort | xargs cat |
		sha1sum | cut -c1-40
}

# build_key BASE FRAGMENT...: the build folder's name under $BUILD/out.
# Rows with the same base and fragments share one build (they differ in
# how they boot).
build_key() {
	local base=$1
	shift
	echo "$base-$(sed -e 's/\.config//g' -e 's/ /+/g' <<<"$*")"
}

# build_seeds BASE KEY: the other build folders of BASE, which a first
# build of KEY may start from (scripts/stages/build.sh, SEEDS).
build_seeds() {
	find "$BUILD/out" -maxdepth 1 -name "$1-*" ! -name "$2" 2>/dev/null | tr '\n' ' '
}

# series_list SRC REV: the patches of patches/series to apply to SRC at
# REV, in order.  A line "NAME  # needs: PATH" is left out, with a note on
# stderr, when REV has no file PATH, and "NAME  # needs: PATH: TEXT" when
# PATH does not hold TEXT (a patch for newer trees only: an interface the
# patch uses that older trees lack).
series_list() {
	local src=$1 rev=$2 name rest need path text
	while read -r name rest; do
		need=$(sed -n -e 's/.*#[[:space:]]*needs:[[:space:]]*//' -e 's/[[:space:]]*$//p' <<<"$rest")
		path=${need%%: *} text=""
		[ "$path" = "$need" ] || text=${need#*: }
		if [ -n "$path" ] && ! git -C "$src" cat-file -e "$rev:$path" 2>/dev/null; then
			echo "leaving out $name: it needs $path, which this tree does not have" >&2
			continue
		fi
		if [ -n "$text" ] && ! git -C "$src" grep -qF -e "$text" "$rev" -- "$path" 2>/dev/null; then
			echo "leaving out $name: it needs '$text' in $path, which this tree does not have" >&2
			continue
		fi
		echo "$name"
	done < <(sed -e '/^[[:space:]]*#/d' -e '/^[[:space:]]*$/d' "$TOP/patches/series")
}

# tree_path BASE: the kernel tree the rows of BASE build, which
# scripts/stages/tree.sh prepares: build/src/linux-BASE, made from Debian's
# tarball, or with KERNEL_SRC a git worktree of that repository under
# build/src (one per repository and base), so that the user's own
# checkout is never touched.  Fails if KERNEL_SRC is not a git repository.
tree_path() {
	local common
	if [ -z "${KERNEL_SRC:-}" ]; then
		echo "$BUILD/src/linux-$1"
		return
	fi
	common=$(git -C "$KERNEL_SRC" rev-parse --path-format=absolute --git-common-dir 2>/dev/null) ||
		return 1
	echo "$BUILD/src/kernel-src-$1-$(printf '%s' "$common" | sha1sum | cut -c1-8)"
}

# tree_note SRC NAME [VALUE]: what scripts/stages/tree.sh noted of its tree SRC:
# "stamp" (the series and the commit it was applied to), "base" (that
# commit) and "description" (the cover letter's subject and blurb).  Prints
# NAME, or sets it to VALUE ("" removes it).  The notes are files in the
# tree's own git folder (a worktree's is its own), never in a repository's
# config: a user's repository keeps its config as it was.
tree_note() {
	local f
	f=$(git -C "$1" rev-parse --path-format=absolute --git-path "ioremap-ram/$2") || return 1
	if [ $# -lt 3 ]; then
		cat "$f" 2>/dev/null
	elif [ -z "$3" ]; then
		rm -f "$f"
	else
		mkdir -p "${f%/*}"
		printf '%s\n' "$3" >"$f"
	fi
}

# tree_base SRC: the commit the series was applied to in SRC (tag "base"
# of a tree made from Debian's tarball, or what scripts/stages/tree.sh noted).
tree_base() {
	local rev
	rev=$(tree_note "$1" base) && [ -n "$rev" ] && { echo "$rev"; return; }
	git -C "$1" rev-parse -q --verify 'refs/tags/base^{commit}'
}

# matrix_rows: the names of all rows of configs/matrix.tsv
matrix_rows() {
	awk -F'\t' '/^#/ || NF == 0 { next } !hdr { hdr = 1; next } { print $1 }' \
		"$TOP/configs/matrix.tsv"
}

CROSS_COMPILE=${CROSS_COMPILE:-arm-linux-gnueabihf-}
export CROSS_COMPILE ARCH=arm

# ccache for every compiler the builds call, the cross and the host one,
# unless CCACHE=0.  The cache lives outside the clone (ccache's own default,
# ~/.cache/ccache, or CCACHE_DIR), so a second run on the same machine, even
# from a fresh clone, is warm: paths below TOP are hashed relative to the
# build folder (CCACHE_BASEDIR), and depend mode takes the headers from the
# compiler's own -MMD output instead of running the preprocessor a second
# time on a miss.
# The cross compiler goes through scripts/stages/cc-ccache, which leaves assembler
# sources out of the cache: one may .incbin a file no dependency list names
# (arch/arm/boot/compressed/piggy.S takes the compressed kernel so), and
# ccache would hand back the zImage of an earlier build of the same config.
# The host compiler goes through Debian's masquerade links (/usr/lib/ccache).
if [ "${CCACHE:-1}" != 0 ] && command -v ccache >/dev/null &&
   [ -x /usr/lib/ccache/gcc ]; then
	ccbin=$BUILD/ccache-bin
	# The compiler itself, found once, before the links come first on PATH.
	if [ -z "${CC_CCACHE_REAL:-}" ]; then
		CC_CCACHE_REAL=$(command -v "${CROSS_COMPILE}gcc" || true)
		export CC_CCACHE_REAL
	fi
	# A CROSS_COMPILE with a folder in it is called by its path: no cache.
	if [ "${CROSS_COMPILE#*/}" = "$CROSS_COMPILE" ] &&
	   [ ! -x "$ccbin/${CROSS_COMPILE}gcc" ]; then
		mkdir -p "$ccbin"
		ln -sfn "$TOP/scripts/stages/cc-ccache" "$ccbin/${CROSS_COMPILE}gcc.$$"
		mv -f "$ccbin/${CROSS_COMPILE}gcc.$$" "$ccbin/${CROSS_COMPILE}gcc"
	fi
	case :$PATH: in
	*:/usr/lib/ccache:*) ;;
	*) PATH=/usr/lib/ccache:$PATH ;;
	esac
	case :$PATH: in
	*:"$ccbin":*) ;;
	*) PATH=$ccbin:$PATH ;;
	esac
	CCACHE_BASEDIR=$TOP CCACHE_DEPEND=1
	export PATH CCACHE_BASEDIR CCACHE_DEPEND
fi

# run_progress STAGE LOG CMD...: like run_logged, for long commands: prints a
# line every 30 s with the elapsed time and the last line of the log.
run_progress() {
	local stage=$1 log=$2 pid rc=0 n=0
	shift 2
	mkdir -p "$(dirname "$log")"
	"$@" >>"$log" 2>&1 &
	pid=$!
	while kill -0 "$pid" 2>/dev/null; do
		sleep 1
		n=$((n + 1))
		if [ $((n % 30)) -eq 0 ]; then
			say "$stage" "... $(tail -n 1 "$log" | cut -c1-70)"
		fi
	done
	wait "$pid" || rc=$?
	[ "$rc" -eq 0 ] || die "$stage" "$log" "$* (exit $rc)"
}

# fragments_not_taken CONFIG FRAGMENT...: print the fragments' CONFIG_ lines
# that CONFIG does not have (merge_config.sh only warns about them).  A later
# fragment overrides an earlier one, as in merge_config.sh; "=n" means absent.
fragments_not_taken() {
	local config=$1 line sym
	shift
	local -A want=()
	while IFS= read -r line; do
		case $line in CONFIG_*=*) want[${line%%=*}]=$line ;; esac
	done < <(sed -e 's/#.*//' -e 's/[[:space:]]*$//' -e '/^$/d' "$@")
	for sym in "${!want[@]}"; do
		line=${want[$sym]}
		case $line in
		*=n) if grep -q "^$sym=" "$config"; then printf '%s ' "$line"; fi ;;
		*) grep -qxF "$line" "$config" || printf '%s ' "$line" ;;
		esac
	done
}

# record STATUS CHECK [DETAIL]: one result (PASS, FAIL or SKIP) in $tsv, the
# results.tsv of the running stage, which scripts/check.sh sums up
# shellcheck disable=SC2154 # tsv is the sourcing stage's
record() { printf '%s\t%s\t%s\n' "$1" "$2" "${3:-}" >>"$tsv"; }

# report LABEL: print the results of $tsv, a line each; fails if one failed
report() {
	local status check detail
	while IFS=$'\t' read -r status check detail; do
		printf '  %-4s %-12s %s%s\n' "$status" "$1" "$check" "${detail:+  ($detail)}"
	done <"$tsv"
	! grep -q '^FAIL' "$tsv"
}

# checkpatch SRC DIR PATCH: SRC's (an absolute path) checkpatch.pl --strict on DIR/PATCH, run
# from DIR, which must be outside any git checkout's tracked files (given a
# path git tracks, checkpatch checks the file itself, not the patch in it);
# prints its terse report, or nothing when clean.  UNKNOWN_COMMIT_ID is left
# to lint's "fixes" check (configs/fixes.tsv): checkpatch looks a Fixes: id
# up with git log, and Debian's tarball has no history.  FILE_PATH_CHANGES
# is asked of every patch that adds a file without touching MAINTAINERS,
# even when a pattern of the entry covers it; lint's "maintainers" check
# asks get_maintainer.pl instead.  Used by scripts/gates/lint.sh and the mbox test.
checkpatch() {
	(cd "$2" && perl "$1/scripts/checkpatch.pl" --strict --no-tree --terse --show-types \
		--ignore UNKNOWN_COMMIT_ID,FILE_PATH_CHANGES "$3" 2>&1) || true
}

# kunit_dir: the folder of the kernel's KTAP parser (kunit_parser.py), which
# scripts/stages/judge.py uses: tools/testing/kunit of the 6.12 tree if it has
# been laid out, else unpacked from Debian's linux-source-6.12 on its own.
kunit_dir() {
	local tree=$BUILD/src/linux-6.12/tools/testing/kunit cache=$BUILD/cache/kunit
	local tarball=/usr/src/linux-source-6.12.tar.xz
	if [ -f "$tree/kunit_parser.py" ]; then
		echo "$tree"
		return
	fi
	# One unpacking at a time: two guests' judges may get here at once.
	mkdir -p "$BUILD/cache"
	(
		flock 7
		if [ ! -f "$cache/tools/testing/kunit/kunit_parser.py" ]; then
			[ -f "$tarball" ] || die judge "" "$tarball missing (run scripts/stages/deps.sh)"
			rm -rf "$cache"
			mkdir -p "$cache"
			tar -C "$cache" -xJf "$tarball" --strip-components=1 --wildcards '*/tools/testing/kunit/*' ||
				die judge "" "no tools/testing/kunit in $tarball"
		fi
	) 7>"$BUILD/cache/.kunit.lock" || exit 1
	echo "$cache/tools/testing/kunit"
}

# timed STAGE NAME CMD...: run CMD and add its wall time to
# $BUILD/times.tsv ("STAGE<TAB>NAME<TAB>SECONDS"), which scripts/check.sh
# sums up per stage.  Returns CMD's exit status.
timed() {
	local stage=$1 name=$2 start rc=0
	shift 2
	start=$(date +%s)
	"$@" || rc=$?
	mkdir -p "$BUILD"
	printf '%s\t%s\t%s\n' "$stage" "$name" $(($(date +%s) - start)) >>"$BUILD/times.tsv"
	return "$rc"
}

# The QEMU machine (configs/qemu.env): QEMU_MACHINE, QEMU_CPU, QEMU_MEMORY.
# shellcheck source=configs/qemu.env
. "$TOP/configs/qemu.env"

# row_record ROW: resolve ROW of configs/matrix.tsv, once, into its record
# $BUILD/rows/ROW.env and print the record's path.  The record is shell
# assignments that every stage sources instead of reading matrix columns:
#   ROW BASE KIND FRAGMENTS KEY OUT RES POLICY EXPECT TESTS
#   PARAMS     the kernel parameters
#   GUEST_ENV  the guest's environment (NAME=VALUE ...)
#   CMDLINE    what the rows add to the kernel command line: PARAMS,
#              GUEST_ENV and KSELFTEST_TESTS=TESTS
#   MEMORY     MiB (configs/qemu.env, or the row's -m)
#   QEMU_EXTRA the row's other qemu options
#   QEMU_OPTS  every qemu-system-arm option of the machine and the row
#   DT_FRAGMENT  configs/FILE.dtsi when the row's qemu options have
#              "-dtb FILE.dtsi": nodes added to QEMU's own device tree for
#              this machine (scripts/stages/boot.sh makes the DTB), or empty
# lava_no_job ROW: why ROW has no LAVA job, on stdout (a row booted with a
# device-tree fragment, "-dtb": a LAVA device boots its own DTB; a row of
# kind "edge": it boots twice; of kind "panic": it ends in a panic, which
# a LAVA job reports as its failure); status 1 and nothing printed when it
# has one.  Read by lava/jobs.sh, lava/run.sh and check.sh.
lava_no_job() {
	local dt kind
	# shellcheck source=/dev/null disable=SC2153 # KIND: the row's record
	read -r kind dt < <(. "$(row_record "$1")" && echo "$KIND $DT_FRAGMENT") || return 1
	if [ "$kind" = edge ]; then
		echo "it boots its kernel twice, the first time without the pool, which one LAVA job does not"
	elif [ "$kind" = panic ]; then
		echo "it ends in the panic it expects, which a LAVA job reports as its own failure"
	elif [ -n "$dt" ]; then
		echo "its device tree is QEMU's with ${dt##*/configs/} added, which a LAVA device's own DTB does not have"
	else
		return 1
	fi
}

row_record() {
	local row=$1 rec=$BUILD/rows/$1.env col val tests memory=$QEMU_MEMORY dt=""
	local -A c=()
	while IFS=$'\t' read -r col val; do
		[ "$val" != "-" ] || val=""
		c[$col]=$val
	done < <(awk -F'\t' -v row="$row" '
		/^#/ || NF == 0 { next }
		!hdr { for (i = 1; i <= NF; i++) name[i] = $i; hdr = 1; next }
		$1 == row { for (i = 1; i <= NF; i++) print name[i] "\t" $i; found = 1 }
		END { exit !found }' "$TOP/configs/matrix.tsv") || true
	[ -n "${c[name]:-}" ] || die row "" "no row '$row' in configs/matrix.tsv"
	local -a rq rextra=()
	read -ra rq <<<"${c[qemu]}"
	for ((i = 0; i < ${#rq[@]}; i++)); do
		if [ "${rq[i]}" = -m ] && [ $((i + 1)) -lt ${#rq[@]} ]; then
			memory=${rq[i + 1]}
			i=$((i + 1))
		elif [ "${rq[i]}" = -dtb ] && [[ ${rq[i + 1]:-} == *.dtsi ]]; then
			dt=$TOP/configs/${rq[i + 1]}
			[ -f "$dt" ] || die row "" "row $row: $dt missing"
			i=$((i + 1))
		else
			rextra+=("${rq[i]}")
		fi
	done
	tests=$(expect_tests "$TOP/kselftest/expect/${c[expect]}")
	local key
	# shellcheck disable=SC2086 # one word a fragment
	key=$(build_key "${c[base]}" ${c[fragments]})
	mkdir -p "$BUILD/rows"
	{
		printf '# The record of row %s (configs/matrix.tsv, configs/qemu.env),\n' "$row"
		printf '# written by scripts/lib.sh row_record: read by every stage.\n'
		printf 'ROW=%q\nBASE=%q\nKIND=%q\nFRAGMENTS=%q\n' "$row" "${c[base]}" "${c[kind]}" "${c[fragments]}"
		printf 'KEY=%q\nOUT=%q\nRES=%q\n' "$key" "$BUILD/out/$key" "$BUILD/results/$row"
		printf 'POLICY=%q\nEXPECT=%q\nTESTS=%q\n' "${c[policy]}" \
			"$TOP/kselftest/expect/${c[expect]}" "$tests"
		printf 'PARAMS=%q\nGUEST_ENV=%q\n' "${c[params]}" "${c[env]}"
		printf 'CMDLINE=%q\n' "$(xargs <<<"${c[params]} ${c[env]} ${tests:+KSELFTEST_TESTS=$tests}")"
		printf 'MEMORY=%q\nQEMU_EXTRA=%q\n' "$memory" "${rextra[*]}"
		printf 'QEMU_OPTS=%q\n' "-M $QEMU_MACHINE -cpu $QEMU_CPU -m $memory${rextra[*]:+ ${rextra[*]}}"
		printf 'DT_FRAGMENT=%q\n' "$dt"
	} >"$rec.tmp.$BASHPID"
	# A temporary file of this process's own: the LAVA jobs, made beside
	# the rows, write the same records at the same time (same content).
	mv "$rec.tmp.$BASHPID" "$rec"
	echo "$rec"
}

# summary NAME...: each row's or gate's counts (build/results/NAME/
# results.tsv; none is a failure), its FAILs with their reasons, and the
# total line "N passed, N failed, N skipped", also in $BUILD/summary.txt
# (its last line).  Returns 1 if a check failed.
summary() {
	local name tsv p f s pass=0 fail=0 skip=0
	for name in "$@"; do
		tsv=$BUILD/results/$name/results.tsv
		if [ ! -s "$tsv" ]; then
			mkdir -p "${tsv%/*}"
			printf 'FAIL\t%s\tno results\n' "$name" >"$tsv"
		fi
		p=$(grep -c '^PASS' "$tsv" || true)
		f=$(grep -c '^FAIL' "$tsv" || true)
		s=$(grep -c '^SKIP' "$tsv" || true)
		printf '  %-28s %3d passed, %d failed, %d skipped\n' "$name" "$p" "$f" "$s"
		{ grep '^FAIL' "$tsv" || true; } | while IFS=$'\t' read -r _ check detail; do
			printf '      FAIL %s: %s\n' "$check" "$detail"
		done
		pass=$((pass + p)) fail=$((fail + f)) skip=$((skip + s))
	done
	echo "$pass passed, $fail failed, $skip skipped" >"$BUILD/summary.txt"
	[ "$fail" -eq 0 ]
}
