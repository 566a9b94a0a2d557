// SPDX-License-Identifier: GPL-2.0-only
// cocci-corpus: offender
void __iomem *f(void)
{
	struct page *pg = alloc_pages(GFP_KERNEL, 4);
	phys_addr_t phys = page_to_phys(pg);

	return ioremap_wc(phys, 16 * PAGE_SIZE);
}
