// SPDX-License-Identifier: GPL-2.0-only
// cocci-corpus: offender
int probe(struct device *dev, struct page *pg)
{
	void __iomem *io = devm_ioremap_wc(dev, page_to_phys(pg), SZ_4K);

	return io ? 0 : -ENOMEM;
}
