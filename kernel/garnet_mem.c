// SPDX-License-Identifier: GPL-2.0-only
/*
 * Per-client budgets for object memory.
 *
 * Objects are populated page by page when touched (garnet_gem.c maps the shmem file itself),
 * and their pages are charged by shmem to the memory cgroup of the task that touches them. What
 * no cgroup bounds is how much one client may ask for: GEM_CREATE and dumb buffers charge the
 * object's full size to the budget of the process that opened the file, and a process at
 * client_mem_mb gets -ENOMEM. One budget per process (its thread group), whatever number of
 * files it opens, kept in the process's record next to its bans (garnet_proc.h): a budget per
 * file would be multiplied by opening more files. What it does not bound: a family of
 * processes. A child has a budget of its own, and a file a child opened keeps charging the
 * child's budget in whoever's hands it ends up (passed over a socket, the child gone). Only
 * the memory cgroup the pages are charged to bounds a user's processes together.
 * Pinning (binds, scanout, vmap) only ever pins objects someone created, so it stays within
 * the budgets too. Imported dma-bufs are the exporter's memory and charge nothing here.
 */
#include <linux/mm.h>
#include <linux/module.h>

#include "garnet_gem.h"
#include "garnet_mem.h"
#include "garnet_proc.h"

/* Read-only after load: a limit that root could lift at runtime would be no promise. */
static unsigned int client_mem_mb;
module_param(client_mem_mb, uint, 0444);
MODULE_PARM_DESC(client_mem_mb,
		 "Object memory one process may create, in MiB (default, or 0: half of RAM)");

void garnet_mem_init(void)
{
	u64 half_mb = (totalram_pages() >> 1) >> (20 - PAGE_SHIFT);

	if (!client_mem_mb || client_mem_mb > half_mb * 2)
		client_mem_mb = max_t(u64, half_mb, 1);
}

int garnet_mem_charge(struct garnet_object *gobj, struct garnet_proc *proc)
{
	u64 size = gobj->shmem.base.size;
	u64 limit = (u64)client_mem_mb << 20;

	if (WARN_ON(gobj->proc))
		return -EINVAL;
	if (atomic64_add_return(size, &proc->mem_bytes) > limit) {
		atomic64_sub(size, &proc->mem_bytes);
		return -ENOMEM;
	}
	gobj->proc = garnet_proc_get(proc);
	return 0;
}

void garnet_mem_uncharge(struct garnet_object *gobj)
{
	struct garnet_proc *proc = gobj->proc;

	if (!proc)
		return;
	gobj->proc = NULL;
	atomic64_sub(gobj->shmem.base.size, &proc->mem_bytes);
	garnet_proc_put(proc);
}
