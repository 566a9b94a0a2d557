// SPDX-License-Identifier: GPL-2.0-only
// cocci-corpus: clean
static phys_addr_t get_base(void)
{
	return readl(regs + BASE);
}

void __iomem *f(void)
{
	phys_addr_t phys = get_base();

	return ioremap(phys, SZ_4K);
}
