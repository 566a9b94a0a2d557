#!/bin/bash
# Run the qemu LAVA job of matrix rows for real, with Debian's lava-dispatcher
# (lava-run) and a local device: configs/lava/devices/qemu-local.jinja2
# rendered with lava-server's qemu device-type template and the job's context,
# as a LAVA server would hand it to its worker.  Then judge the guest's
# output (the job's target log) with the judge of the QEMU rows,
# scripts/stages/results.sh, against the row's expectations and policy.
#
# Usage: scripts/lava/run.sh [ROW...]   (default: the first row of the matrix)
#   A row without a LAVA job (lib.sh lava_no_job: booted with a device-tree
#   fragment, of kind edge or panic) is skipped, saying why.
#   Needs the rows' builds ($BUILD/out/KEY: make run ROW=...).  Per row,
#   $BUILD/lava-run/ROW/ holds the job, the device configuration, lava-run's
#   log (lava.log), LAVA's results (results.yaml: every result lava-run
#   reported), the guest's output (target.log) and results.tsv; all rows' checks go to
#   $BUILD/results/lava-run/results.tsv, named ROW/CHECK.  Exits 1 if a
#   check failed.  LAVA_RUN_TIMEOUT (seconds, default 600) bounds lava-run.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
build_lock "$@"
. "$(dirname "$0")/lib.sh"

rows=("$@")
[ ${#rows[@]} -gt 0 ] || { mapfile -t rows < <(matrix rows) && rows=("${rows[0]}"); }
res=$BUILD/results/lava-run
mkdir -p "$res" "$BUILD/logs"
tsv=$res/results.tsv
log=$BUILD/logs/lava-run.log
: >"$tsv"
: >"$log"

sudo=()
if [ "$(id -u)" -ne 0 ]; then
	if ! command -v sudo >/dev/null; then
		record SKIP lava-run "lava-run must run as root, and there is no sudo"
		report lava-run
		exit 0
	fi
	sudo=(sudo)
fi
if ! lava_install "$log" lava-dispatcher qemu-system-arm; then
	record SKIP lava-run "lava-dispatcher is not installable: $pkgs_why"
	report lava-run
	exit 0
fi
if ! types=$(lava_device_types); then
	record SKIP lava-run "$types"
	report lava-run
	exit 0
fi

# lava_results DIR: every result in DIR/lava.log (lava-run's log: one YAML
# mapping a line), one line each: definition, set, case, result, error
# message; also DIR/results.yaml (the results, as a list) and DIR/target.log
# (what the guest printed).
lava_results() {
	"$LAVA_PY" - "$1" <<'PY'
import os, sys, yaml
d = sys.argv[1]
results = []
with open(os.path.join(d, "lava.log"), encoding="utf-8", errors="replace") as f, \
        open(os.path.join(d, "target.log"), "w", encoding="utf-8") as target:
    for line in f:
        if '"lvl": "results"' not in line and '"lvl": "target"' not in line:
            continue
        try:
            entry = yaml.safe_load(line)
            lvl, msg = entry["lvl"], entry["msg"]
        except (yaml.YAMLError, KeyError, TypeError):
            continue
        if lvl == "target":
            target.write("%s\n" % msg)
            continue
        results.append(msg)
        print("\t".join(str(msg.get(k, "")).replace("\t", " ").replace("\n", " ")
                        for k in ("definition", "set", "case", "result", "error_msg")))
with open(os.path.join(d, "results.yaml"), "w", encoding="utf-8") as f:
    yaml.safe_dump(results, f, default_flow_style=False)
PY
}

for row in "${rows[@]}"; do
	if why=$(lava_no_job "$row"); then
		record SKIP "$row/lava-run" "no LAVA job: $why"
		continue
	fi
	dir=$BUILD/lava-run/$row
	rm -rf "$dir"
	mkdir -p "$dir"
	if ! "$TOP/scripts/lava/artifacts.sh" "$row" >>"$log" 2>&1; then
		record SKIP "$row/lava-run" "no artifacts: $(tail -n 1 "$log" | sed 's/^\[.*FAILED: //')"
		continue
	fi
	LAVA_JOBS=$dir ARTIFACTS_URL=file://$BUILD/lava/artifacts DEVICE_TYPES=qemu \
		"$TOP/scripts/lava/jobs.sh" "$row" >>"$log"
	job=$dir/$row-qemu.yaml
	"$LAVA_PY" "$TOP/scripts/lava/device.py" "$types" "$TOP/configs/lava/devices/qemu-local.jinja2" \
		"$job" >"$dir/device.yaml" 2>>"$log" || die lava-run "$log" "lava/device.py for $row"

	say lava-run "$row: lava-run $(basename "$job") on qemu-local (timeout ${LAVA_RUN_TIMEOUT:-600}s)"
	start=$(date +%s)
	rc=0
	"${sudo[@]}" timeout "${LAVA_RUN_TIMEOUT:-600}" nice lava-run --job-id "ioremap-ram-$row" \
		--output-dir "$dir/output" --device "$dir/device.yaml" "$job" >"$dir/lava.log" 2>&1 || rc=$?
	secs=$(($(date +%s) - start))
	lava_results "$dir" >"$dir/lava-results.tsv"
	say lava-run "$row: lava-run exit $rc in ${secs}s, $(wc -l <"$dir/lava-results.tsv") results; log: $dir/lava.log"

	# 1. The job: LAVA's own verdict (boot, login, test shell, results).
	job_line=$(awk -F'\t' '$1 == "lava" && $3 == "job"' "$dir/lava-results.tsv" | tail -n 1)
	if [ "$(cut -f4 <<<"$job_line")" = pass ]; then
		record PASS "$row/lava job" "lava-run: job complete in ${secs}s"
	else
		record FAIL "$row/lava job" "lava-run exit $rc after ${secs}s: $(cut -f5 <<<"$job_line") (log: $dir/lava.log)"
	fi

	# 2. The guest's run, by the same judge as a QEMU row's console: the
	# target log holds the same suite between the same markers.
	"$TOP/scripts/stages/results.sh" "$row" "$dir/target.log" "$dir/judge" >/dev/null || true
	while IFS=$'\t' read -r status check detail; do
		record "$status" "$row/$check" "$detail"
	done <"$dir/judge/results.tsv"
	grep -P "^[A-Z]+\t\Q$row/\E" "$tsv" >"$dir/results.tsv" || true
done

report lava-run
