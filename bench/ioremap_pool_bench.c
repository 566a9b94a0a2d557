// SPDX-License-Identifier: GPL-2.0-only
/*
 * Benchmark of the remap pool (not part of the series): the cost of
 * ioremap_pool_alloc() + ioremap_pool_free() against raw gen_pool_alloc() +
 * gen_pool_free() on a private genalloc pool of the same size and page
 * granularity: what the tracking layer costs.  Built out of tree by
 * `make bench`, loaded in a guest booted with a pool and -icount, so that
 * the guest clock counts instructions and the figures repeat.
 * Prints one line per size; loading fails on purpose (-EAGAIN) so that
 * the module never stays.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/genalloc.h>
#include <linux/ktime.h>
#include <linux/math64.h>
#include <linux/module.h>
#include <linux/sizes.h>
#include <linux/sort.h>

#include <asm/ioremap_pool.h>

static unsigned int reps = 5;
module_param(reps, uint, 0444);
static unsigned int loops = 200;
module_param(loops, uint, 0444);

static int cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

static u64 median(u64 *v, unsigned int n)
{
	sort(v, n, sizeof(*v), cmp_u64, NULL);
	return v[n / 2];
}

static int __init bench_init(void)
{
	static const size_t sizes[] = { SZ_4K, SZ_64K, SZ_1M };
	struct gen_pool *gp;
	u64 t_pool[16], t_raw[16];
	unsigned int i, r, l;

	if (!ioremap_pool_available()) {
		pr_err("no remap pool: boot with ioremap_pool=\n");
		return -ENODEV;
	}
	if (reps > ARRAY_SIZE(t_pool))
		reps = ARRAY_SIZE(t_pool);
	gp = gen_pool_create(PAGE_SHIFT, NUMA_NO_NODE);
	/* A private pool over a made-up range: genalloc never touches it. */
	if (!gp || gen_pool_add(gp, SZ_256M, ioremap_pool_size(), NUMA_NO_NODE))
		return -ENOMEM;

	pr_info("size pool_ns raw_ns ratio (median of %u runs of %u alloc+free)\n",
		reps, loops);
	for (i = 0; i < ARRAY_SIZE(sizes); i++) {
		for (r = 0; r < reps; r++) {
			ktime_t t0 = ktime_get();

			for (l = 0; l < loops; l++) {
				phys_addr_t phys;

				if (ioremap_pool_alloc(sizes[i], 0, &phys))
					return -ENOMEM;
				ioremap_pool_free(phys, sizes[i]);
			}
			t_pool[r] = div_u64(ktime_to_ns(ktime_sub(ktime_get(), t0)),
					    loops);

			t0 = ktime_get();
			for (l = 0; l < loops; l++) {
				unsigned long a = gen_pool_alloc(gp, sizes[i]);

				if (!a)
					return -ENOMEM;
				gen_pool_free(gp, a, sizes[i]);
			}
			t_raw[r] = div_u64(ktime_to_ns(ktime_sub(ktime_get(), t0)),
					   loops);
		}
		{
			u64 p = median(t_pool, reps), q = median(t_raw, reps);
			u32 pct = div64_u64(p * 100, q ? q : 1);

			pr_info("bench: %zu %llu %llu %u.%02u\n", sizes[i], p, q,
				pct / 100, pct % 100);
		}
	}
	gen_pool_destroy(gp);
	return -EAGAIN;
}
module_init(bench_init);

MODULE_DESCRIPTION("Benchmark of the ARM remap pool against raw genalloc");
MODULE_LICENSE("GPL");
