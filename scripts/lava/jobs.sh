#!/bin/bash
# shellcheck disable=SC2153 # BASE, POLICY...: the row's record (row_record)
# LAVA job definitions from the test matrix: for each row of
# configs/matrix.tsv (or those given) and each device type, the template
# configs/lava/job-DEVICE_TYPE.yaml filled in with the row, followed by the
# test action configs/lava/test-kselftest.yaml: both loaded as YAML, filled
# in as data and written with yaml.safe_dump (scripts/harness.py lava-job),
# so that a value is YAML whatever it holds.  Writes
# $LAVA_JOBS/ROW-DEVICE_TYPE.yaml (default $BUILD/lava/).
#
# Usage: scripts/lava/jobs.sh [ROW...]
#   ARTIFACTS_URL  base URL of the artifacts (default file://$BUILD/lava/artifacts,
#                  what scripts/lava/artifacts.sh fills); a job takes its
#                  files from ARTIFACTS_URL/BUILD_KEY/DEVICE_TYPE/
#   DEVICE_TYPES   default "qemu beaglebone-black"
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
build_lock "$@"
. "$(dirname "$0")/lib.sh"

url_base=${ARTIFACTS_URL:-file://$BUILD/lava/artifacts}
url_base=${url_base%/}
out=${LAVA_JOBS:-$BUILD/lava}
read -ra types <<<"${DEVICE_TYPES:-qemu beaglebone-black}"
rows=("$@")
mkdir -p "$out"
if [ ${#rows[@]} -eq 0 ]; then
	mapfile -t rows < <(matrix rows)
	# all rows: no job of a row that is gone from the matrix
	find "$out" -maxdepth 1 -name '*.yaml' -delete
fi
stamp=$(series_stamp)

n=0
for row in "${rows[@]}"; do
	# The row's record (scripts/lib.sh row_record): the device's memory
	# is the row's, its other qemu options the device's extra options; the
	# guest runs the kselftests the row's expectations name.
	# shellcheck source=/dev/null
	. "$(row_record "$row")"
	if why=$(lava_no_job "$row"); then
		say lava-jobs "$row: left out: $why"
		continue
	fi
	for type in "${types[@]}"; do
		tmpl=$TOP/configs/lava/job-$type.yaml
		[ -f "$tmpl" ] || die lava-jobs "" "no template $tmpl for device type $type"
		job=$out/$row-$type.yaml
		# Debian's python3, which has python3-yaml (scripts/stages/deps.sh).
		if ! err=$("$LAVA_PY" "$TOP/scripts/harness.py" lava-job --job "$tmpl" \
			--test "$TOP/configs/lava/test-kselftest.yaml" --device-type "$type" \
			--url-base "$url_base" --series "$stamp" --out "$job" \
			ROW="$ROW" KEY="$KEY" EXPECT="$EXPECT" POLICY="$POLICY" TESTS="$TESTS" \
			PARAMS="$PARAMS" GUEST_ENV="$GUEST_ENV" MEMORY="$MEMORY" QEMU_EXTRA="$QEMU_EXTRA" \
			QEMU_MACHINE="$QEMU_MACHINE" QEMU_CPU="$QEMU_CPU" 2>&1); then
			die lava-jobs "" "$err"
		fi
		n=$((n + 1))
	done
done
say lava-jobs "$n jobs ($((n / ${#types[@]})) rows x ${#types[@]} device types) in $out, artifacts from $url_base"
