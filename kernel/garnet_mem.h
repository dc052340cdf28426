/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Per-process budgets for object memory: every object a file creates is charged to the budget
 * of the process that opened the file for as long as the object lives, so one process, however
 * many files it opens, cannot make the kernel hold more than client_mem_mb of shmem objects
 * (see doc/buffers.md, "Memory a client can hold").
 */
#ifndef GARNET_MEM_H
#define GARNET_MEM_H

#include <linux/atomic.h>
#include <linux/kref.h>
#include <linux/list.h>
#include <linux/types.h>

struct garnet_object;

struct pid;

struct garnet_mem_budget {
	/* Files the process opened, and every object charged to it: objects outlive files. */
	struct kref ref;
	atomic64_t bytes;
	struct pid *tgid;
	struct list_head link;		/* in garnet_mem.c's budgets, under budgets_lock */
};

void garnet_mem_init(void);
/* The calling process's budget (made on first use), with a reference; NULL without memory. */
struct garnet_mem_budget *garnet_mem_budget_get(void);
void garnet_mem_budget_put(struct garnet_mem_budget *budget);

/* Charges the object's size to the budget, or -ENOMEM past the per-client limit. */
int garnet_mem_charge(struct garnet_object *gobj, struct garnet_mem_budget *budget);
/* At free: gives the object's size back to whichever budget paid for it. */
void garnet_mem_uncharge(struct garnet_object *gobj);

#endif /* GARNET_MEM_H */
