// SPDX-License-Identifier: GPL-2.0-only
// cocci-corpus: offender
int f(struct foo *foo)
{
	foo->cpu = dma_alloc_coherent(foo->dev, SZ_4K, &foo->dma, GFP_KERNEL);
	foo->io = devm_ioremap(foo->dev, foo->dma, SZ_4K);
	return 0;
}
