/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Per-client budgets for object memory: every object a file creates is charged to that file's
 * budget for as long as the object lives, so one client cannot make the kernel hold more than
 * client_mem_mb of shmem objects (see doc/buffers.md, "Memory a client can hold").
 */
#ifndef GARNET_MEM_H
#define GARNET_MEM_H

#include <linux/atomic.h>
#include <linux/kref.h>
#include <linux/types.h>

struct garnet_object;

struct garnet_mem_budget {
	/* The file, and every object charged to it: an object may outlive its creator's file. */
	struct kref ref;
	atomic64_t bytes;
};

void garnet_mem_init(void);
struct garnet_mem_budget *garnet_mem_budget_create(void);
void garnet_mem_budget_put(struct garnet_mem_budget *budget);

/* Charges the object's size to the budget, or -ENOMEM past the per-client limit. */
int garnet_mem_charge(struct garnet_object *gobj, struct garnet_mem_budget *budget);
/* At free: gives the object's size back to whichever budget paid for it. */
void garnet_mem_uncharge(struct garnet_object *gobj);

#endif /* GARNET_MEM_H */
