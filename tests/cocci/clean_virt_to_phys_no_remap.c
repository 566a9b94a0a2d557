// SPDX-License-Identifier: GPL-2.0-only
// cocci-corpus: clean
void f(void *buf)
{
	writel(virt_to_phys(buf), regs + BUF_ADDR);
}
