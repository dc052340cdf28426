// SPDX-License-Identifier: GPL-2.0-only
/*
 * Per-client budgets for object memory.
 *
 * Objects are populated page by page when touched (garnet_gem.c maps the shmem file itself),
 * and their pages are charged by shmem to the memory cgroup of the task that touches them. What
 * no cgroup bounds is how much one client may ask for: GEM_CREATE and dumb buffers charge the
 * object's full size to the budget of the process that opened the file, and a process at
 * client_mem_mb gets -ENOMEM. One budget per process (its thread group), whatever number of
 * files it opens, as bans are kept per process (garnet_engine.c): a budget per file would be
 * multiplied by opening more files. What it does not bound: a family of processes. A child
 * has a budget of its own, and a file a child opened keeps charging the child's budget in
 * whoever's hands it ends up (passed over a socket, the child gone). Only the memory cgroup
 * the pages are charged to bounds a user's processes together.
 * Pinning (binds, scanout, vmap) only ever pins objects someone created, so it stays within
 * the budgets too. Imported dma-bufs are the exporter's memory and charge nothing here.
 */
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/pid.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>

#include "garnet_gem.h"
#include "garnet_mem.h"

/* Read-only after load: a limit that root could lift at runtime would be no promise. */
static unsigned int client_mem_mb;
module_param(client_mem_mb, uint, 0444);
MODULE_PARM_DESC(client_mem_mb,
		 "Object memory one process may create, in MiB (default, or 0: half of RAM)");

/* Budgets of processes with a file open or an object alive, keyed by thread group. */
static DEFINE_MUTEX(budgets_lock);
static LIST_HEAD(budgets);

void garnet_mem_init(void)
{
	u64 half_mb = (totalram_pages() >> 1) >> (20 - PAGE_SHIFT);

	if (!client_mem_mb || client_mem_mb > half_mb * 2)
		client_mem_mb = max_t(u64, half_mb, 1);
}

struct garnet_mem_budget *garnet_mem_budget_get(void)
{
	struct pid *tgid = task_tgid(current);
	struct garnet_mem_budget *budget, *fresh;

	/* Allocated outside the lock, which object frees take, so reclaim never runs under it. */
	fresh = kzalloc(sizeof(*fresh), GFP_KERNEL_ACCOUNT);
	mutex_lock(&budgets_lock);
	list_for_each_entry(budget, &budgets, link)
		if (budget->tgid == tgid && kref_get_unless_zero(&budget->ref))
			goto out;
	budget = fresh;
	fresh = NULL;
	if (budget) {
		kref_init(&budget->ref);
		atomic64_set(&budget->bytes, 0);
		/* Held, so no later process is given this struct pid while the budget lives. */
		budget->tgid = get_pid(tgid);
		list_add(&budget->link, &budgets);
	}
out:
	mutex_unlock(&budgets_lock);
	kfree(fresh);
	return budget;
}

static void budget_release(struct kref *ref)
	__releases(&budgets_lock)
{
	struct garnet_mem_budget *budget = container_of(ref, struct garnet_mem_budget, ref);

	list_del(&budget->link);
	mutex_unlock(&budgets_lock);
	WARN_ON(atomic64_read(&budget->bytes));
	put_pid(budget->tgid);
	kfree(budget);
}

void garnet_mem_budget_put(struct garnet_mem_budget *budget)
{
	if (budget)
		kref_put_mutex(&budget->ref, budget_release, &budgets_lock);
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
