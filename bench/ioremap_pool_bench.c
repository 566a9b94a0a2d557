// SPDX-License-Identifier: GPL-2.0-only
/*
 * make bench, remap pool (not part of the series).  Loaded in a guest
 * booted with a pool (ioremap_pool=) and a CMA area, under -icount; prints
 * medians in ns (= guest instructions), bench/run.sh makes the ratios.
 *
 *  P2b  ioremap_pool_alloc()+ioremap_pool_free() against raw
 *       gen_pool_alloc()+gen_pool_free() on a private genalloc pool of the
 *       same size and granularity: the cost of the tracking layer.  The
 *       pool's free clears the block (a write-combined mapping, memset_io(),
 *       iounmap()), which genalloc does not: that clearing is measured
 *       alone too, on a block held, and bench/run.sh takes it off.
 *  P2   the pool against cma_alloc()+cma_release() on the default CMA
 *       area, and against dma_alloc_coherent()+dma_free_coherent() on a
 *       platform device; the latter also maps and clears the buffer, so
 *       the pool is measured with ioremap_wc()+iounmap() too (its free
 *       clears).
 *  P4   pool alloc+free as the pool fragments: the first FRAG% of the pool
 *       is filled with 4 KiB allocations and every other one is freed
 *       (4 KiB holes); at 0% the pool is empty.  The same run at each pool
 *       size of `make bench` shows how the cost grows with the pool.
 *  P5   the worst case of an aligned request (256 MiB pool only): every
 *       other page of the pool free, none of them 8 KiB aligned, and a
 *       one-page request aligned to 8 KiB, which fits nowhere: the
 *       search tries every free block.  Measured with interrupts on and
 *       with the caller's interrupts off (what the lock holds them off for).
 *
 * cma_alloc() and the default CMA area are not exported: their addresses
 * come from bench_syms.h, which bench/run.sh writes from the kernel's
 * vmlinux (checked against an exported symbol before use).
 * Loading fails on purpose (-EAGAIN) so that the module never stays.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cma.h>
#include <linux/dma-mapping.h>
#include <linux/genalloc.h>
#include <linux/io.h>
#include <linux/irqflags.h>
#include <linux/module.h>
#include <linux/platform_device.h>
#include <linux/sizes.h>
#include <linux/vmalloc.h>

#include <asm/ioremap_pool.h>

#include "bench.h"
#include "bench_syms.h"

static const size_t sizes[] = { SZ_4K, SZ_64K, SZ_1M };

/* P2b: what the pool's free spends clearing a block of @size, alone. */
static int bench_clear(size_t size)
{
	phys_addr_t phys;
	u64 t;

	if (ioremap_pool_alloc(size, 0, &phys))
		return -ENOMEM;
	BENCH_MEDIAN(t, 200, {
		void __iomem *va = ioremap_wc(phys, size);

		if (!va)
			goto fail;
		memset_io(va, 0, size);
		wmb();	/* as the pool's free: the zeros in memory */
		iounmap(va);
	});
	ioremap_pool_free(phys, size);
	pr_info("bench: p2b.clear.%zu %llu\n", size, t);
	return 0;
fail:
	ioremap_pool_free(phys, size);
	return -ENOMEM;
}

/* P2b: the pool against raw genalloc on a private pool of the same size. */
static int bench_genalloc(void)
{
	struct gen_pool *gp;
	unsigned int i;
	u64 p, q;

	gp = gen_pool_create(PAGE_SHIFT, NUMA_NO_NODE);
	/* A made-up range: genalloc never touches the memory it manages. */
	if (!gp || gen_pool_add(gp, SZ_256M, ioremap_pool_size(), NUMA_NO_NODE))
		return -ENOMEM;
	for (i = 0; i < ARRAY_SIZE(sizes); i++) {
		size_t size = sizes[i];

		BENCH_MEDIAN(p, 200, {
			phys_addr_t phys;

			if (ioremap_pool_alloc(size, 0, &phys))
				goto fail;
			ioremap_pool_free(phys, size);
		});
		BENCH_MEDIAN(q, 200, {
			unsigned long a = gen_pool_alloc(gp, size);

			if (!a)
				goto fail;
			gen_pool_free(gp, a, size);
		});
		pr_info("bench: p2b.pool.%zu %llu\n", size, p);
		pr_info("bench: p2b.genalloc.%zu %llu\n", size, q);
		if (bench_clear(size))
			goto fail;
	}
	gen_pool_destroy(gp);
	return 0;
fail:
	gen_pool_destroy(gp);
	return -ENOMEM;
}

typedef struct page *(cma_alloc_fn)(struct cma *cma, unsigned long count,
				    unsigned int align, bool no_warn);
typedef bool (cma_release_fn)(struct cma *cma, const struct page *pages,
			      unsigned long count);

/* P2: the pool against CMA and dma_alloc_coherent(). */
static int bench_cma_dma(void)
{
	cma_alloc_fn *b_cma_alloc = (cma_alloc_fn *)BENCH_ADDR_cma_alloc;
	cma_release_fn *b_cma_release = (cma_release_fn *)BENCH_ADDR_cma_release;
	struct cma *cma = *(struct cma **)BENCH_ADDR_dma_contiguous_default_area;
	struct platform_device *pdev;
	unsigned int i;
	int err = 0;
	u64 t;

	if (BENCH_ADDR_ioremap_pool_alloc != (unsigned long)ioremap_pool_alloc) {
		pr_err("bench: bench_syms.h is not of the running kernel\n");
		return -EINVAL;
	}
	if (!cma) {
		pr_err("bench: no default CMA area (CONFIG_DMA_CMA, cma=)\n");
		return -ENODEV;
	}
	pdev = platform_device_register_simple(KBUILD_MODNAME, PLATFORM_DEVID_NONE,
					       NULL, 0);
	if (IS_ERR(pdev))
		return PTR_ERR(pdev);
	err = dma_coerce_mask_and_coherent(&pdev->dev, DMA_BIT_MASK(32));
	if (err)
		goto out;

	for (i = 0; i < ARRAY_SIZE(sizes); i++) {
		size_t size = sizes[i];
		unsigned long count = size >> PAGE_SHIFT;

		BENCH_MEDIAN(t, 100, {
			phys_addr_t phys;

			if (ioremap_pool_alloc(size, 0, &phys))
				goto nomem;
			ioremap_pool_free(phys, size);
		});
		pr_info("bench: p2.pool.%zu %llu\n", size, t);

		BENCH_MEDIAN(t, 20, {
			struct page *page = b_cma_alloc(cma, count, 0, false);

			if (!page)
				goto nomem;
			b_cma_release(cma, page, count);
		});
		pr_info("bench: p2.cma.%zu %llu\n", size, t);

		BENCH_MEDIAN(t, 20, {
			phys_addr_t phys;
			void __iomem *va;

			if (ioremap_pool_alloc(size, 0, &phys))
				goto nomem;
			va = ioremap_wc(phys, size);
			if (!va) {
				ioremap_pool_free(phys, size);
				goto nomem;
			}
			iounmap(va);
			ioremap_pool_free(phys, size);
		});
		pr_info("bench: p2.poolmap.%zu %llu\n", size, t);

		BENCH_MEDIAN(t, 20, {
			dma_addr_t dma;
			void *va = dma_alloc_coherent(&pdev->dev, size, &dma,
						      GFP_KERNEL);

			if (!va)
				goto nomem;
			dma_free_coherent(&pdev->dev, size, va, dma);
		});
		pr_info("bench: p2.dma.%zu %llu\n", size, t);
	}
	goto out;
nomem:
	err = -ENOMEM;
out:
	platform_device_unregister(pdev);
	return err;
}

/*
 * Allocate the first n pages of the (empty) pool in 4 KiB blocks into held,
 * then free every other one (4 KiB holes): returns how many were allocated,
 * the even ones of which are still held.
 */
static unsigned long bench_holes(phys_addr_t *held, unsigned long n)
{
	unsigned long k, m;

	for (k = 0; k < n; k++)
		if (ioremap_pool_alloc(SZ_4K, 0, &held[k]))
			break;
	for (m = 1; m < k; m += 2)
		ioremap_pool_free(held[m], SZ_4K);
	return k;
}

/*
 * P4: fill the first frac% of the (empty) pool with 4 KiB allocations and
 * free every other one, measure, free the rest.  An allocation that does
 * not fit is reported as "none" (its cost is the full scan, not a latency).
 */
static int bench_frag(unsigned int frac)
{
	size_t pool = ioremap_pool_size();
	unsigned long n = (pool / 100 * frac) >> PAGE_SHIFT, k;
	unsigned int mib = pool / SZ_1M, i;
	phys_addr_t *held = NULL;
	int err = 0;
	u64 t;

	if (n) {
		held = vmalloc_array(n, sizeof(*held));
		if (!held)
			return -ENOMEM;
	}
	n = bench_holes(held, n);

	for (i = 0; i < ARRAY_SIZE(sizes); i++) {
		size_t size = sizes[i];
		phys_addr_t phys;

		if (ioremap_pool_alloc(size, 0, &phys)) {
			pr_info("bench: p4.%u.%u.%zu none\n", mib, frac, size);
			continue;
		}
		ioremap_pool_free(phys, size);
		BENCH_MEDIAN(t, 20, {
			if (ioremap_pool_alloc(size, 0, &phys)) {
				err = -ENOMEM;
				goto out;
			}
			ioremap_pool_free(phys, size);
		});
		pr_info("bench: p4.%u.%u.%zu %llu\n", mib, frac, size, t);
	}
out:
	for (k = 0; k < n; k += 2)
		ioremap_pool_free(held[k], SZ_4K);
	vfree(held);
	return err;
}

/* P5: see the top of the file.  A request that fits is a failure. */
static int bench_aligned_worst(void)
{
	unsigned long pages = ioremap_pool_size() >> PAGE_SHIFT, n, k, flags;
	phys_addr_t *held, phys;
	int err = 0, r;
	u64 on, off;

	held = vmalloc_array(pages, sizeof(*held));
	if (!held)
		return -ENOMEM;
	n = bench_holes(held, pages);
	if (n < pages) {
		pr_err("bench: p5: the pool is not empty (%lu of %lu pages)\n", n, pages);
		err = -EBUSY;
		goto out;
	}

	BENCH_MEDIAN(on, 1, {
		r = ioremap_pool_alloc(SZ_4K, SZ_8K, &phys);
		if (r != -ENOMEM) {
			err = r ? r : -EEXIST;
			goto fit;
		}
	});
	BENCH_MEDIAN(off, 1, {
		local_irq_save(flags);
		r = ioremap_pool_alloc(SZ_4K, SZ_8K, &phys);
		local_irq_restore(flags);
		if (r != -ENOMEM) {
			err = r ? r : -EEXIST;
			goto fit;
		}
	});
	pr_info("bench: p5.blocks %lu\n", n / 2);
	pr_info("bench: p5.irqon %llu\n", on);
	pr_info("bench: p5.irqoff %llu\n", off);
	goto out;
fit:
	pr_err("bench: p5: the 8 KiB aligned request did not fail with -ENOMEM: %d\n", r);
	if (!r)
		ioremap_pool_free(phys, SZ_4K);
out:
	for (k = 0; k < n; k += 2)
		ioremap_pool_free(held[k], SZ_4K);
	vfree(held);
	return err;
}

static int __init ioremap_pool_bench_init(void)
{
	static const unsigned int fracs[] = { 0, 25, 50, 75 };
	unsigned int i;
	int err;

	if (!ioremap_pool_available()) {
		pr_err("bench: no remap pool: boot with ioremap_pool=\n");
		return -ENODEV;
	}
	pr_info("bench: pool.mib %zu\n", ioremap_pool_size() / SZ_1M);
	/* Only the run with a 16 MiB pool measures P2 and P2b. */
	if (ioremap_pool_size() == SZ_16M) {
		err = bench_genalloc();
		if (err)
			pr_err("bench: pool against genalloc failed: %d\n", err);
		err = bench_cma_dma();
		if (err)
			pr_err("bench: pool against CMA and DMA failed: %d\n", err);
	}
	for (i = 0; i < ARRAY_SIZE(fracs); i++) {
		err = bench_frag(fracs[i]);
		if (err)
			pr_err("bench: fragmentation %u%% failed: %d\n", fracs[i], err);
	}
	if (ioremap_pool_size() == SZ_256M) {
		err = bench_aligned_worst();
		if (err)
			pr_err("bench: aligned worst case failed: %d\n", err);
	}
	return -EAGAIN;
}
module_init(ioremap_pool_bench_init);

MODULE_DESCRIPTION("make bench: the ARM remap pool against genalloc, CMA and the DMA API");
MODULE_LICENSE("GPL");
