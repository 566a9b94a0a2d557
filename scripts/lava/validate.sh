#!/bin/bash
# Validate the generated LAVA jobs ($LAVA_JOBS/*.yaml, default $BUILD/lava/,
# from scripts/lava/jobs.sh) with LAVA's own code, Debian's packages:
#   schema/JOB    lava_common.schemas.validate(), strict: what a LAVA server
#                 checks on submission (lava-common)
#   pipeline/JOB  the dispatcher's parser and Job.validate() against a device
#                 of the job's type (configs/lava/devices/TYPE-*.jinja2,
#                 rendered with lava-server's device-type templates and the
#                 job's context): what lava-run checks before it runs a job
#                 (lava-dispatcher).  The job's artifact URLs are pointed at
#                 empty local files: that the real ones exist is not checked.
# One PASS/FAIL line per check and job, also in
# $BUILD/results/lava/results.tsv; a SKIP, with the reason, when the
# packages cannot be installed.  Exits 1 if a check failed.
#
# Usage: scripts/lava/validate.sh
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
build_lock "$@"
. "$(dirname "$0")/lib.sh"

jobs_dir=${LAVA_JOBS:-$BUILD/lava}
res=$BUILD/results/lava
mkdir -p "$res" "$BUILD/logs"
tsv=$res/results.tsv
log=$BUILD/logs/lava-validate.log
: >"$tsv"
: >"$log"

mapfile -t jobs < <(find "$jobs_dir" -maxdepth 1 -name '*.yaml' | LC_ALL=C sort)
if [ ${#jobs[@]} -eq 0 ]; then
	record FAIL jobs "no job in $jobs_dir (run scripts/lava/jobs.sh)"
	report lava
	exit 1
fi

if ! lava_install "$log" lava-common; then
	record SKIP schema "lava-common is not installable: $pkgs_why"
	report lava
	exit 0
fi
start=$(date +%s.%N)
"$LAVA_PY" "$TOP/scripts/lava/validate.py" schema "${jobs[@]}" >>"$tsv" 2>>"$log" ||
	die lava "$log" "lava/validate.py schema"
schema_s=$(echo "$(date +%s.%N) - $start" | bc)

# The pipeline check: the same jobs, their URLs pointed at empty files.
if ! lava_install "$log" lava-dispatcher u-boot-tools telnet; then
	record SKIP pipeline "lava-dispatcher is not installable: $pkgs_why"
elif ! types=$(lava_device_types); then
	record SKIP pipeline "$types"
else
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	declare -A by_type=()
	for job in "${jobs[@]}"; do
		name=$(basename "$job" .yaml)
		sed -E "s|^( *url: ).*/([^/]+)\$|\\1file://$tmp/art/$name/\\2|" "$job" >"$tmp/$name.yaml"
		mkdir -p "$tmp/art/$name"
		sed -n "s|^ *url: file://||p" "$tmp/$name.yaml" | xargs -r touch
		type=$(sed -n 's/^device_type: *//p' "$job")
		by_type[$type]+="$tmp/$name.yaml "
	done
	start=$(date +%s.%N)
	for type in "${!by_type[@]}"; do
		read -ra list <<<"${by_type[$type]}"
		dict=$(find "$TOP/configs/lava/devices" -name "$type-*.jinja2" | LC_ALL=C sort | sed -n 1p)
		if [ -z "$dict" ]; then
			for j in "${list[@]}"; do
				record FAIL "pipeline/$(basename "$j")" "no device dictionary configs/lava/devices/$type-*.jinja2"
			done
			continue
		fi
		LAVA_VALIDATE_LOG=$BUILD/logs/lava-validate-pipeline.log \
			"$LAVA_PY" "$TOP/scripts/lava/validate.py" pipeline "$types" "$dict" "${list[@]}" \
			>>"$tsv" 2>>"$log" || die lava "$log" "lava/validate.py pipeline"
	done
	pipeline_s=$(echo "$(date +%s.%N) - $start" | bc)
fi

report_rc=0
report lava || report_rc=$?
say lava "${#jobs[@]} jobs: schema in $(printf %.1f "$schema_s") s${pipeline_s:+, pipeline in $(printf %.1f "$pipeline_s") s}" \
	"($(grep -c "^PASS" "$tsv" || true) passed, $(grep -c "^FAIL" "$tsv" || true) failed, $(grep -c "^SKIP" "$tsv" || true) skipped)"
exit "$report_rc"
