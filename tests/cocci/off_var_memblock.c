// SPDX-License-Identifier: GPL-2.0-only
// cocci-corpus: offender
void __init f(void)
{
	phys_addr_t base;
	void __iomem *io;

	base = memblock_phys_alloc(SZ_1M, SZ_1M);
	io = ioremap(base, SZ_1M);
}
