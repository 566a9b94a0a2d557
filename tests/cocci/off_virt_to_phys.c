// SPDX-License-Identifier: GPL-2.0-only
// cocci-corpus: offender
void *f(void)
{
	void *buf = kmalloc(4096, GFP_KERNEL);

	return ioremap(virt_to_phys(buf), 4096);
}
