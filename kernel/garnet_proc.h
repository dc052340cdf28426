/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * One record per process (thread group) that uses garnet: its object-memory budget
 * (garnet_mem.c), its faults, hangs and ban (garnet_engine.c) and its entity in the engine's
 * scheduler. Kept per process, not per file, so that opening more files buys neither more memory
 * nor more hangs. Found by thread group in a hash table, so an open or a submission costs the
 * same however many processes use garnet.
 */
#ifndef GARNET_PROC_H
#define GARNET_PROC_H

#include <linux/atomic.h>
#include <linux/kref.h>
#include <linux/list.h>
#include <linux/types.h>

struct garnet_entity;
struct pid;

struct garnet_proc {
	/*
	 * Files the process opened (and their clients), its requests in flight, every object
	 * charged to it (objects outlive files), and the table itself while the process lives
	 * with errors on record, so that a ban outlasts closing every file.
	 */
	struct kref ref;
	struct pid *tgid;		/* reference: no later process gets this struct pid */
	struct hlist_node hash_link;	/* in the table, under garnet_proc.c's lock */

	atomic64_t mem_bytes;		/* object memory charged (garnet_mem.c) */

	/* Under garnet_proc.c's lock. */
	unsigned int errors;		/* faults and hangs over all its files */
	struct list_head remembered_link; /* once errors > 0, until the process is gone */
	bool banned;			/* written under the lock, read with READ_ONCE */

	/* Its entity in the engine's scheduler while it has files (garnet_engine.c's lock). */
	struct garnet_entity *entity;
};

/* The calling process's record (made on first use), with a reference; NULL without memory. */
struct garnet_proc *garnet_proc_get_current(void);
struct garnet_proc *garnet_proc_get(struct garnet_proc *proc);
void garnet_proc_put(struct garnet_proc *proc);
/* Whether the calling process is banned (without making a record for it). */
bool garnet_proc_current_banned(void);
/*
 * Counts a fault or hang against the process; true when this one bans it (the threshold
 * reached). The record then stays as long as the process lives.
 */
bool garnet_proc_error(struct garnet_proc *proc, unsigned int threshold);
/* Module unload: every file and object is gone; drops the records kept for bans. */
void garnet_proc_fini(void);

#endif /* GARNET_PROC_H */
