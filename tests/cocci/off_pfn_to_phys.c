// SPDX-License-Identifier: GPL-2.0-only
// cocci-corpus: offender
void __iomem *f(struct page *pg)
{
	return ioremap(__pfn_to_phys(page_to_pfn(pg)), PAGE_SIZE);
}
