// SPDX-License-Identifier: GPL-2.0-only
// cocci-corpus: clean
void *f(void *buf)
{
	return memremap(virt_to_phys(buf), SZ_4K, MEMREMAP_WB);
}
