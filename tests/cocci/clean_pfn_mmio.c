// SPDX-License-Identifier: GPL-2.0-only
// cocci-corpus: clean
void __iomem *f(unsigned long pfn)
{
	return ioremap(__pfn_to_phys(pfn), PAGE_SIZE);
}
