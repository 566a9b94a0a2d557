#!/bin/bash
# Rows of the test matrix (configs/matrix.tsv), then a summary.  Each row
# is built, booted in QEMU and judged (scripts/stages/row.sh); a row boots while
# the next ones build, up to GUESTS (default 2) guests at a time.
#
# With --all (make check), around the rows: first the judge's own tests
# on its fixtures and ShellCheck (scripts/gates/judge-test.sh, seconds: every
# verdict after it is the judge's), and the tree stage's on a stand-in
# repository (tests/tree/run.sh, seconds); beside them and the rows, the
# review gates (scripts/gates/gates.sh: lint and the memblock simulator on
# each base the rows use, Coccinelle, compile coverage, bisection, the mbox
# test) from the start; the LAVA jobs, generated
# and validated with LAVA's code, beside the rows too; after the rows and
# the gates, the first row's qemu job run with lava-run and judged by the
# same judge.  The gates and the LAVA jobs are bounded (GATES_TIMEOUT):
# past the deadline they are stopped and fail, with their processes listed.
# The trees of the bases after the first row's are prepared from the start
# as well, so that their rows do not wait for them.
#
# The summary gives every row's and gate's counts, each FAIL with its
# reason, the time of each stage (build/times.tsv) and ends with the line
# "N passed, N failed, N skipped"; exits 1 if any check failed.
#
# Usage: [GUESTS=N] scripts/check.sh [--all] [--base BASE] [ROW...]
#   (default: every row; with --base and no ROW, the first row of BASE)
set -euo pipefail
. "$(dirname "$0")/lib.sh"

all=0 base=""
if [ "${1:-}" = --all ]; then
	all=1
	shift
fi
if [ "${1:-}" = --base ]; then
	base=${2:?--base BASE}
	shift 2
fi

build_lock "$@"
mkdir -p "$BUILD/logs"

rows=("$@")
if [ ${#rows[@]} -eq 0 ] && [ -n "$base" ]; then
	rows=("$(matrix rows --base "$base" --first)")
	[ -n "${rows[0]}" ] || die check "" "no row of configs/matrix.tsv has the base '$base' (bases: $(matrix bases | tr '\n' ' '))"
fi
[ ${#rows[@]} -gt 0 ] || mapfile -t rows < <(matrix rows)
# The rows' bases, in the order of their first row; one call for all rows
# (a Python start is about 0.25 s here), and an unknown row is named.
row_bases=$(matrix bases "${rows[@]}" 2>&1) ||
	die check "" "${row_bases#harness.py matrix: } (rows: $(matrix rows | tr '\n' ' '))"
: >"$BUILD/times.tsv"
# What ran before this script (make, scripts/stages/deps.sh) counts as "deps".
printf 'deps\tdeps\t%s\n' $(($(date +%s) - T0)) >>"$BUILD/times.tsv"
extra=()

# The gates, in the background from the start (they take each base's tree
# from scripts/stages/tree.sh, which one row or gate at a time prepares), at the
# rows' priority (GATES_NICE=N lowers theirs): they are two chains of one
# gate after another (gates.sh), and niced they are left to run after the
# rows, on the cores the rows no longer use, at the end of a cold run.
gates_pid=""
gates_nice=${GATES_NICE:-0}
case $gates_nice in
'' | *[!0-9]*) die check "" "GATES_NICE=$gates_nice: want a nice value, 0 to 19" ;;
esac
# (GUESTS too is checked before anything starts in the background.)
max_guests=${GUESTS:-2}
case $max_guests in
'' | *[!0-9]*) die check "" "GUESTS=$max_guests: want a number of guests, 1 or more" ;;
esac
max_guests=$((10#$max_guests))
[ "$max_guests" -ge 1 ] || die check "" "GUESTS=${GUESTS:-}: want a number of guests, 1 or more"
# The gates and LAVA's jobs are stopped, and fail, if they are not done
# GATES_TIMEOUT seconds into the run (default 3000: a cold run's gates
# are done in about 20 minutes, CI stops at 90).
gates_timeout=${GATES_TIMEOUT:-3000}
case $gates_timeout in
'' | *[!0-9]*) die check "" "GATES_TIMEOUT=$gates_timeout: want seconds" ;;
esac
gates_timeout=$((10#$gates_timeout))

# bounded NAME PID DEADLINE LOG: wait for the background job PID until
# DEADLINE (seconds since the epoch).  Past it, the processes it still
# runs are listed on stdout and in LOG, then stopped (TERM, 5 s later
# KILL), and bounded returns 1.
bounded() {
	local name=$1 pid=$2 deadline=$3 log=$4 pids
	while kill -0 "$pid" 2>/dev/null; do
		if [ "$(date +%s)" -lt "$deadline" ]; then
			sleep 2
			continue
		fi
		mapfile -t pids < <(descendants "$pid")
		say check "FAILED: $name still running past the deadline; stopped. Its processes:" |
			tee -a "$log"
		ps -o pid,ppid,pgid,etime,time,stat,args -p "$(
			IFS=,
			echo "${pids[*]}"
		)" | sed 's/^/         | /' | tee -a "$log"
		kill -TERM "${pids[@]}" 2>/dev/null || true
		sleep 5
		kill -KILL "${pids[@]}" 2>/dev/null || true
		wait "$pid" 2>/dev/null || true
		return 1
	done
	wait "$pid" 2>/dev/null || true
}
start_gates() {
	[ "$all" = 1 ] && [ -z "$gates_pid" ] || return 0
	local bases
	bases=$(tr '\n' ' ' <<<"$row_bases")
	say check "review gates (${bases% }) run beside the rows (nice $gates_nice); log: $BUILD/logs/gates.log"
	# shellcheck disable=SC2086 # one word a base
	nice -n "$((10#$gates_nice))" "$TOP/scripts/gates/gates.sh" $bases >"$BUILD/logs/gates.log" 2>&1 &
	gates_pid=$!
}

# The gates start first: their tree extraction (one core) runs while the
# judge is tested on the other; the first row waits for that tree anyway.
# The other bases' trees (scripts/stages/tree.sh: one preparation a base at a
# time, under a lock) are made beside them: in the middle of the run a
# row of another base waited 1 to 2 minutes for its tree, with the other
# rows queued behind it.
start_gates
early_trees=()
for b in $(tail -n +2 <<<"$row_bases"); do
	say check "the $b tree, beside the first rows; log: $BUILD/logs/tree-early-$b.log"
	timed tree "$b" "$TOP/scripts/stages/tree.sh" "$b" >"$BUILD/logs/tree-early-$b.log" 2>&1 &
	early_trees+=($!)
done
if [ "$all" = 1 ]; then
	say check "the judge on its fixtures, ShellCheck"
	waited timed judge-test judge "$TOP/scripts/gates/judge-test.sh" >"$BUILD/logs/judge-test.log" 2>&1 || true
	grep -E '^  FAIL' "$BUILD/logs/judge-test.log" || true
	extra+=(judge)
	say check "the tree stage on a stand-in repository (a user's tree is never touched)"
	waited timed tree-test tree "$TOP/tests/tree/run.sh" >"$BUILD/logs/tree-test.log" 2>&1 || true
	grep -E '^  FAIL' "$BUILD/logs/tree-test.log" || true
	extra+=(tree)
fi

# The LAVA jobs need no build: generated and validated beside the rows, at
# the lowest priority (the cores the rows and gates leave idle), instead of
# after them (about 100 s at the end of a cold run).
lava_pid=""
if [ "$all" = 1 ]; then
	rm -f "$BUILD/results/lava/results.tsv" "$BUILD/results/lava-run/results.tsv"
	say check "LAVA jobs: generated and validated beside the rows; log: $BUILD/logs/lava.log"
	{ timed lava jobs nice -n 19 "$TOP/scripts/lava/jobs.sh" &&
		timed lava validate nice -n 19 "$TOP/scripts/lava/validate.sh"; } \
		>"$BUILD/logs/lava.log" 2>&1 &
	lava_pid=$!
fi

# Rows in order; a row boots while the next ones are prepared (built), up
# to GUESTS guests at a time (default 2, one a core): the cores a compiler
# or a guest leaves idle are used, and the rows that need no build boot
# two at a time.  A row's boot and verdict touch only its own results
# folder, and its build is never rebuilt in the same run.
BUILT=$BUILD/.built-this-run
: >"$BUILT"
export BUILT
guests=()
# wait_guests N: wait until fewer than N guests run.
wait_guests() {
	local running pid alive
	while :; do
		running=" $(jobs -rp | tr '\n' ' ')"
		alive=()
		for pid in "${guests[@]}"; do
			case $running in *" $pid "*) alive+=("$pid") ;; *) wait "$pid" || true ;; esac
		done
		guests=("${alive[@]}")
		[ ${#guests[@]} -ge "$1" ] || return 0
		wait -n "${guests[@]}" || true
	done
}
for row in "${rows[@]}"; do
	rm -f "$BUILD/results/$row/results.tsv"
	prepared=1
	waited "$TOP/scripts/stages/row.sh" --prepare "$row" || prepared=0
	wait_guests "$max_guests"
	if [ "$prepared" -eq 1 ]; then
		"$TOP/scripts/stages/row.sh" --boot "$row" &
		guests+=($!)
	fi
done
wait_guests 1
[ ${#early_trees[@]} -eq 0 ] || wait "${early_trees[@]}" || true

if [ "$all" = 1 ]; then
	# The judge on a kernel made to fail (scripts/gates/judge-live.sh), on the
	# debug row's build, made above.
	live_row=6.12-debug
	if grep -qxF "$live_row" <<<"$(printf '%s\n' "${rows[@]}")"; then
		say check "the judge on the $live_row kernel made to fail on purpose; log: $BUILD/logs/judge-live.log"
		waited timed judge-live "$live_row" "$TOP/scripts/gates/judge-live.sh" "$live_row" \
			>"$BUILD/logs/judge-live.log" 2>&1 || true
	else
		mkdir -p "$BUILD/results/judge-live"
		printf 'SKIP\tjudge-live\trow %s, whose kernel it boots, is not among the rows\n' \
			"$live_row" >"$BUILD/results/judge-live/results.tsv"
	fi
	extra+=(judge-live)
	# Commands stopped by a signal at several points (tests/stop/run.py),
	# after the rows: its guest boots a kernel they built.
	say check "commands stopped by a signal leave nothing behind; log: $BUILD/logs/stop-test.log"
	mkdir -p "$BUILD/results/stop"
	waited timed stop-test stop "$TOP/tests/stop/run.py" >"$BUILD/results/stop/results.tsv" \
		2>"$BUILD/logs/stop-test.log" || true
	extra+=(stop)
	# The gates first, then LAVA's jobs, each bounded: a stage that hangs
	# is stopped at the deadline and fails, named, with the processes it
	# left in its log, instead of holding the run past CI's budget.
	if [ -n "$gates_pid" ]; then
		say check "waiting for the review gates (deadline: $gates_timeout s into the run)"
		if ! bounded "review gates" "$gates_pid" "$((T0 + gates_timeout))" "$BUILD/logs/gates.log"; then
			# The planned gates that never said they were done fail.
			sed -n 's/^plan: //p' "$BUILD/logs/gates.log" | while read -r g; do
				grep -qxF "gate: $g" "$BUILD/logs/gates.log" && continue
				mkdir -p "$BUILD/results/$g"
				printf 'FAIL\t%s\tnot done %s s into the run (GATES_TIMEOUT): stopped, log: %s\n' \
					"$g" "$gates_timeout" "$BUILD/logs/gates.log" >>"$BUILD/results/$g/results.tsv"
			done
		fi
		mapfile -t -O ${#extra[@]} extra < <(sed -n 's/^plan: //p' "$BUILD/logs/gates.log")
		# (no plan: gates.sh stopped before it; "gates" has no results, fails)
		grep -q '^plan: ' "$BUILD/logs/gates.log" || extra+=(gates)
	fi
	# LAVA: a job per row and device type, validated with LAVA's own code,
	# and the first row's qemu job run for real with lava-run, judged by
	# the judge of the rows.
	if ! bounded "LAVA jobs" "$lava_pid" "$((T0 + gates_timeout))" "$BUILD/logs/lava.log"; then
		printf 'FAIL\tlava\tjobs not generated and validated %s s into the run: stopped, log: %s\n' \
			"$gates_timeout" "$BUILD/logs/lava.log" >>"$BUILD/results/lava/results.tsv"
	fi
	# The first row that has a LAVA job (a "-dtb" row has none: it would
	# only be skipped, saying why).
	lava_row=${rows[0]}
	for r in "${rows[@]}"; do
		if ! lava_no_job "$r" >/dev/null; then
			lava_row=$r
			break
		fi
	done
	say check "LAVA: $lava_row run with lava-run"
	waited timed lava-run "$lava_row" "$TOP/scripts/lava/run.sh" "$lava_row" >>"$BUILD/logs/lava.log" 2>&1 || true
	extra+=(lava lava-run)
	# What the rows put the series through, as a table (never a verdict).
	"$TOP/scripts/reliability.sh" >/dev/null &&
		say check "reliability table (load, faults, bad input, splats): $BUILD/results/reliability.md"
fi
rows+=("${extra[@]}")
echo
echo "Summary (KTAP, JUnit XML and console logs under $BUILD/results/):"

summary "${rows[@]}" || fail=1
echo
echo "Stage times (seconds, summed over the stage's runs; rows build while"
echo "earlier rows boot and the gates run beside them, so they overlap;"
echo "CPU: user + system of the stage's processes, on $(nproc) cores):"
awk -F'\t' '{ n[$1]++; t[$1] += $3; c[$1] += $4; if (!($1 in o)) o[$1] = ++k }
	END { for (s in o) printf "%d\t%s\t%d\t%d\t%d\n", o[s], s, n[s], t[s], c[s] }' "$BUILD/times.tsv" |
	sort -n | while IFS=$'\t' read -r _ stage n t c; do
		printf '  %-12s %3d run(s) %5d s (%d:%02d), CPU %5d s\n' "$stage" "$n" "$t" $((t / 60)) $((t % 60)) "$c"
	done
total=$(($(date +%s) - T0))
printf '  %-12s %14d s (%d:%02d)\n' wall "$total" $((total / 60)) $((total % 60))
say check "done"
tail -n 1 "$BUILD/summary.txt"
[ "${fail:-0}" -eq 0 ]
