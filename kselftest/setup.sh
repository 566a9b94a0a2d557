# shellcheck shell=sh
# The guest's setup, shared by both /init scripts: kselftest/init (the QEMU
# guests: run the suite, power off) and configs/lava/init (the LAVA
# guests: a shell for LAVA's test shell).  Sourced from
# /lib/ioremap-ram/setup.sh, where scripts/stages/rootfs.sh installs it:
# busybox's applets, the mounts and /dev links the suite needs.

/bin/busybox --install -s
# runner.sh calls /usr/bin/timeout --foreground when it exists; busybox's
# timeout rejects that option, so leave it out: QEMU's run and LAVA's
# test shell have timeouts of their own.
rm -f /usr/bin/timeout
mkdir -p /proc /sys /dev /tmp /run
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev 2>/dev/null
# runner.sh writes to /dev/stdout: devtmpfs has no such links, udev makes them.
ln -sf /proc/self/fd /dev/fd
ln -sf /proc/self/fd/0 /dev/stdin
ln -sf /proc/self/fd/1 /dev/stdout
ln -sf /proc/self/fd/2 /dev/stderr
mount -t debugfs debugfs /sys/kernel/debug
mount -t tmpfs tmpfs /tmp
