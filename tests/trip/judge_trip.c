// SPDX-License-Identifier: GPL-2.0
/*
 * judge_trip: makes a debug kernel print, on purpose, the reports the
 * harness's judge (scripts/stages/judge.py) must fail a run on, so that a live
 * boot proves the judge sees them (scripts/gates/judge-live.sh).  Not part of
 * the series: built out of tree against the debug row's kernel.
 *
 *   insmod judge_trip.ko trip=slub,refcount,list,caller
 *
 * slub      a write past a kmalloc-64 object, then kfree(): SLUB's own
 *           "BUG kmalloc-64 (...): Right Redzone overwritten"
 *           (SLUB_DEBUG_ON; this file is built without KASAN, so SLUB is
 *           the one that reports it)
 * refcount  refcount_dec() of a count at 0: "refcount_t: underflow"
 * list      list_add() next to an entry whose prev was overwritten:
 *           "list_add corruption" (DEBUG_LIST)
 * caller    ioremap() of a page of system RAM from this module: a policy
 *           report naming a caller that is no test module of the series
 *
 * Each trip prints "judge_trip: NAME" first.  Loading fails with -EINVAL
 * naming an unknown trip, and does nothing then.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/gfp.h>
#include <linux/io.h>
#include <linux/list.h>
#include <linux/module.h>
#include <linux/refcount.h>
#include <linux/slab.h>
#include <linux/string.h>

static char *trip = "";
module_param(trip, charp, 0444);
MODULE_PARM_DESC(trip, "comma-separated: slub, refcount, list, caller");

static noinline void trip_slub(void)
{
	char *p = kmalloc(64, GFP_KERNEL);

	if (!p)
		return;
	/* One byte into the right red zone: no KASAN here (Makefile). */
	OPTIMIZER_HIDE_VAR(p);
	p[64] = 0x42;
	kfree(p);
}

static noinline void trip_refcount(void)
{
	refcount_t r = REFCOUNT_INIT(0);

	refcount_dec(&r);
}

static noinline void trip_list(void)
{
	LIST_HEAD(head);
	struct list_head a, b;

	list_add(&a, &head);
	/* The entry after head no longer points back at it. */
	a.prev = &b;
	list_add(&b, &head);
}

static noinline void trip_caller(void)
{
	struct page *page = alloc_page(GFP_KERNEL);
	void __iomem *va;

	if (!page)
		return;
	va = ioremap(page_to_phys(page), PAGE_SIZE);
	if (va)
		iounmap(va);
	__free_page(page);
}

static const struct {
	const char *name;
	void (*fn)(void);
} trips[] = {
	{ "slub", trip_slub },
	{ "refcount", trip_refcount },
	{ "list", trip_list },
	{ "caller", trip_caller },
};

static int find_trip(const char *name, size_t len)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(trips); i++)
		if (strlen(trips[i].name) == len && !strncmp(trips[i].name, name, len))
			return i;
	return -1;
}

static int __init judge_trip_init(void)
{
	const char *s = trip;
	size_t len;
	int i;

	/* Every name first: a bad list trips nothing. */
	for (s = trip; *s; s += len + !!s[len]) {
		len = strcspn(s, ",");
		if (len && find_trip(s, len) < 0) {
			pr_err("unknown trip '%.*s' (slub, refcount, list, caller)\n", (int)len, s);
			return -EINVAL;
		}
	}
	for (s = trip; *s; s += len + !!s[len]) {
		len = strcspn(s, ",");
		if (!len)
			continue;
		i = find_trip(s, len);
		pr_info("%s\n", trips[i].name);
		trips[i].fn();
	}
	return 0;
}
module_init(judge_trip_init);

static void __exit judge_trip_exit(void)
{
}
module_exit(judge_trip_exit);

MODULE_DESCRIPTION("Trips the reports the harness's judge must see");
MODULE_LICENSE("GPL");
