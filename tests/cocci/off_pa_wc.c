// SPDX-License-Identifier: GPL-2.0-only
// cocci-corpus: offender
void __iomem *f(void *buf)
{
	return ioremap_wc(__pa(buf), PAGE_SIZE);
}
