#!/bin/bash
# The memblock simulator (tools/testing/memblock) on the kernel tree the
# series is applied to: the tree's own mm/memblock.c, built for the host and
# run in user space with its test cases, memblock_overlaps_map_memory()'s
# among them.
#   - the suite is built from a copy of the files it needs at commit REV,
#     in build/memblock-BASE, so that the tree stays as the series left it;
#   - ./main -v runs every case; a failed case stops the run (assert());
#   - one PASS line per case, named by its prefixes ("memblock_add/
#     memblock_add_simple_check"), also in build/results/memblock-BASE/
#     results.tsv, and a line "run" for the run as a whole.
# The cases count only if the run reached its end: exit status 0, no
# sanitizer report, no case failed.  Otherwise the failed case (from its
# "not ok" line, or from the assert() message) and "run" are FAILs and the
# cases that passed before are left out.  A failed build is a FAIL "build".
#
# Usage: scripts/gates/memblock-test.sh SRC BASE [REV]
#   REV: the commit of SRC to test (default HEAD), e.g. a prefix of the series
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
build_lock "$@"

src=$(realpath -m "${1:?usage: memblock-test.sh SRC BASE [REV]}")
base=${2:?usage: memblock-test.sh SRC BASE [REV]}
rev=$(git -C "$src" rev-parse --verify -q "${3:-HEAD}^{commit}") ||
	die memblock "" "${3:-HEAD}: no such commit in $src"
revname="$(git -C "$src" log -1 --format='%h ("%s")' "$rev")"
# One run per base at a time: the copy and the results are shared.
work=$BUILD/memblock-$base
mkdir -p "$work"
exec 9>"$work.lock"
flock 9
res=$BUILD/results/memblock-$base
mkdir -p "$res"
tsv=$res/results.tsv
: >"$tsv"
blog=$res/build.log
rlog=$res/run.log
: >"$blog"
: >"$rlog"
[ -f "$src/tools/testing/memblock/main.c" ] ||
	die memblock "" "$src has no tools/testing/memblock"

# tools/lib/slab.c needs liburcu's headers (Debian's liburcu-dev).
if ! echo '#include <urcu/uatomic.h>' | cc -E -x c - >/dev/null 2>&1; then
	record FAIL run "no <urcu/uatomic.h>, which the simulator needs (Debian liburcu-dev: scripts/stages/deps.sh installs it)"
	report "memblock-$base"
	exit 1
fi

# The files the simulator's build reaches from tools/testing/memblock:
# ../../include and ../../lib, the kernel headers and mm/memblock.c that
# they and its symlinks lead to, and kselftest.h, taken from commit REV of
# SRC (git archive): the tree stays as the series left it, and REV may be a
# prefix of the series.
say memblock "copying the simulator of $src at $revname to $work"
rm -rf "$work/tree"
mkdir -p "$work/tree"
git -C "$src" archive --format=tar "$rev" -- include arch/x86/include tools/include tools/lib \
	tools/arch tools/testing/selftests/kselftest.h mm/memblock.c tools/testing/memblock 2>>"$blog" |
	tar -x -C "$work/tree" 2>>"$blog" ||
	die memblock "$blog" "copying the simulator's files from $src at $rev"
sim=$work/tree/tools/testing/memblock

# Host code: none of the kernel build's variables (ARCH, CROSS_COMPILE from
# lib.sh) nor the simulator's own (NUMA, MEMBLOCK_DEBUG, BUILD=32 and the
# flags, which make takes from the environment) come from the caller.
mk() {
	env -u ARCH -u CROSS_COMPILE -u CFLAGS -u LDFLAGS -u NUMA -u MEMBLOCK_DEBUG -u BUILD \
		make -C "$sim" "$@"
}
say memblock "building tools/testing/memblock ($(nproc) jobs)"
if ! { mk clean && mk -j"$(nproc)" main; } >>"$blog" 2>&1 ||
	[ ! -x "$sim/main" ]; then
	record FAIL build "make failed, log: $blog; first error: $(grep -m1 -E 'error|Error' "$blog" ||
		tail -n 1 "$blog")"
	report "memblock-$base"
	exit 1
fi
record PASS build "tools/testing/memblock of linux-source-$base at $revname"

# stdout line-buffered (stdbuf), so that the "ok"/"not ok" lines before an
# assert() reach the log: abort() does not flush stdio.  stdbuf preloads a
# library, which AddressSanitizer wants to come after its own runtime.
# UBSan stops at its first report, as a failed assert() does.
say memblock "running ./main -v"
# (bash's own "Aborted" line goes to /dev/null: the log has the reason.)
rc=0
{ (cd "$sim" && ASAN_OPTIONS=verify_asan_link_order=0:${ASAN_OPTIONS:-} \
	UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1:${UBSAN_OPTIONS:-} \
	timeout "${MEMBLOCK_TIMEOUT:-600}" stdbuf -oL ./main -v) >"$rlog" 2>&1; } 2>/dev/null || rc=$?

# case_lines LOG: "ok|not ok<TAB>prefix/name" of each case line of a run:
# "ok 12 : memblock_add: memblock_add_simple_check: passed"
# "not ok 13 : memblock_add: memblock_add_disjoint_check: failed"
case_lines() {
	sed -nE 's/^(not ok|ok) [0-9]+ : (.*): (passed|failed)[[:space:]]*$/\1\t\2/p' "$1" |
		sed -E 's/: /\//g'
}
cases=$res/cases.tsv
case_lines "$rlog" >"$cases"
npass=$(grep -c '^ok' "$cases" || true)
failed=$(sed -n '/^not ok\t/{s///p;q;}' "$cases")
# "main: tests/basic_api.c:416: memblock_add_near_max_check: Assertion `...' failed."
assertion=$(grep -m1 -E '^[^ ]*main: [^:]+:[0-9]+: [A-Za-z0-9_]+: Assertion ' "$rlog" || true)
sanitizer=$(grep -m1 -E 'runtime error:|ERROR: (Address|Leak|Undefined)Sanitizer' "$rlog" || true)

if [ "$rc" -eq 0 ] && [ -z "$failed" ] && [ -z "$assertion" ] && [ -z "$sanitizer" ] &&
	[ "$npass" -gt 0 ]; then
	sed -n 's/^ok\t//p' "$cases" | while IFS= read -r name; do
		record PASS "$name"
	done
	record PASS run "$npass cases, exit 0, log: $rlog"
else
	if [ -z "$failed" ] && [ -n "$assertion" ]; then
		failed=$(sed -E 's/^[^ ]*main: [^:]+:[0-9]+: ([A-Za-z0-9_]+): .*/\1/' <<<"$assertion")
	fi
	if [ -n "$failed" ]; then
		record FAIL "$failed" "${assertion:-${sanitizer:-failed}}, log: $rlog"
	fi
	case $rc in
	0) why="exit 0" ;;
	124) why="timed out after ${MEMBLOCK_TIMEOUT:-600} s" ;;
	134) why="aborted (exit 134)" ;;
	*) why="exit $rc" ;;
	esac
	if [ -n "$sanitizer" ]; then
		why="$why, sanitizer: $sanitizer"
	elif [ "$rc" -eq 0 ] && [ -z "$failed" ] && [ "$npass" -eq 0 ]; then
		why="$why but no case ran"
	fi
	record FAIL run "$why, after $npass passed case(s), not counted; log: $rlog"
fi

# The same simulator with a 32-bit phys_addr_t, ARM's without LPAE
# (32BIT_PHYS_ADDR_T=1): an i386 build, run with qemu-i386 (this kernel may
# run no i386 binary itself), without AddressSanitizer (whose shadow
# memory qemu-user cannot host).  Upstream's own allocation cases fail in
# this mode on the base as well (alloc_top_down_simple_check, measured
# 2026-12-07 on 6.12, after 45 passed cases; with the series 51), so the
# run counts the cases up to its first failure: every
# memblock_overlaps_map_memory case must be among them and pass.
cc32=i686-linux-gnu-gcc
if ! command -v "$cc32" >/dev/null || ! command -v qemu-i386 >/dev/null; then
	record SKIP 32bit "no $cc32 or qemu-i386 (scripts/stages/deps.sh installs crossbuild-essential-i386, qemu-user and liburcu-dev:i386 when it can)"
else
	say memblock "building and running it with a 32-bit phys_addr_t (i386, qemu-i386)"
	rm -rf "$work/tree32"
	cp -a "$work/tree" "$work/tree32"
	sim=$work/tree32/tools/testing/memblock
	blog=$res/build-32bit.log
	rlog=$res/run-32bit.log
	flags="-I. -I../../include -Wall -O2 -fsanitize=undefined -D CONFIG_PHYS_ADDR_T_64BIT"
	if ! { mk clean && mk -j"$(nproc)" CC="$cc32" 32BIT_PHYS_ADDR_T=1 \
		CFLAGS="$flags -m32 -U CONFIG_PHYS_ADDR_T_64BIT" LDFLAGS="-fsanitize=undefined -m32" main; } \
		>"$blog" 2>&1; then
		record FAIL 32bit "make failed, log: $blog"
	else
		# A terminal for stdout (script): line-buffered, so that the lines
		# before an assert() are not lost.
		(cd "$sim" && UBSAN_OPTIONS=halt_on_error=1 timeout "${MEMBLOCK_TIMEOUT:-600}" \
			script -qec "qemu-i386 -L /usr/i686-linux-gnu ./main -v" /dev/null) 2>&1 |
			tr -d '\r' >"$rlog" || true
		case_lines "$rlog" >"$res/cases-32bit.tsv"
		ours=$(grep -c $'\tmemblock_overlaps_map_memory/' "$res/cases-32bit.tsv" || true)
		{ grep $'^ok\tmemblock_overlaps_map_memory/' "$res/cases-32bit.tsv" || true; } | cut -f2 |
			while IFS= read -r name; do record PASS "32bit/$name"; done
		bad=$(grep -m1 $'^not ok\tmemblock_overlaps_map_memory/' "$res/cases-32bit.tsv" | cut -f2 || true)
		first=$(grep -m1 $'^not ok\t' "$res/cases-32bit.tsv" | cut -f2 || true)
		n32=$(grep -c '^ok' "$res/cases-32bit.tsv" || true)
		if [ -n "$bad" ] || [ "$ours" -eq 0 ]; then
			record FAIL "32bit/${bad:-memblock_overlaps_map_memory}" "${bad:+failed}${bad:-no case ran}; log: $rlog"
		elif [ -n "$first" ]; then
			record SKIP 32bit/rest "$n32 cases passed, then upstream's own $first fails, as on the base; log: $rlog"
		else
			record PASS 32bit/run "$n32 cases; log: $rlog"
		fi
	fi
fi

report "memblock-$base"
