# ARM ioremap() of RAM: policy series, remap pool, and the kselftests that prove them.
#
#   make run      one row of the matrix: the patched kernel built, booted in
#                 QEMU, the suite run and judged (default: the first row of
#                 BASE, a reject kernel with a remap pool: both halves at work)
#   make check    everything: the judge's own tests and ShellCheck, every row
#                 of configs/matrix.tsv, the review gates (make gates) and the
#                 LAVA jobs; ends "N passed, N failed, N skipped" and the time
#                 of each stage
#   make gates    the series' review gates on BASE: lint (checkpatch --strict,
#                 subjects, kernel-doc, quilt, htmldocs), the Coccinelle
#                 corpus, compile coverage (6 configs W=1 C=1, each prefix)
#   make judge-test  the judge (scripts/stages/judge.py) on its fixtures (tests/judge/)
#                 and ShellCheck: seconds
#   make judge-live  the judge on the debug kernel made to print, on purpose,
#                 the reports it must fail a run on (tests/trip/judge_trip.c)
#   make tree-test  the tree stage (scripts/stages/tree.sh, export-series.sh) on a
#                 stand-in repository: a KERNEL_SRC tree is never touched; seconds
#   make bench    the costs, as medians and ratios, in guests with -icount: ioremap()
#                 against the unpatched base, the RAM check against memblock regions,
#                 the pool against CMA, the DMA API and raw genalloc, pool growth
#                 and fragmentation (Documentation/performance.md)
#   make lint     the series' review gates: checkpatch --strict, subjects and
#                 Signed-off-by, kernel-doc, quilt push -a
#   make reliability  the load, faults, bad input and splats of the last
#                 make check, as a table (build/results/reliability.md)
#   make compile-test  the objects the series touches, W=1 C=1, on 6 configs
#                 (configs/compile.tsv), new warnings against the base, and
#                 each prefix of the series (part of make check)
#   make cocci    the series' Coccinelle check on its labelled corpus; DIR=drivers/foo
#                 also reports the hits under a kernel directory
#   make edit     lay the series onto a kernel git tree for editing (prints its path)
#   make export   export that tree's commits back into patches/ (git format-patch)
#   make mbox     the sub-series of patches/subseries, one mbox each in build/mbox/,
#                 From: and Signed-off-by: you (git config user.name, user.email)
#   make mbox-test  make mbox on a stand-in identity: each mbox applies on the base
#                 after the ones it needs (6.12, and 6.1 where marked), passes
#                 checkpatch, and builds; and its refusals
#   make lava-jobs  a LAVA job per matrix row and device type (qemu, beaglebone-black)
#                 in build/lava/, validated with LAVA's own code; ARTIFACTS_URL=, ROWS=
#   make lava-artifacts  the qemu jobs' artifacts, to publish at ARTIFACTS_URL
#   make lava-run run a row's qemu job for real with lava-run (ROW=, built first)
#
# Variables: BASE=6.12|6.1 (default 6.12), ROW=<matrix row> (make run),
# ROWS="<row> ..." (make check), GUESTS=N (guests booted at once, default 2),
# GATES_NICE=N (make check: the review gates' nice value, default 0),
# GATES_TIMEOUT=S (make check: the gates and LAVA jobs not done S seconds into
# the run are stopped and fail; default 3000),
# CCACHE=0 (no ccache), KERNEL_SRC=/path/to/a/git/repository (the series
# is applied in a worktree of it under BUILD/src; the user's checkout is
# never touched), BUILD=build folder.

BASE ?= 6.12
ROW ?= $(shell awk -F'\t' 'substr($$0, 1, 1) == "\043" || NF == 0 { next } \
	!h { h = 1; next } $$2 == "$(BASE)" { print $$1; exit }' configs/matrix.tsv)
ROWS ?=
BUILD ?= $(CURDIR)/build
T0 := $(shell date +%s)
export BUILD KERNEL_SRC T0

.PHONY: help run check gates judge-test tree-test judge-live reliability compile-test deps bench lint cocci edit export mbox mbox-test clean lava-jobs lava-artifacts lava-run

help:
	@sed -n '1,/^$$/p' Makefile | sed 's/^# \{0,1\}//'

deps:
	@scripts/stages/deps.sh

run:
	@scripts/stages/deps.sh $(BASE)
	@test -n "$(ROW)" || { echo "no row of configs/matrix.tsv for BASE=$(BASE)"; exit 1; }
	@scripts/check.sh $(ROW)

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

judge-live:
	@scripts/stages/deps.sh 6.12
	@scripts/gates/judge-live.sh

reliability:
	@scripts/reliability.sh

compile-test:
	@scripts/stages/deps.sh $(BASE)
	@src=$$(scripts/stages/tree.sh $(BASE) | tail -n 1) && scripts/gates/compile-test.sh "$$src" $(BASE)

bench:
	@scripts/stages/deps.sh 6.12
	@bench/run.sh

lint:
	@scripts/stages/deps.sh $(BASE)
	@src=$$(scripts/stages/tree.sh $(BASE) | tail -n 1) && scripts/gates/lint.sh "$$src" $(BASE)

cocci:
	@scripts/stages/deps.sh $(BASE)
	@src=$$(scripts/stages/tree.sh $(BASE) | tail -n 1) && \
	scripts/gates/cocci.sh "$$src" corpus && \
	if [ -n "$(DIR)" ]; then scripts/gates/cocci.sh "$$src" "$(DIR)"; fi

edit:
	@scripts/stages/deps.sh $(BASE)
	@src=$$(scripts/stages/tree.sh $(BASE) | tail -n 1) && \
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
	@test -n "$(ROW)" || { echo "no row of configs/matrix.tsv for BASE=$(BASE)"; exit 1; }
	@scripts/lava/run.sh $(ROW)

clean:
	rm -rf $(BUILD)/out $(BUILD)/results $(BUILD)/compile
