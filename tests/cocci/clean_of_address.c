// SPDX-License-Identifier: GPL-2.0-only
// cocci-corpus: clean
int f(struct device_node *np)
{
	struct resource res;
	void __iomem *io;

	if (of_address_to_resource(np, 0, &res))
		return -EINVAL;
	io = ioremap(res.start, resource_size(&res));
	return io ? 0 : -ENOMEM;
}
