/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Execution: the GTT (address spaces made of drm_mm ranges), requests with their dma_fences,
 * the command validator and the software engine that runs validated batches.
 *
 * Locking: gpu->lock (a mutex) protects every address space, every binding and the per-file
 * pins. Nobody waits for a fence while holding it, nor while holding a reservation lock: a
 * queue of requests (and another driver's fence) can take any time, and every close and free
 * needs the lock. Code that finds it must wait returns -EAGAIN with a reference on the fence
 * to wait for (*busy); its caller drops every lock, waits interruptibly with
 * garnet_wait_busy() and starts over.
 */
#ifndef GARNET_EXEC_H
#define GARNET_EXEC_H

#include <linux/dma-fence.h>
#include <linux/dma-resv.h>
#include <linux/hashtable.h>
#include <linux/kref.h>
#include <linux/list.h>
#include <linux/llist.h>
#include <linux/mutex.h>
#include <linux/ratelimit.h>
#include <linux/shrinker.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>

#include <drm/drm_mm.h>

#include "garnet_proc.h"

struct drm_file;
struct drm_minor;
struct garnet_device;
struct garnet_file;
struct garnet_object;

/* Counters shown in debugfs (garnet_exec) so that tests can see which path ran. */
struct garnet_exec_counters {
	atomic64_t submitted;
	atomic64_t completed;
	atomic64_t reloc_fast;		/* relocations skipped: presumed_offset was right */
	atomic64_t reloc_written;	/* relocations written into an object */
	atomic64_t binds;
	atomic64_t evictions;
	atomic64_t eviction_waits;	/* evictions that had to wait for a busy object */
	atomic64_t cpu_waits;		/* execbuffers that waited on the CPU for the engine */
	atomic64_t gpu_flushes;		/* MI_FLUSH-equivalents emitted for domain changes */
	atomic64_t rejected;		/* batches refused by the command validator */
	atomic64_t faults;
	atomic64_t hangs;
	atomic64_t bans;
	atomic64_t user_interrupts;
	atomic64_t shrinker_unbinds;
	atomic64_t engine_runs;		/* times the engine woke up to look at the queues */
};

/* One address space: the global GTT, or a file's own in isolation mode. */
struct garnet_vm {
	struct drm_mm mm;
	u64 start, end;			/* range placement may use (GEM_INIT narrows the GTT's) */
	u64 size;			/* the whole space: [0, size) */
	struct list_head lru;		/* bindings, least recently used first */
	struct list_head gpu_link;	/* gpu->vms */
	DECLARE_HASHTABLE(vmas, 6);	/* bindings by object */
	bool randomise;			/* isolation mode: unpredictable placement */
};

/* An object bound into one address space, mapped into the kernel for the engine. */
struct garnet_vma {
	struct drm_mm_node node;
	struct garnet_vm *vm;
	struct garnet_object *obj;	/* no reference: freeing the object unbinds it first */
	struct hlist_node hash_link;
	struct list_head lru_link;
	void *vaddr;
	unsigned int pin_count;		/* one for all PINs, and one per execbuffer being built */
	struct llist_node release_link;	/* gpu->released, once the shrinker took it out */
};

struct garnet_gpu {
	struct garnet_device *gdev;
	struct mutex lock;
	struct garnet_vm ggtt;
	struct list_head vms;

	/*
	 * The engine: requests run one at a time. Each file has its own queue (and timeline).
	 * Turns go to processes (the one that opened each file), the one served longest ago
	 * first, and within a process to its files in turn; only ready heads count. So no
	 * process's queues (endless batches, a fence that never comes, many files) hold up
	 * another's beyond the one request running. engine_work runs on the ordered engine_wq;
	 * it is kicked at every submission and by the callback of every fence a queued request
	 * waits for, and wakes by itself only when a head's dependencies time out.
	 */
	struct workqueue_struct *engine_wq;
	struct workqueue_struct *retire_wq;
	struct delayed_work engine_work;
	spinlock_t sched_lock;		/* the queues, active, in-flight counts */
	struct list_head active;	/* processes with queued requests */
	u64 turns;			/* requests taken so far */
	spinlock_t fence_lock;
	atomic64_t completed_seqno;	/* of the last request that ran, on its file's timeline */

	/*
	 * Bindings the shrinker took out of their space in reclaim, each holding a reference
	 * on its object; released_work unmaps them in process context (garnet_vm.c).
	 */
	struct llist_head released;
	struct work_struct released_work;
	struct shrinker shrinker;
	bool shrinker_registered;

	struct garnet_exec_counters counters;
};

/* Per file: at most this much submitted and not yet retired (batch copies and requests). */
#define GARNET_MAX_INFLIGHT		64
#define GARNET_MAX_INFLIGHT_BYTES	(64ull << 20)

/* Per open file: its address space and how its batches have behaved. */
struct garnet_client {
	struct kref ref;		/* the file, and every request in flight */
	struct garnet_gpu *gpu;
	u64 id;
	struct garnet_vm *vm;		/* &gpu->ggtt, or own_vm in isolation mode */
	struct garnet_vm *own_vm;
	/* Per file, so one noisy client cannot hide another's refused batches from the log. */
	struct ratelimit_state log_rs;
	struct garnet_proc *proc;	/* the process that opened it: whose turns it takes; ref */
	atomic_t errors;		/* faults and hangs so far */
	atomic_t unreported;		/* errors not yet returned as -EIO */
	bool banned;

	/* Its timeline: seqnos in submission order (under gpu->lock), signalled in that order. */
	u64 fence_context;
	u64 next_seqno;
	/* Under gpu->sched_lock. */
	struct list_head queue;		/* submitted, not yet run, oldest first */
	struct list_head active_link;	/* in proc->clients while queue is not empty */
	unsigned int inflight;		/* submitted, not yet retired */
	u64 inflight_bytes;
	wait_queue_head_t retired;	/* a request of this file retired */
};

/*
 * A fence of another timeline (another file's, another driver's) a request waits for; its
 * callback kicks the engine when it signals.
 */
struct garnet_dep {
	struct dma_fence *fence;	/* reference */
	struct dma_fence_cb cb;		/* on fence until it signals or the request retires */
	struct garnet_gpu *gpu;
};

/* What a request may touch: its objects, where they are bound and mapped. */
struct garnet_req_obj {
	u64 start, size;
	void *vaddr;
	struct garnet_object *obj;	/* holds a reference until retired */
	u32 index;			/* in the execbuffer's list */
	/* Declared a write, or the validator found a command that writes it. */
	bool written;
};

struct garnet_request {
	struct dma_fence fence;		/* first: dma_fence_free() frees the request */
	struct garnet_gpu *gpu;
	struct garnet_client *client;	/* holds a reference */
	struct garnet_proc *proc;	/* the submitting process; reference */
	struct list_head queue_link;	/* client->queue */
	struct work_struct retire_work;
	u64 charged;			/* bytes counted in client->inflight_bytes */
	unsigned long dep_deadline;	/* set when it first heads its queue; 0 before */
	u32 *cmds;			/* kernel copy of the batch: what runs; freed at retire */
	u32 cmd_dwords;
	u64 batch_addr;			/* address of cmds[0] in the client's space */
	struct garnet_dep *deps;	/* fences of other timelines to wait for first */
	unsigned int ndeps;
	bool deps_armed;		/* their callbacks are on the fences (from submission) */
	unsigned int nobj;
	struct garnet_req_obj objs[];	/* sorted by start */
};

/* Module parameters (garnet_engine.c). */
extern bool garnet_isolation;
extern bool garnet_validate;
extern unsigned int garnet_watchdog_ms;
extern unsigned int garnet_ban_threshold;

/* garnet_vm.c */
#define GARNET_VM_LIMIT		(1ull << 32)	/* gen3 addresses are 32 bits wide */
int garnet_gpu_init(struct garnet_device *gdev);
void garnet_gpu_fini(struct garnet_device *gdev);
void garnet_vm_init(struct garnet_vm *vm, u64 size, bool randomise);
void garnet_vm_fini(struct garnet_gpu *gpu, struct garnet_vm *vm);
struct garnet_vma *garnet_vm_find(struct garnet_vm *vm, struct garnet_object *obj);
struct garnet_vma *garnet_vma_bind(struct garnet_gpu *gpu, struct garnet_vm *vm,
				   struct garnet_object *obj, u64 alignment,
				   struct dma_fence **busy);
void garnet_vma_unpin(struct garnet_vma *vma);
bool garnet_vma_idle(const struct garnet_vma *vma);
int garnet_vma_busy(const struct garnet_vma *vma, struct dma_fence **busy);
void garnet_vma_unbind(struct garnet_vma *vma);
int garnet_vm_evict_all(struct garnet_gpu *gpu, struct garnet_vm *vm, struct dma_fence **busy);
int garnet_wait_busy(struct dma_fence **busy);
int garnet_resv_busy(struct dma_resv *resv, enum dma_resv_usage usage, struct dma_fence **busy);
void garnet_vm_object_free(struct garnet_object *gobj);

/* garnet_engine.c */
extern const struct dma_fence_ops garnet_request_fence_ops;
int garnet_client_open(struct garnet_file *gfile);
void garnet_client_close(struct garnet_file *gfile);
void garnet_client_put(struct garnet_client *client);
int garnet_client_check(struct garnet_client *client);
int garnet_client_charge(struct garnet_client *client, u64 bytes, bool nonblock);
void garnet_client_uncharge(struct garnet_client *client, u64 bytes);
struct garnet_request *garnet_request_alloc(struct garnet_gpu *gpu, struct garnet_client *client,
					    unsigned int nobj);
void garnet_request_init_fence(struct garnet_request *req);
void garnet_engine_init(struct garnet_gpu *gpu);
void garnet_engine_fini(struct garnet_gpu *gpu);
void garnet_request_submit(struct garnet_request *req);
void garnet_request_free_unsubmitted(struct garnet_request *req);
int garnet_gem_wait_ioctl(struct drm_device *drm, void *data, struct drm_file *file);
int garnet_request_add_deps(struct garnet_request *req, struct dma_resv *resv, bool write);

/* garnet_cmd.c */
struct garnet_req_obj *garnet_req_lookup(struct garnet_request *req, u64 addr, u64 len);
int garnet_cmd_validate(struct garnet_request *req, bool check_addresses);
int garnet_cmd_execute(struct garnet_request *req, unsigned long deadline);

/* garnet_exec.c */
int garnet_execbuffer2_ioctl(struct drm_device *drm, void *data, struct drm_file *file);
int garnet_execbuffer_ioctl(struct drm_device *drm, void *data, struct drm_file *file);

/* garnet_exec_debugfs.c */
void garnet_exec_debugfs_init(struct drm_minor *minor);

#endif /* GARNET_EXEC_H */
