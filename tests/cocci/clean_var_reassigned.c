// SPDX-License-Identifier: GPL-2.0-only
// cocci-corpus: clean
void __iomem *f(void *buf, struct resource *r)
{
	phys_addr_t phys = virt_to_phys(buf);

	pr_info("buffer at %pa\n", &phys);
	phys = r->start;
	return ioremap(phys, SZ_4K);
}
