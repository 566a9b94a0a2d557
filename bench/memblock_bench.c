// SPDX-License-Identifier: GPL-2.0-only
/*
 * make bench, P1 (not part of the series): the cost of the RAM check of
 * ioremap() alone, memblock_overlaps_map_memory(), against the number of
 * memory regions of memblock.  The series claims it is logarithmic (a
 * binary search); this shows it.
 *
 * The booted machine has a handful of regions.  To get more, the module
 * splits the remap pool, which is memblock NOMAP memory that nothing uses
 * during the bench: it clears NOMAP on every other page of the pool's
 * first pages (each such page adds two regions), measures, then marks the
 * whole pool NOMAP again, which merges the regions back.  Only for a bench
 * guest: while the pool is split, those pages look like mapped RAM to
 * pfn_valid().
 *
 * At each region count it measures, on a 4 KiB range:
 *   mmio  memblock_overlaps_map_memory() of an MMIO range below RAM
 *   pool  memblock_overlaps_map_memory() of the pool's first page (NOMAP,
 *         never split off), so that no binary search can stop early
 *   first memblock_is_map_memory() of that page: the unpatched kernel's
 *         check of the first page only, for reference
 *   ioremap  ioremap()+iounmap() of the MMIO range, the whole path
 *   ri_mmio, ri_pool  region_intersects(..., IORESOURCE_SYSTEM_RAM, ...) of
 *         the MMIO range and of the pool's first page: the other way to ask
 *         whether a range is RAM, through iomem_resource (which the
 *         splitting does not change)
 *
 * The memblock functions and struct are not exported: their addresses come
 * from bench_syms.h, which bench/run.sh writes from the kernel's
 * vmlinux (checked against an exported symbol before use).
 * Loading fails on purpose (-EAGAIN) so that the module never stays.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/io.h>
#include <linux/ioport.h>
#include <linux/memblock.h>
#include <linux/module.h>
#include <linux/sizes.h>

#include <asm/ioremap_pool.h>

#include "bench.h"
#include "bench_syms.h"

#define BENCH_MMIO	0x10000000UL

typedef bool (overlaps_fn)(phys_addr_t base, phys_addr_t size);
typedef bool (is_map_fn)(phys_addr_t addr);
typedef int (nomap_fn)(phys_addr_t base, phys_addr_t size);

static int __init memblock_bench_init(void)
{
	static const unsigned long splits[] = { 0, 2, 8, 32, 128, 512, 2047 };
	overlaps_fn *overlaps = (overlaps_fn *)BENCH_ADDR_memblock_overlaps_map_memory;
	is_map_fn *is_map = (is_map_fn *)BENCH_ADDR_memblock_is_map_memory;
	nomap_fn *mark_nomap = (nomap_fn *)BENCH_ADDR_memblock_mark_nomap;
	nomap_fn *clear_nomap = (nomap_fn *)BENCH_ADDR_memblock_clear_nomap;
	struct memblock_type *mem = &((struct memblock *)BENCH_ADDR_memblock)->memory;
	phys_addr_t pool = 0;
	unsigned long done = 0, k;
	unsigned int i, j;
	volatile bool sink;
	u64 t[6];

	if (BENCH_ADDR_ioremap_pool_alloc != (unsigned long)ioremap_pool_alloc) {
		pr_err("bench: bench_syms.h is not of the running kernel\n");
		return -EINVAL;
	}
	if (!ioremap_pool_available())
		return -ENODEV;
	/* The pool: the NOMAP region of the pool's size. */
	for (j = 0; j < mem->cnt; j++)
		if ((mem->regions[j].flags & MEMBLOCK_NOMAP) &&
		    mem->regions[j].size == ioremap_pool_size())
			pool = mem->regions[j].base;
	if (!pool) {
		pr_err("bench: remap pool not found in memblock.memory\n");
		return -ENODEV;
	}
	pr_info("bench: memblock.boot %lu\n", mem->cnt);

	for (i = 0; i < ARRAY_SIZE(splits); i++) {
		unsigned long want = min_t(unsigned long, splits[i],
					   ioremap_pool_size() / SZ_8K - 1);

		/* Clear NOMAP on pages 1, 3, 5, ... of the pool. */
		for (k = done; k < want; k++)
			if (clear_nomap(pool + (2 * k + 1) * SZ_4K, SZ_4K))
				break;
		done = k;

		BENCH_MEDIAN(t[0], 500, sink = overlaps(BENCH_MMIO, SZ_4K));
		BENCH_MEDIAN(t[1], 500, sink = overlaps(pool, SZ_4K));
		BENCH_MEDIAN(t[2], 500, sink = is_map(pool));
		BENCH_MEDIAN(t[3], 100, {
			void __iomem *p = ioremap(BENCH_MMIO, SZ_4K);

			if (p)
				iounmap(p);
		});
		BENCH_MEDIAN(t[4], 500,
			     sink = region_intersects(BENCH_MMIO, SZ_4K,
						      IORESOURCE_SYSTEM_RAM,
						      IORES_DESC_NONE) != REGION_DISJOINT);
		BENCH_MEDIAN(t[5], 500,
			     sink = region_intersects(pool, SZ_4K,
						      IORESOURCE_SYSTEM_RAM,
						      IORES_DESC_NONE) != REGION_DISJOINT);
		pr_info("bench: memblock.%lu %llu %llu %llu %llu %llu %llu\n",
			mem->cnt, t[0], t[1], t[2], t[3], t[4], t[5]);
		if (done < want)
			break;
	}
	(void)sink;
	if (mark_nomap(pool, ioremap_pool_size()))
		pr_err("bench: could not mark the pool NOMAP again\n");
	pr_info("bench: memblock.restored %lu\n", mem->cnt);
	return -EAGAIN;
}
module_init(memblock_bench_init);

MODULE_DESCRIPTION("make bench: ioremap()'s RAM check against the number of memblock regions");
MODULE_LICENSE("GPL");
