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
# build of KEY may start from (scripts/build.sh, SEEDS).
build_seeds() {
	find "$BUILD/out" -maxdepth 1 -name "$1-*" ! -name "$2" 2>/dev/null | tr '\n' ' '
}

# series_list SRC REV: the patches of patches/series to apply to SRC at
# REV, in order.  A line "NAME  # needs: PATH" is left out, with a note on
# stderr, when REV has no file PATH (a patch for newer trees only).
series_list() {
	local src=$1 rev=$2 name rest need
	while read -r name rest; do
		need=$(sed -n 's/.*#[[:space:]]*needs:[[:space:]]*\([^[:space:]]*\).*/\1/p' <<<"$rest")
		if [ -n "$need" ] && ! git -C "$src" cat-file -e "$rev:$need" 2>/dev/null; then
			echo "leaving out $name: it needs $need, which this tree does not have" >&2
			continue
		fi
		echo "$name"
	done < <(sed -e '/^[[:space:]]*#/d' -e '/^[[:space:]]*$/d' "$TOP/patches/series")
}

# matrix_rows: the names of all rows of configs/matrix.tsv
matrix_rows() {
	awk -F'\t' '/^#/ || NF == 0 { next } !hdr { hdr = 1; next } { print $1 }' \
		"$TOP/configs/matrix.tsv"
}

CROSS_COMPILE=${CROSS_COMPILE:-arm-linux-gnueabihf-}
export CROSS_COMPILE ARCH=arm

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
