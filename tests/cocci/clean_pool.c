// SPDX-License-Identifier: GPL-2.0-only
// cocci-corpus: clean
int f(struct foo *foo)
{
	phys_addr_t phys;
	int err = ioremap_pool_alloc(SZ_1M, 0, &phys);

	if (err)
		return err;
	foo->fb = ioremap_wc(phys, SZ_1M);
	return 0;
}
