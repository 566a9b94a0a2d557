// SPDX-License-Identifier: GPL-2.0-only
// cocci-corpus: offender
void __iomem *f(void)
{
	struct page *pg = alloc_pages(GFP_KERNEL, 2);

	return ioremap_cache(page_to_phys(pg), 4 * PAGE_SIZE);
}
