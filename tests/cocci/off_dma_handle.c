// SPDX-License-Identifier: GPL-2.0-only
// cocci-corpus: offender
int f(struct device *dev)
{
	dma_addr_t h;
	void *cpu = dma_alloc_coherent(dev, SZ_4K, &h, GFP_KERNEL);
	void __iomem *io = ioremap(h, SZ_4K);

	return cpu && io ? 0 : -ENOMEM;
}
