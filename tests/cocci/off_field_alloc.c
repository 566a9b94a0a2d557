// SPDX-License-Identifier: GPL-2.0-only
// cocci-corpus: offender
int f(struct foo *foo)
{
	foo->phys = virt_to_phys(foo->buf);
	foo->regs = ioremap(foo->phys, SZ_4K);
	return 0;
}
