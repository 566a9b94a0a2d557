// SPDX-License-Identifier: GPL-2.0-only
// cocci-corpus: offender
int probe(struct device *dev)
{
	void *buf = devm_kzalloc(dev, SZ_4K, GFP_KERNEL);
	void __iomem *io = devm_ioremap(dev, virt_to_phys(buf), SZ_4K);

	return io ? 0 : -ENOMEM;
}
