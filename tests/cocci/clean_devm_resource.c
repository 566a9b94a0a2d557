// SPDX-License-Identifier: GPL-2.0-only
// cocci-corpus: clean
int probe(struct platform_device *pdev)
{
	void __iomem *io = devm_platform_ioremap_resource(pdev, 0);

	return PTR_ERR_OR_ZERO(io);
}
