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
#include <linux/xarray.h>

#include <drm/drm_mm.h>
#include <drm/gpu_scheduler.h>

#include "garnet_proc.h"

struct drm_file;
struct drm_gem_object;
struct drm_minor;
struct garnet_device;
struct garnet_file;
struct garnet_object;
struct garnet_dep_wait;

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
	atomic64_t dep_timeouts;	/* dependencies a request stopped waiting for */
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
	 * The engine: the kernel's GPU scheduler (drm_sched) with one entity per process (the
	 * one that opened each file), served in turn, one job on the engine at a time. Its
	 * run_job hands the batch to engine_wq, which runs it in process context and signals
	 * the job's hardware fence; its timeout handler is the watchdog. Dependencies (fences of
	 * other processes and other drivers) are the scheduler's, woken by their callbacks.
	 */
	struct drm_gpu_scheduler sched;
	struct drm_gpu_scheduler *sched_list[1];	/* what entities are made with */
	bool sched_ready;
	struct mutex entity_lock;	/* the processes' entities: lookup, references */
	struct workqueue_struct *engine_wq;
	struct workqueue_struct *retire_wq;
	spinlock_t sched_lock;		/* in-flight counts */
	atomic_t requests;		/* submitted, not yet retired */
	spinlock_t fence_lock;		/* the hardware fences' */
	u64 hw_context;			/* the engine's timeline: hardware fences in run order */
	u64 hw_seqno;			/* under the scheduler's thread (run_job runs one at a time) */
	atomic64_t completed_seqno;	/* of the last job that ran, on the engine's timeline */

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
	struct garnet_proc *proc;	/* the process that opened it: whose entity it uses; ref */
	atomic_t errors;		/* faults and hangs so far */
	atomic_t unreported;		/* errors not yet returned as -EIO */
	bool banned;

	struct garnet_entity *entity;	/* its process's place in the scheduler; reference */
	/* Under gpu->sched_lock. */
	unsigned int inflight;		/* submitted, not yet finished by the engine */
	u64 inflight_bytes;
	wait_queue_head_t retired;	/* a request of this file finished */
};

/*
 * A process's entity in the scheduler (one per process, so opening more files buys no more
 * turns): its jobs run in submission order, whichever of its files they came from.
 */
struct garnet_entity {
	struct drm_sched_entity base;
	unsigned int refs;		/* clients of the process; under gpu->entity_lock */
	struct garnet_proc *proc;	/* no reference: its clients hold the process */
	/* Freed after a grace period: a fence callback of the scheduler may still look at it. */
	struct rcu_head rcu;
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
	struct drm_sched_job job;	/* its finished fence is what the objects carry */
	struct garnet_gpu *gpu;
	struct garnet_client *client;	/* holds a reference */
	struct garnet_proc *proc;	/* the submitting process; reference */
	struct dma_fence *hw;		/* the engine's fence, made when the job runs */
	struct work_struct run_work;	/* on gpu->engine_wq: runs the batch */
	struct work_struct retire_work;
	bool job_inited;		/* drm_sched_job_init() done */
	bool hw_inited;			/* hw made by run_job */
	bool stop;			/* the watchdog asks the engine to stop the batch */
	u64 charged;			/* bytes counted in client->inflight_bytes */
	u32 *cmds;			/* kernel copy of the batch: what runs; freed once run */
	u32 cmd_dwords;
	u64 batch_addr;			/* address of cmds[0] in the client's space */
	/* Waits for other processes' and drivers' fences, by fence context (garnet_deps.c). */
	struct xarray deps;
	struct garnet_dep_wait *dep_waiting;	/* the one the scheduler waits for; reference */
	unsigned long deps_deadline;	/* jiffies: when it stops waiting for them */
	bool deps_started;		/* the scheduler asked for the first one */
	bool deps_gave_up;
	unsigned int nobj;
	struct garnet_req_obj objs[];	/* sorted by start */
};

/* Module parameters (garnet_engine.c). */
extern bool garnet_isolation;
extern bool garnet_validate;
extern unsigned int garnet_watchdog_ms;
extern unsigned int garnet_ban_threshold;

/* garnet_deps.c */
extern unsigned int garnet_dep_timeout_ms;
void garnet_deps_init(struct garnet_request *req);
int garnet_deps_collect(struct garnet_request *req, struct drm_gem_object *obj, bool write);
struct dma_fence *garnet_deps_next(struct garnet_request *req);
void garnet_deps_fini(struct garnet_request *req);

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
int garnet_client_open(struct garnet_file *gfile);
void garnet_client_close(struct garnet_file *gfile);
void garnet_client_put(struct garnet_client *client);
int garnet_client_check(struct garnet_client *client);
int garnet_client_charge(struct garnet_client *client, u64 bytes, bool nonblock);
void garnet_client_uncharge(struct garnet_client *client, u64 bytes);
struct garnet_request *garnet_request_alloc(struct garnet_gpu *gpu, struct garnet_client *client,
					    unsigned int nobj);
int garnet_request_prepare(struct garnet_request *req);
struct dma_fence *garnet_request_arm(struct garnet_request *req);
int garnet_engine_init(struct garnet_gpu *gpu);
void garnet_engine_fini(struct garnet_gpu *gpu);
void garnet_request_submit(struct garnet_request *req);
void garnet_request_free_unsubmitted(struct garnet_request *req);
int garnet_gem_wait_ioctl(struct drm_device *drm, void *data, struct drm_file *file);

/* garnet_cmd.c */
struct garnet_req_obj *garnet_req_lookup(struct garnet_request *req, u64 addr, u64 len);
int garnet_cmd_validate(struct garnet_request *req, bool check_addresses);
int garnet_cmd_execute(struct garnet_request *req);

/* garnet_exec.c */
int garnet_execbuffer2_ioctl(struct drm_device *drm, void *data, struct drm_file *file);
int garnet_execbuffer_ioctl(struct drm_device *drm, void *data, struct drm_file *file);

/* garnet_exec_debugfs.c */
void garnet_exec_debugfs_init(struct drm_minor *minor);

#endif /* GARNET_EXEC_H */
