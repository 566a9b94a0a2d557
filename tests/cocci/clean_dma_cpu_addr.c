// SPDX-License-Identifier: GPL-2.0-only
// cocci-corpus: clean
int f(struct device *dev)
{
	dma_addr_t h;
	void *cpu = dma_alloc_coherent(dev, SZ_4K, &h, GFP_KERNEL);

	writel(h, regs + DMA_BASE);
	return cpu ? 0 : -ENOMEM;
}
