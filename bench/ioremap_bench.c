// SPDX-License-Identifier: GPL-2.0-only
/*
 * make bench, P1 (not part of the series): ioremap() + iounmap() of MMIO
 * ranges of 4 KiB, 64 KiB, 1 MiB and 16 MiB.  Built for the patched and
 * for the unpatched kernel alike (it uses nothing of the series), so that
 * bench/run.sh can set the two side by side: on the patched kernel
 * ioremap() checks the whole range against memblock, on the base kernel
 * its first page.
 *
 * The range is in the PCIe MMIO window of QEMU's -M virt (0x10000000,
 * 0x2eff0000 bytes), which no device of the bench guest uses: ioremap()
 * maps it and iounmap() unmaps it without any access.
 * Loading fails on purpose (-EAGAIN) so that the module never stays.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/io.h>
#include <linux/module.h>
#include <linux/sizes.h>

#include "bench.h"

#define BENCH_MMIO	0x10000000UL

static int __init ioremap_bench_init(void)
{
	static const struct {
		unsigned long size;
		unsigned int loops;
	} cases[] = {
		{ SZ_4K, 200 }, { SZ_64K, 100 }, { SZ_1M, 20 }, { SZ_16M, 4 },
	};
	unsigned int i;
	u64 t;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		BENCH_MEDIAN(t, cases[i].loops, {
			void __iomem *p = ioremap(BENCH_MMIO, cases[i].size);

			if (!p)
				goto fail;
			iounmap(p);
		});
		pr_info("bench: p1.ioremap.%lu %llu\n", cases[i].size, t);
	}
	return -EAGAIN;
fail:
	pr_err("bench: ioremap() of MMIO failed\n");
	return -EAGAIN;
}
module_init(ioremap_bench_init);

MODULE_DESCRIPTION("make bench: ioremap()+iounmap() of MMIO ranges");
MODULE_LICENSE("GPL");
