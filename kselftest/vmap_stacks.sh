#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The harness's guest test of the KASAN fix ("ARM: kasan: give the vmalloc
# shadow its page tables at boot with LPAE"), kept out of the series: its
# criterion is that the kernel lives on.  scripts/stages/rootfs.sh installs it
# beside the series' kselftests, first in their list.
#
# Start processes that stay, each blocked at once, until their stacks
# (CONFIG_VMAP_STACK: vmalloc areas; a process that stays keeps its stack,
# so each new one needs a new area) open a 16 MiB window of the vmalloc
# area that held no area before, beside a busy loop and the older
# processes.  With LPAE and CONFIG_KASAN_VMALLOC, the KASAN shadow of such a
# window needs a PTE table that the page tables of older processes did not
# copy: a process blocking on a stack there switches to an older process's
# page tables while still on that stack, and a fault on the stack's shadow
# recursed until the stack overflowed, unless kasan_init() gave the whole
# vmalloc shadow its tables at boot.  The processes are subshells of this
# one (a fork, no exec), blocked opening a FIFO until the end.  The test
# is that the kernel lives on: a crash ends the run, and this result is
# missing.  Harmless elsewhere.  One KTAP result.  Run it first after
# boot: a window that held an area before, since freed, keeps its shadow
# page table, and the test then proves nothing.
#
# Usage: vmap_stacks.sh	(VMAP_STACKS_MAX: most processes, default 2000)

ksft_skip=4
MAX=${VMAP_STACKS_MAX:-2000}
# Processes started after the first new window is seen, so that some run
# there while the scheduler switches to and from older processes.
MARGIN=64
# How often (in processes) the vmalloc areas are read.
STEP=50

skip_all()
{
	echo "TAP version 13"
	echo "1..0 # SKIP $*"
	exit $ksft_skip
}

case "$(uname -m)" in
arm*)	;;
*)	skip_all "not a 32-bit ARM machine ($(uname -m))" ;;
esac
[ "$(id -u)" -eq 0 ] || skip_all "must be run as root"
[ -r /proc/vmallocinfo ] || skip_all "/proc/vmallocinfo not readable"
# The addresses of /proc/vmallocinfo (%pK), unhashed for root while the
# test runs.
KPTR=/proc/sys/kernel/kptr_restrict
kptr=$(cat "$KPTR" 2>/dev/null) || kptr=""
if [ -z "$kptr" ] || ! { echo 1 > "$KPTR"; } 2>/dev/null; then
	skip_all "cannot set $KPTR to 1 (to read the addresses of /proc/vmallocinfo)"
fi
hogs=""
tmp=""
fifo=""
n=0
# release: end the blocked processes and wait for them: a line each in the
# FIFO, held open until they are gone (one that opens it only now finds
# its line too); then the FIFO goes
release()
{
	[ -n "$fifo" ] && [ -p "$fifo" ] || return 0
	exec 3<> "$fifo"
	i=0
	while [ "$i" -lt "$n" ]; do
		echo
		i=$((i + 1))
	done >&3
	wait 2>/dev/null
	exec 3>&-
	rm -f "$fifo"
}
# cleanup: stop the busy loop and the blocked processes, put kptr_restrict
# back, remove the list
# shellcheck disable=SC2317 # called by the trap
cleanup()
{
	# shellcheck disable=SC2086 # a list of pids
	[ -z "$hogs" ] || kill $hogs 2>/dev/null
	release
	echo "$kptr" > "$KPTR"
	[ -z "$tmp" ] || rm -f "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP

# windows: the 16 MiB windows of the vmalloc area that an area covers, from
# its start to its last byte, as two hex digits (32-bit addresses), one a
# line
windows()
{
	sed -n 's/^0x\([0-9a-f]\{8\}\)-0x\([0-9a-f]\{8\}\) .*/\1 \2/p' /proc/vmallocinfo |
	while read -r start end; do
		w=$((0x$start >> 24))
		last=$(((0x$end - 1) >> 24))
		while [ "$w" -le "$last" ]; do
			printf '%02x\n' "$w"
			w=$((w + 1))
		done
	done | sort -u
}

tmp=$(mktemp) || skip_all "mktemp failed"
fifo=$tmp.fifo
mkfifo "$fifo" || skip_all "mkfifo $fifo failed"
windows > "$tmp"
[ -s "$tmp" ] || skip_all "no 32-bit addresses in /proc/vmallocinfo"
[ "$(cat "$tmp")" != 00 ] ||
	skip_all "the addresses of /proc/vmallocinfo read as 0 (no CAP_SYSLOG?)"

echo "TAP version 13"
echo "1..1"
echo "# windows of the vmalloc area in use: $(tr '\n' ' ' < "$tmp")"
echo "# meaningful on the first run after boot only: a window used and freed"
echo "# before keeps its shadow page table"

while :; do :; done &
hogs=$!

new=""
left=$MAX
while [ "$left" -gt 0 ]; do
	# shellcheck disable=SC2034 # read to block, the value unused
	(read -r line < "$fifo") &
	n=$((n + 1))
	left=$((left - 1))
	if [ -z "$new" ] && [ $((n % STEP)) -eq 0 ]; then
		new=$(windows | grep -vxF -f "$tmp")
		[ -z "$new" ] || left=$MARGIN
	fi
done
# shellcheck disable=SC2086 # a list of pids
kill $hogs
hogs=""
release

if [ -z "$new" ]; then
	echo "ok 1 new_window # SKIP no new 16 MiB window of the vmalloc area after $n processes"
	echo "# Totals: pass:0 fail:0 xfail:0 xpass:0 skip:1 error:0"
	exit $ksft_skip
fi
echo "# $n processes, stacks in the new windows $(echo "$new" | tr '\n' ' ')and the kernel alive"
echo "ok 1 new_window"
echo "# Totals: pass:1 fail:0 xfail:0 xpass:0 skip:0 error:0"
exit 0
