// SPDX-License-Identifier: GPL-2.0-only
// cocci-corpus: offender
void __iomem *f(void)
{
	void *buf = kmalloc(SZ_64K, GFP_KERNEL);
	phys_addr_t phys;

	phys = virt_to_phys(buf);
	return ioremap(phys, SZ_64K);
}
