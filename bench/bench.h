/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Common helpers of the benchmark modules of `make bench` (not part of the
 * series).  The guest runs under QEMU -icount shift=0: its clock counts
 * instructions, 1 ns each, so a time below is an instruction count and
 * repeats exactly from boot to boot.
 *
 * Every result is one kernel log line "<module>: bench: KEY VALUE..." with
 * a KEY unique in the run; bench/run.sh collects them.
 */
#ifndef BENCH_H
#define BENCH_H

#include <linux/ktime.h>
#include <linux/math64.h>
#include <linux/sort.h>

#define BENCH_MAX_REPS 16

static unsigned int reps = 7;
module_param(reps, uint, 0444);
MODULE_PARM_DESC(reps, "repetitions of each measurement (median taken; at most 16)");

static int bench_cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

static inline unsigned int bench_reps(void)
{
	return clamp(reps, 1U, (unsigned int)BENCH_MAX_REPS);
}

/* The median of n values (sorts them). */
static inline u64 bench_median(u64 *v, unsigned int n)
{
	sort(v, n, sizeof(*v), bench_cmp_u64, NULL);
	return v[n / 2];
}

/*
 * BENCH_MEDIAN(result, loops, body): run body loops times per repetition,
 * bench_reps() repetitions; result gets the median of the per-iteration
 * time in ns.  body may "goto" a label of the caller on failure.
 */
#define BENCH_MEDIAN(result, loops, body)				\
do {									\
	u64 __t[BENCH_MAX_REPS];					\
	unsigned int __r, __l, __n = bench_reps();			\
									\
	for (__r = 0; __r < __n; __r++) {				\
		u64 __t0 = ktime_get_ns();				\
									\
		for (__l = 0; __l < (loops); __l++) {			\
			body;						\
		}							\
		__t[__r] = div_u64(ktime_get_ns() - __t0, (loops));	\
	}								\
	(result) = bench_median(__t, __n);				\
} while (0)

#endif /* BENCH_H */
