// SPDX-License-Identifier: GPL-2.0-only
/*
 * A module whose only job is to write into a freed slab object when loaded, so that the VM
 * harness can prove that the guest's slub_debug catches it and that the report fails the run.
 * The object comes from a cache of its own, so nothing else is hurt; SLUB repairs the poison
 * when it reports, and the cache is left alone at unload (the guest powers off anyway).
 */
#include <linux/compiler.h>
#include <linux/module.h>
#include <linux/slab.h>

static struct kmem_cache *cache;

static int __init slub_corrupt_init(void)
{
	u8 *obj, *again;

	cache = kmem_cache_create("garnet_selftest", 64, 0, 0, NULL);
	if (!cache)
		return -ENOMEM;
	obj = kmem_cache_alloc(cache, GFP_KERNEL);
	if (!obj)
		return -ENOMEM;
	kmem_cache_free(cache, obj);
	/* Hidden from the compiler, which would rightly refuse a visible use after free. */
	OPTIMIZER_HIDE_VAR(obj);
	obj[8] = 0x5a;
	/* The next allocation checks the poison of the object it hands out: the same one. */
	again = kmem_cache_alloc(cache, GFP_KERNEL);
	pr_info("slub_corrupt: wrote into a freed object; same object again: %s\n",
		again == obj ? "yes" : "no");
	return 0;
}

static void __exit slub_corrupt_exit(void)
{
}

module_init(slub_corrupt_init);
module_exit(slub_corrupt_exit);
MODULE_DESCRIPTION("Deliberately writes into a freed slab object (garnet VM harness self-test)");
MODULE_LICENSE("GPL");
