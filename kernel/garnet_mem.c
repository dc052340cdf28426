// SPDX-License-Identifier: GPL-2.0-only
/*
 * Per-client budgets for object memory.
 *
 * Objects are populated page by page when touched (garnet_gem.c maps the shmem file itself),
 * and their pages are charged by shmem to the memory cgroup of the task that touches them. What
 * no cgroup bounds is how much one client may ask for: GEM_CREATE and dumb buffers charge the
 * object's full size to the creating file's budget, and a file at client_mem_mb gets -ENOMEM.
 * Pinning (binds, scanout, vmap) only ever pins objects someone created, so it stays within
 * the budgets too. Imported dma-bufs are the exporter's memory and charge nothing here.
 */
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/slab.h>

#include "garnet_gem.h"
#include "garnet_mem.h"

/* Read-only after load: a limit that root could lift at runtime would be no promise. */
static unsigned int client_mem_mb;
module_param(client_mem_mb, uint, 0444);
MODULE_PARM_DESC(client_mem_mb,
		 "Object memory one open file may create, in MiB (default, or 0: half of RAM)");

void garnet_mem_init(void)
{
	u64 half_mb = (totalram_pages() >> 1) >> (20 - PAGE_SHIFT);

	if (!client_mem_mb || client_mem_mb > half_mb * 2)
		client_mem_mb = max_t(u64, half_mb, 1);
}

struct garnet_mem_budget *garnet_mem_budget_create(void)
{
	struct garnet_mem_budget *budget = kzalloc(sizeof(*budget), GFP_KERNEL_ACCOUNT);

	if (!budget)
		return NULL;
	kref_init(&budget->ref);
	atomic64_set(&budget->bytes, 0);
	return budget;
}

static void budget_release(struct kref *ref)
{
	struct garnet_mem_budget *budget = container_of(ref, struct garnet_mem_budget, ref);

	WARN_ON(atomic64_read(&budget->bytes));
	kfree(budget);
}

void garnet_mem_budget_put(struct garnet_mem_budget *budget)
{
	if (budget)
		kref_put(&budget->ref, budget_release);
}

int garnet_mem_charge(struct garnet_object *gobj, struct garnet_mem_budget *budget)
{
	u64 size = gobj->shmem.base.size;
	u64 limit = (u64)client_mem_mb << 20;

	if (WARN_ON(gobj->budget))
		return -EINVAL;
	if (atomic64_add_return(size, &budget->bytes) > limit) {
		atomic64_sub(size, &budget->bytes);
		return -ENOMEM;
	}
	kref_get(&budget->ref);
	gobj->budget = budget;
	return 0;
}

void garnet_mem_uncharge(struct garnet_object *gobj)
{
	struct garnet_mem_budget *budget = gobj->budget;

	if (!budget)
		return;
	gobj->budget = NULL;
	atomic64_sub(gobj->shmem.base.size, &budget->bytes);
	garnet_mem_budget_put(budget);
}
