# ARM ioremap() of RAM: policy series, remap pool, and the kselftests that prove them.
#
# Commands
#   make run      one row of the matrix: the patched kernel built, booted in
#                 QEMU, the suite run and judged (default: the first row of
#                 BASE, a reject kernel with a remap pool: both halves at work)
#   make check    everything: the judge's own tests and ShellCheck, every row
#                 of configs/matrix.tsv, the review gates (make gates) and the
#                 LAVA jobs; ends "N passed, N failed, N skipped" and the time
#                 of each stage
#   make gates    the series' review gates on BASE: lint, the Coccinelle corpus,
#                 compile coverage and bisection, the memblock simulator, the
#                 mbox test (two chains of gates at the same time)
#   make lint     checkpatch --strict, subjects and Signed-off-by, kernel-doc,
#                 Fixes: tags, quilt push -a, htmldocs
#   make compile-test  the objects the series touches, W=1 C=1, on the configs
#                 of configs/compile.tsv, new warnings against the base (gate
#                 compile-BASE), then each prefix of the series (bisect-BASE)
#   make cocci    the series' Coccinelle check on its labelled corpus; DIR=drivers/foo
#                 also reports the hits under a kernel directory
#   make judge-test  the judge (scripts/stages/judge.py) on its fixtures
#                 (tests/judge/), the unit tests (tests/py/) and ShellCheck: seconds
#   make judge-live  the judge on the debug kernel made to print, on purpose,
#                 the reports it must fail a run on (tests/trip/judge_trip.c)
#   make stop-test  make run, make check and a guest stopped by Ctrl-C and
#                 SIGTERM at several points: nothing of them is left running,
#                 the lock is free, no half-made tree (tests/stop/run.py)
#   make tree-test  the tree stage (scripts/stages/tree.sh, export-series.sh) on
#                 a stand-in repository: a KERNEL_SRC tree is never touched; seconds
#   make bench    the costs, as medians and ratios, in guests with -icount
#                 (Documentation/performance.md)
#   make reliability  the load, faults, bad input and splats of the last
#                 make check, as a table (build/results/reliability.md)
#   make rows     Documentation/rows.md, the matrix as a table, from configs/matrix.tsv
#   make edit     lay the series onto a kernel git tree for editing (prints its path)
#   make export   export that tree's commits back into patches/ (git format-patch)
#   make mbox     the sub-series of patches/subseries, one mbox each in build/mbox/,
#                 From: and Signed-off-by: you (git config user.name, user.email)
#   make mbox-test  make mbox on a stand-in identity: each mbox applies on the base
#                 after the ones it needs (6.12, and 6.1 where marked), passes
#                 checkpatch, and builds; and its refusals
#   make lava-jobs  a LAVA job per matrix row and device type in build/lava/,
#                 validated with LAVA's own code
#   make lava-artifacts  the qemu jobs' artifacts, to publish at ARTIFACTS_URL
#   make lava-run run a row's qemu job for real with lava-run (ROW=, built first)
#   make deps     install the Debian packages the harness needs (as root or sudo)
#   make clean    remove the builds and results (build/out, results, compile)
# Every command that writes build/ takes its lock, build/.lock: a second one
# fails at once, naming the command that holds it.
#
# Variables (make VAR=VALUE or the environment; nothing else is read from it)
#   BASE=6.12             the kernel base: 6.12 or 6.1 (Debian linux-source-BASE)
#   ROW=                  make run, lava-run: a row of configs/matrix.tsv (default:
#                         make run the first row of BASE, lava-run the first row)
#   ROWS=                 make check, lava-jobs, lava-artifacts: these rows only
#                         (default: every row)
#   KERNEL_SRC=           a git repository to apply the series to, in a worktree
#                         under BUILD/src (default: Debian's tarball)
#   BUILD=./build         the build folder
#   GUESTS=2              guests booted at once
#   GATES_NICE=0          make check: the gates' nice value
#   GATES_TIMEOUT=3000    make check: seconds after which the gates and LAVA
#                         jobs not done are stopped and fail
#   BOOT_TIMEOUT=1200     seconds a guest may run
#   BOOT_STALL=60         seconds a guest may print nothing
#   CCACHE=1              0: no ccache (its cache: CCACHE_DIR, ccache's default)
#   CROSS_COMPILE=arm-linux-gnueabihf-  the cross compiler's prefix
#   JOBS=$(nproc)         compile-test: make -j
#   MEMBLOCK_TIMEOUT=600  seconds the memblock simulator may run
#   ASAN_OPTIONS=, UBSAN_OPTIONS=  added to the memblock simulator's own
#   DIR=                  make cocci: a kernel directory to report on too
#   BENCH_ONLY=           make bench: P5 runs P5 alone (default: everything)
#   ARTIFACTS_URL=file://BUILD/lava/artifacts  where the LAVA jobs fetch from
#   DEVICE_TYPES="qemu beaglebone-black"  the LAVA jobs' device types
#   LAVA_JOBS=BUILD/lava  the LAVA jobs' folder
#   LAVA_RUN_TIMEOUT=600  make lava-run: seconds lava-run may take
# Set by the harness for the commands it starts, dropped from a user's
# environment: BUILD_LOCKED BUILT SEEDS BOOT_DT CC_CCACHE_REAL SUBSERIES
# LAVA_VALIDATE_LOG KEEP SPARSE BENCH_MEM HARNESS_RUN (the mark of a command
# started by hand on every process it starts: a stop by a signal ends them
# all); TOP (the project folder, which the harness's own tests point at a
# stand-in) and T0 (the start time).

BASE ?= 6.12
ROW ?=
ROWS ?=
BUILD ?= $(CURDIR)/build
T0 := $(shell date +%s)
export BUILD KERNEL_SRC T0

.PHONY: help rows run check gates judge-test tree-test stop-test judge-live reliability compile-test deps bench lint cocci edit export mbox mbox-test clean lava-jobs lava-artifacts lava-run

help:
	@sed -n '1,/^$$/p' Makefile | sed 's/^# \{0,1\}//'

rows:
	@python3 scripts/harness.py matrix --file configs/matrix.tsv markdown >Documentation/rows.md.tmp && \
	mv Documentation/rows.md.tmp Documentation/rows.md && echo "Documentation/rows.md written"

deps:
	@scripts/stages/deps.sh

run:
	@scripts/stages/deps.sh $(BASE)
	@scripts/check.sh --base $(BASE) $(ROW)

check:
	@scripts/stages/deps.sh
	@scripts/check.sh --all $(ROWS)

gates:
	@scripts/stages/deps.sh $(BASE)
	@scripts/gates/gates.sh --summary $(BASE)

judge-test:
	@scripts/stages/deps.sh 6.12
	@scripts/gates/judge-test.sh

tree-test:
	@tests/tree/run.sh

stop-test:
	@scripts/stages/deps.sh 6.12
	@tests/stop/run.py

judge-live:
	@scripts/stages/deps.sh 6.12
	@scripts/gates/judge-live.sh

reliability:
	@scripts/reliability.sh

compile-test:
	@scripts/stages/deps.sh $(BASE)
	@src=$$(scripts/stages/tree.sh $(BASE)) && rc=0 && \
	{ scripts/gates/compile-test.sh "$$src" $(BASE) rows || rc=1; } && \
	{ scripts/gates/compile-test.sh "$$src" $(BASE) bisect || rc=1; } && exit $$rc

bench:
	@scripts/stages/deps.sh 6.12
	@bench/run.sh

lint:
	@scripts/stages/deps.sh $(BASE)
	@src=$$(scripts/stages/tree.sh $(BASE)) && scripts/gates/lint.sh "$$src" $(BASE)

cocci:
	@scripts/stages/deps.sh $(BASE)
	@src=$$(scripts/stages/tree.sh $(BASE)) && \
	scripts/gates/cocci.sh "$$src" corpus && \
	if [ -n "$(DIR)" ]; then scripts/gates/cocci.sh "$$src" "$(DIR)"; fi

edit:
	@scripts/stages/deps.sh $(BASE)
	@src=$$(scripts/stages/tree.sh $(BASE)) && \
	echo "The series is applied in $$src$(if $(KERNEL_SRC), (a worktree of $(KERNEL_SRC), detached HEAD),)." && \
	echo "Edit and commit there (git add -f for new files: Debian's .gitignore ignores all)," && \
	echo "then run: make export BASE=$(BASE)$(if $(KERNEL_SRC), KERNEL_SRC=$(KERNEL_SRC))"

export:
	@src=$$(bash -c '. scripts/lib.sh && tree_path $(BASE)') && scripts/series/export-series.sh "$$src"

mbox:
	@scripts/stages/deps.sh 6.12
	@scripts/series/mbox.sh

mbox-test:
	@scripts/stages/deps.sh 6.12
	@tests/mbox/run.sh

lava-jobs:
	@$(if $(ARTIFACTS_URL),ARTIFACTS_URL='$(ARTIFACTS_URL)') scripts/lava/jobs.sh $(ROWS) && \
	scripts/lava/validate.sh

lava-artifacts:
	@scripts/lava/artifacts.sh $(ROWS)

lava-run:
	@scripts/lava/run.sh $(ROW)

clean:
	@bash -c '. scripts/lib.sh && build_lock clean && rm -rf "$$BUILD/out" "$$BUILD/results" "$$BUILD/compile"' && \
	echo "removed $(BUILD)/out, results, compile"
