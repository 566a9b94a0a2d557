// SPDX-License-Identifier: GPL-2.0-only
// cocci-corpus: clean
#define UART_BASE 0x09000000
void __iomem *f(void)
{
	return ioremap(UART_BASE, SZ_4K);
}
