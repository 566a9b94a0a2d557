// SPDX-License-Identifier: GPL-2.0-only
// cocci-corpus: clean
int f(struct pci_dev *pdev)
{
	void __iomem *io = ioremap_wc(pci_resource_start(pdev, 0), pci_resource_len(pdev, 0));

	return io ? 0 : -ENOMEM;
}
