#!/bin/bash
# Stage "boot": boot one built kernel and its initramfs in QEMU, capture the console.
#
# Usage: scripts/stages/boot.sh OUT RES "QEMU OPTIONS" "KERNEL CMDLINE"
#   Boots OUT's zImage and rootfs with QEMU OPTIONS (the machine of
#   configs/qemu.env and the row's: a row's record has them as QEMU_OPTS);
#   writes RES/console.log and RES/boot.seconds.  BOOT_DT=FILE.dtsi, set by
#   scripts/stages/row.sh and judge-live.sh for a row with a -dtb fragment: the
#   guest boots QEMU's own device tree for these options (dumped with
#   -machine dumpdtb) with FILE's nodes added by dtc (RES/row.dts, .dtb).
#   The guest's /init runs the
#   suite and powers off; BOOT_TIMEOUT (seconds, default 1200) bounds a run
#   that never gets there; a guest whose kernel oopsed or panicked and then
#   printed nothing for BOOT_STALL seconds (default 60) is stopped then,
#   not at the timeout.  A boot that times out or is stopped is not a
#   failure of this stage: the judge (scripts/stages/results.sh) fails it, since
#   the console log says how far the guest got.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

out=$(realpath -m "${1:?usage: boot.sh OUT RES QEMU-OPTIONS CMDLINE}")
res=$(realpath -m "${2:?usage: boot.sh OUT RES QEMU-OPTIONS CMDLINE}")
qopts=${3:-}
extra=${4:-}
[ "$extra" != "-" ] || extra=""
mkdir -p "$res"
log=$res/console.log
timeout_s=${BOOT_TIMEOUT:-1200}
stall_s=${BOOT_STALL:-60}
# What leaves a guest that will not finish: an oops or a panic, not a WARN.
fatal='Internal error: Oops|Unable to handle kernel|Kernel panic - not syncing|BUG: scheduling while atomic|exited with irqs disabled'

for f in "$out/arch/arm/boot/zImage" "$out/rootfs.cpio.gz"; do
	[ -f "$f" ] || die boot "" "$f missing (run the build and rootfs stages)"
done

# log_buf_len=4M: the kernel log dumped after the suite holds the whole boot
# (the judge fails a dump that does not start at the boot banner); the
# console itself stays at loglevel=4 so that no kernel line breaks a KTAP
# one.  -nic none avoids the missing efi-virtio.rom.
read -ra qarr <<<"$qopts"
cmd=(qemu-system-arm -nic none -nographic -no-reboot "${qarr[@]}"
	-kernel "$out/arch/arm/boot/zImage" -initrd "$out/rootfs.cpio.gz"
	-append "console=ttyAMA0 loglevel=4 log_buf_len=4M panic=-1${extra:+ $extra}")
if [ -n "${BOOT_DT:-}" ]; then
	dlog=$res/dtb.log
	: >"$dlog"
	run_logged boot "$dlog" qemu-system-arm -nic none -nographic "${qarr[@]}" \
		-machine dumpdtb="$res/qemu.dtb"
	run_logged boot "$dlog" dtc -q -I dtb -O dts -o "$res/qemu.dts" "$res/qemu.dtb"
	cat "$res/qemu.dts" "$BOOT_DT" >"$res/row.dts"
	run_logged boot "$dlog" dtc -q -I dts -O dtb -o "$res/row.dtb" "$res/row.dts"
	cmd+=(-dtb "$res/row.dtb")
	say boot "${res##*/}: QEMU's device tree with ${BOOT_DT##*/configs/} added: $res/row.dts"
fi
echo "${cmd[*]}" >"$res/qemu.cmd"
say boot "${res##*/}: qemu-system-arm ${qopts}${extra:+, cmdline: $extra} (timeout ${timeout_s}s)"
start=$(date +%s)
rc=0
stopped=""
timeout "$timeout_s" "${cmd[@]}" </dev/null >"$log" 2>&1 &
qpid=$!
# The guest's end is seen within a quarter of a second (a short guest
# takes 2 s, and two run at a time); a stall is looked for every 2 s.
polls=0
while kill -0 "$qpid" 2>/dev/null; do
	sleep 0.25
	polls=$((polls + 1))
	[ $((polls % 8)) -eq 0 ] || continue
	[ $(($(date +%s) - $(stat -c %Y "$log"))) -ge "$stall_s" ] || continue
	stopped=$(grep -m1 -oE "$fatal" "$log") || continue
	kill "$qpid" 2>/dev/null || true
	break
done
wait "$qpid" || rc=$?
secs=$(($(date +%s) - start))
echo "$secs" >"$res/boot.seconds"
if [ -n "$stopped" ]; then
	say boot "${res##*/}: stopped after ${secs}s: '$stopped' and no output for ${stall_s}s; console: $log"
elif [ "$rc" -eq 124 ]; then
	say boot "${res##*/}: timed out after ${secs}s; console: $log"
else
	say boot "${res##*/}: guest done in ${secs}s (qemu exit $rc); console: $log"
fi
