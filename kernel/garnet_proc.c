// SPDX-License-Identifier: GPL-2.0-only
/*
 * The per-process records (garnet_proc.h): a hash table keyed by the thread group's struct
 * pid, under one mutex held only for a lookup, an insertion or a removal.
 *
 * A record goes with its last reference. A process with faults or hangs on record is kept,
 * by a reference of the table's, until the process is gone: otherwise closing every file and
 * opening a new one would clear a ban. Those records (only of processes that misbehaved)
 * are looked at again whenever a new record is made, and dropped once their process has
 * exited.
 */
#include <linux/hashtable.h>
#include <linux/mutex.h>
#include <linux/pid.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>

#include "garnet_proc.h"

static DEFINE_MUTEX(procs_lock);
static DEFINE_HASHTABLE(procs, 8);
static LIST_HEAD(remembered);	/* records holding the table's reference */

static struct garnet_proc *proc_lookup(struct pid *tgid)
{
	struct garnet_proc *proc;

	lockdep_assert_held(&procs_lock);
	hash_for_each_possible(procs, proc, hash_link, (unsigned long)tgid)
		if (proc->tgid == tgid)
			return proc;
	return NULL;
}

static void proc_free(struct garnet_proc *proc)
{
	WARN_ON(atomic64_read(&proc->mem_bytes));
	WARN_ON(proc->entity);
	put_pid(proc->tgid);
	kfree(proc);
}

/* The last reference went while procs_lock was held. */
static void proc_release_locked(struct kref *ref)
{
	struct garnet_proc *proc = container_of(ref, struct garnet_proc, ref);

	hash_del(&proc->hash_link);
	proc_free(proc);
}

static void proc_release(struct kref *ref)
	__releases(&procs_lock)
{
	struct garnet_proc *proc = container_of(ref, struct garnet_proc, ref);

	hash_del(&proc->hash_link);
	mutex_unlock(&procs_lock);
	proc_free(proc);
}

/* Drops the table's reference on records of processes that have exited. */
static void forget_exited(void)
{
	struct garnet_proc *proc, *next;

	list_for_each_entry_safe(proc, next, &remembered, remembered_link) {
		if (pid_has_task(proc->tgid, PIDTYPE_TGID))
			continue;
		list_del_init(&proc->remembered_link);
		kref_put(&proc->ref, proc_release_locked);
	}
}

struct garnet_proc *garnet_proc_get_current(void)
{
	struct pid *tgid = task_tgid(current);
	struct garnet_proc *proc, *fresh;

	mutex_lock(&procs_lock);
	proc = proc_lookup(tgid);
	if (proc) {
		kref_get(&proc->ref);
		mutex_unlock(&procs_lock);
		return proc;
	}
	mutex_unlock(&procs_lock);

	/* Allocated outside the lock, which object frees take, so reclaim never runs under it. */
	fresh = kzalloc(sizeof(*fresh), GFP_KERNEL_ACCOUNT);
	if (!fresh)
		return NULL;
	kref_init(&fresh->ref);
	atomic64_set(&fresh->mem_bytes, 0);
	INIT_LIST_HEAD(&fresh->remembered_link);

	mutex_lock(&procs_lock);
	/* Another thread of the process may have made it meanwhile. */
	proc = proc_lookup(tgid);
	if (proc) {
		kref_get(&proc->ref);
	} else {
		forget_exited();
		fresh->tgid = get_pid(tgid);
		hash_add(procs, &fresh->hash_link, (unsigned long)tgid);
		proc = fresh;
		fresh = NULL;
	}
	mutex_unlock(&procs_lock);
	kfree(fresh);
	return proc;
}

struct garnet_proc *garnet_proc_get(struct garnet_proc *proc)
{
	kref_get(&proc->ref);
	return proc;
}

void garnet_proc_put(struct garnet_proc *proc)
{
	if (proc)
		kref_put_mutex(&proc->ref, proc_release, &procs_lock);
}

bool garnet_proc_current_banned(void)
{
	struct garnet_proc *proc;
	bool banned;

	mutex_lock(&procs_lock);
	proc = proc_lookup(task_tgid(current));
	banned = proc && proc->banned;
	mutex_unlock(&procs_lock);
	return banned;
}

bool garnet_proc_error(struct garnet_proc *proc, unsigned int threshold)
{
	bool banned_now = false;

	mutex_lock(&procs_lock);
	if (!proc->errors++) {
		kref_get(&proc->ref);
		list_add(&proc->remembered_link, &remembered);
	}
	if (proc->errors >= threshold && !proc->banned) {
		WRITE_ONCE(proc->banned, true);
		banned_now = true;
	}
	mutex_unlock(&procs_lock);
	return banned_now;
}

void garnet_proc_fini(void)
{
	struct garnet_proc *proc, *next;

	mutex_lock(&procs_lock);
	list_for_each_entry_safe(proc, next, &remembered, remembered_link) {
		list_del_init(&proc->remembered_link);
		kref_put(&proc->ref, proc_release_locked);
	}
	mutex_unlock(&procs_lock);
}
