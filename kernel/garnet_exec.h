/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Execution: the GTT (address spaces made of drm_mm ranges), requests with their dma_fences,
 * the command validator and the software engine that runs validated batches.
 *
 * Locking: gpu->lock (a mutex) protects every address space, every binding and the per-file
 * pins. The engine never takes it, so anybody holding it may wait for a request's fence: a
 * fence always signals (the watchdog bounds every batch) without needing the lock.
 */
#ifndef GARNET_EXEC_H
#define GARNET_EXEC_H

#include <linux/dma-fence.h>
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

struct dma_resv;
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
	struct dma_fence *last_fence;	/* last request that uses it; idle once signalled */
	struct llist_node release_link;	/* gpu->released, once the shrinker took it out */
};

struct garnet_gpu {
	struct garnet_device *gdev;
	struct mutex lock;
	struct garnet_vm ggtt;
	struct list_head vms;

	/* The engine: requests run one at a time, in submission order. */
	struct workqueue_struct *engine_wq;
	struct workqueue_struct *retire_wq;
	spinlock_t fence_lock;
	u64 fence_context;
	u64 next_seqno;			/* under lock */
	atomic64_t completed_seqno;

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

/* Per open file: its address space and how its batches have behaved. */
struct garnet_client {
	struct kref ref;		/* the file, and every request in flight */
	struct garnet_gpu *gpu;
	u64 id;
	struct garnet_vm *vm;		/* &gpu->ggtt, or own_vm in isolation mode */
	struct garnet_vm *own_vm;
	/* Per file, so one noisy client cannot hide another's refused batches from the log. */
	struct ratelimit_state log_rs;
	atomic_t errors;		/* faults and hangs so far */
	atomic_t unreported;		/* errors not yet returned as -EIO */
	bool banned;
};

/* What a request may touch: its objects, where they are bound and mapped. */
struct garnet_req_obj {
	u64 start, size;
	void *vaddr;
	struct garnet_object *obj;	/* holds a reference until retired */
};

struct garnet_request {
	struct dma_fence fence;		/* first: dma_fence_free() frees the request */
	struct garnet_gpu *gpu;
	struct garnet_client *client;	/* holds a reference */
	struct work_struct run_work;
	struct work_struct retire_work;
	u32 *cmds;			/* kernel copy of the batch: what runs; freed at retire */
	u32 cmd_dwords;
	u64 batch_addr;			/* address of cmds[0] in the client's space */
	struct dma_fence **deps;	/* other drivers' fences to wait for first */
	unsigned int ndeps;
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
				   struct garnet_object *obj, u64 alignment);
void garnet_vma_unpin(struct garnet_vma *vma);
bool garnet_vma_idle(const struct garnet_vma *vma);
void garnet_vma_unbind(struct garnet_vma *vma);
int garnet_vm_evict_all(struct garnet_gpu *gpu, struct garnet_vm *vm);
void garnet_vm_object_free(struct garnet_object *gobj);

/* garnet_engine.c */
extern const struct dma_fence_ops garnet_request_fence_ops;
int garnet_client_open(struct garnet_file *gfile);
void garnet_client_close(struct garnet_file *gfile);
void garnet_client_put(struct garnet_client *client);
int garnet_client_check(struct garnet_client *client);
struct garnet_request *garnet_request_alloc(struct garnet_gpu *gpu, struct garnet_client *client,
					    unsigned int nobj);
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
