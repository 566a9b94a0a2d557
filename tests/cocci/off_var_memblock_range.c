// SPDX-License-Identifier: GPL-2.0-only
// cocci-corpus: offender
void __init f(void)
{
	phys_addr_t b = memblock_phys_alloc_range(SZ_1M, SZ_1M, 0, SZ_256M);

	fb_mem = ioremap_wc(b, SZ_1M);
}
