// SPDX-License-Identifier: GPL-2.0-only
// cocci-corpus: clean
int probe(struct platform_device *pdev)
{
	struct resource *r = platform_get_resource(pdev, IORESOURCE_MEM, 0);
	void __iomem *io = devm_ioremap(&pdev->dev, r->start, resource_size(r));

	return io ? 0 : -ENOMEM;
}
