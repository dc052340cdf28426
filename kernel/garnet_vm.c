// SPDX-License-Identifier: GPL-2.0-only
/*
 * Address spaces managed with drm_mm: the global GTT, and in isolation mode one per file.
 * Binding an object maps its pages into the kernel (the engine reaches memory only through
 * bindings) and gives it a range of addresses. When a space is full, idle unpinned bindings
 * are evicted, least recently used first; when only busy ones are left, the caller is told to
 * wait (without gpu->lock) for the engine to finish with the oldest of them and to try again.
 * GEM_INIT and PIN (garnet_gtt.c) work on the global GTT through the same bindings.
 */
#include <linux/dma-resv.h>
#include <linux/iosys-map.h>
#include <linux/random.h>
#include <linux/slab.h>

#include <drm/drm_gem.h>
#include <uapi/drm/i915_drm.h>

#include "garnet_drv.h"
#include "garnet_exec.h"
#include "garnet_gem.h"
#include "garnet_gtt.h"

void garnet_vm_init(struct garnet_vm *vm, u64 size, bool randomise)
{
	/* Every space spans the 32 bits a gen3 address has; placement uses [start, end). */
	drm_mm_init(&vm->mm, 0, GARNET_VM_LIMIT);
	vm->start = 0;
	vm->end = size;
	vm->size = size;
	vm->randomise = randomise;
	INIT_LIST_HEAD(&vm->lru);
	INIT_LIST_HEAD(&vm->gpu_link);
	hash_init(vm->vmas);
}

/*
 * Idle: no fence left unsignalled in the object's reservation object. Requests of different
 * files run in any order, so the last one submitted is not the last one to finish; every
 * request's fence is in there (other files' and other drivers' too: idle errs on the safe
 * side). Lockless, so the shrinker may ask in reclaim.
 */
bool garnet_vma_idle(const struct garnet_vma *vma)
{
	return dma_resv_test_signaled(vma->obj->shmem.base.resv, DMA_RESV_USAGE_BOOKKEEP);
}

/* Takes the binding out of its space: nothing finds it any more. Caller holds gpu->lock. */
static void vma_detach(struct garnet_vma *vma)
{
	drm_mm_remove_node(&vma->node);
	hash_del(&vma->hash_link);
	list_del(&vma->lru_link);
}

/* Gives back the kernel mapping (and with it the pages' pin); may sleep on the object's locks. */
static void vma_release(struct garnet_vma *vma)
{
	struct iosys_map map = IOSYS_MAP_INIT_VADDR(vma->vaddr);

	drm_gem_shmem_vunmap(&vma->obj->shmem, &map);
	kfree(vma);
}

/* Caller holds gpu->lock; the binding is idle and unpinned (or the object is going away). */
void garnet_vma_unbind(struct garnet_vma *vma)
{
	vma_detach(vma);
	vma_release(vma);
}

void garnet_vm_fini(struct garnet_gpu *gpu, struct garnet_vm *vm)
{
	struct garnet_vma *vma, *next;

	mutex_lock(&gpu->lock);
	/* Only the file's own requests used its space, and they have all retired. */
	list_for_each_entry_safe(vma, next, &vm->lru, lru_link)
		garnet_vma_unbind(vma);
	list_del_init(&vm->gpu_link);
	drm_mm_takedown(&vm->mm);
	mutex_unlock(&gpu->lock);
}

struct garnet_vma *garnet_vm_find(struct garnet_vm *vm, struct garnet_object *obj)
{
	struct garnet_vma *vma;

	hash_for_each_possible(vm->vmas, vma, hash_link, (unsigned long)obj)
		if (vma->obj == obj)
			return vma;
	return NULL;
}

/* A random page-aligned address where [addr, addr + size) fits in the placement range. */
static u64 random_start(struct garnet_vm *vm, u64 size)
{
	u64 span = vm->end - vm->start - size;

	return vm->start + round_down(get_random_u64() % (span + 1), PAGE_SIZE);
}

static int vm_insert(struct garnet_vm *vm, struct drm_mm_node *node, u64 size, u64 alignment)
{
	if (vm->randomise) {
		u64 from = random_start(vm, size);

		if (!drm_mm_insert_node_in_range(&vm->mm, node, size, alignment, 0, from, vm->end,
						 DRM_MM_INSERT_LOW))
			return 0;
	}
	return drm_mm_insert_node_in_range(&vm->mm, node, size, alignment, 0, vm->start,
					   vm->end, DRM_MM_INSERT_BEST);
}

/*
 * A wait found under a lock: *busy takes a reference on the fence (the first unsignalled one
 * of resv at usage, for garnet_resv_busy) and -EAGAIN tells the caller to drop its locks, call
 * garnet_wait_busy() and start over. 0 when there is nothing to wait for.
 */
static int set_busy(struct dma_fence *fence, struct dma_fence **busy)
{
	*busy = dma_fence_get(fence);
	return -EAGAIN;
}

/* Caller holds the reservation lock. */
int garnet_resv_busy(struct dma_resv *resv, enum dma_resv_usage usage, struct dma_fence **busy)
{
	struct dma_resv_iter cursor;
	struct dma_fence *fence;

	dma_resv_for_each_fence(&cursor, resv, usage, fence)
		if (!dma_fence_is_signaled(fence))
			return set_busy(fence, busy);
	return 0;
}

/* -EAGAIN with a fence the binding waits for (*busy), or 0 once it is idle. No lock needed. */
int garnet_vma_busy(const struct garnet_vma *vma, struct dma_fence **busy)
{
	struct dma_resv_iter cursor;
	struct dma_fence *fence;
	int ret = 0;

	dma_resv_iter_begin(&cursor, vma->obj->shmem.base.resv, DMA_RESV_USAGE_BOOKKEEP);
	dma_resv_for_each_fence_unlocked(&cursor, fence) {
		if (!dma_fence_is_signaled(fence)) {
			ret = set_busy(fence, busy);
			break;
		}
	}
	dma_resv_iter_end(&cursor);
	return ret;
}

/* Waits, holding no lock, for the fence a caller was told to wait for; drops it. */
int garnet_wait_busy(struct dma_fence **busy)
{
	long ret;

	if (!*busy)
		return 0;
	ret = dma_fence_wait(*busy, true);
	dma_fence_put(*busy);
	*busy = NULL;
	return ret;
}

/*
 * Frees room for one more binding: the least recently used idle binding goes; failing that,
 * the caller is sent to wait for the least recently used busy one (-EAGAIN, *busy). Returns
 * -ENOSPC when everything left is pinned.
 */
static int vm_evict_one(struct garnet_gpu *gpu, struct garnet_vm *vm,
			struct dma_fence **busy_fence)
{
	struct garnet_vma *vma, *busy = NULL;

	list_for_each_entry(vma, &vm->lru, lru_link) {
		if (vma->pin_count)
			continue;
		if (garnet_vma_idle(vma)) {
			garnet_vma_unbind(vma);
			atomic64_inc(&gpu->counters.evictions);
			return 0;
		}
		if (!busy)
			busy = vma;
	}
	if (!busy)
		return -ENOSPC;

	atomic64_inc(&gpu->counters.eviction_waits);
	if (garnet_vma_busy(busy, busy_fence))
		return -EAGAIN;
	/* It went idle meanwhile. */
	garnet_vma_unbind(busy);
	atomic64_inc(&gpu->counters.evictions);
	return 0;
}

/*
 * Evicts every unpinned binding of vm; -EAGAIN (*busy) while busy ones are left. Caller holds
 * gpu->lock.
 */
int garnet_vm_evict_all(struct garnet_gpu *gpu, struct garnet_vm *vm, struct dma_fence **busy)
{
	int ret;

	do {
		ret = vm_evict_one(gpu, vm, busy);
	} while (!ret);
	return ret == -ENOSPC ? 0 : ret;
}

static bool vma_misplaced(const struct garnet_vma *vma, u64 alignment)
{
	const struct garnet_vm *vm = vma->vm;

	return (alignment && !IS_ALIGNED(vma->node.start, alignment)) ||
	       vma->node.start < vm->start || vma->node.start + vma->node.size > vm->end;
}

/*
 * Binds obj into vm (or finds its binding) and pins it there. Caller holds gpu->lock.
 * -EFAULT for an object whose contents the user gave up (MADVISE DONTNEED or purged), as i915;
 * -EAGAIN with *busy when it must wait for the engine first.
 */
struct garnet_vma *garnet_vma_bind(struct garnet_gpu *gpu, struct garnet_vm *vm,
				   struct garnet_object *obj, u64 alignment,
				   struct dma_fence **busy)
{
	u64 size = obj->shmem.base.size;
	struct iosys_map map;
	struct garnet_vma *vma;
	int ret;

	lockdep_assert_held(&gpu->lock);
	if (READ_ONCE(obj->shmem.madv) != I915_MADV_WILLNEED)
		return ERR_PTR(-EFAULT);
	vma = garnet_vm_find(vm, obj);
	if (vma && vma_misplaced(vma, alignment)) {
		if (vma->pin_count)
			return ERR_PTR(-EBUSY);
		if (garnet_vma_busy(vma, busy))
			return ERR_PTR(-EAGAIN);
		garnet_vma_unbind(vma);
		vma = NULL;
	}
	if (vma) {
		vma->pin_count++;
		list_move_tail(&vma->lru_link, &vm->lru);
		return vma;
	}

	if (size > vm->end - vm->start)
		return ERR_PTR(-ENOSPC);

	vma = kzalloc(sizeof(*vma), GFP_KERNEL);
	if (!vma)
		return ERR_PTR(-ENOMEM);
	vma->vm = vm;
	vma->obj = obj;

	ret = drm_gem_shmem_vmap(&obj->shmem, &map);
	if (ret)
		goto err_free;
	vma->vaddr = map.vaddr;

	while ((ret = vm_insert(vm, &vma->node, size, alignment)) == -ENOSPC) {
		ret = vm_evict_one(gpu, vm, busy);
		if (ret)
			break;
	}
	if (ret)
		goto err_vunmap;

	vma->pin_count = 1;
	hash_add(vm->vmas, &vma->hash_link, (unsigned long)obj);
	list_add_tail(&vma->lru_link, &vm->lru);
	atomic64_inc(&gpu->counters.binds);
	return vma;

err_vunmap:
	drm_gem_shmem_vunmap(&obj->shmem, &map);
err_free:
	kfree(vma);
	return ERR_PTR(ret);
}

void garnet_vma_unpin(struct garnet_vma *vma)
{
	if (!WARN_ON(!vma->pin_count))
		vma->pin_count--;
}

/* The object is being freed: no request uses it any more, so every binding is idle. */
void garnet_vm_object_free(struct garnet_object *gobj)
{
	struct garnet_gpu *gpu = to_garnet_device(gobj->shmem.base.dev)->gpu;
	struct garnet_vm *vm;
	struct garnet_vma *vma;

	if (!gpu)
		return;
	mutex_lock(&gpu->lock);
	list_for_each_entry(vm, &gpu->vms, gpu_link) {
		vma = garnet_vm_find(vm, gobj);
		if (vma) {
			WARN_ON(vma->pin_count);
			garnet_vma_unbind(vma);
		}
	}
	mutex_unlock(&gpu->lock);
}

/*
 * Under memory pressure idle, unpinned bindings are dropped: their pages become ordinary
 * shmem pages again, which reclaim may swap out, and those of objects marked DONTNEED may be
 * purged by the object shrinker. DONTNEED ones go first. Busy bindings are left alone:
 * in-flight requests keep their memory.
 *
 * Reclaim may run under any lock an allocation is made under, including an object's vmap and
 * pages locks (a dma-buf importer's vmap, a plane, a bind). So the shrinker takes no lock but
 * a trylock of gpu->lock: it only takes bindings out of their space, each with a reference on
 * its object, and a worker gives their mappings back in process context, where waiting for
 * those locks is safe.
 */
static bool shrinkable(struct garnet_vma *vma)
{
	return !vma->pin_count && garnet_vma_idle(vma);
}

static void released_work(struct work_struct *work)
{
	struct garnet_gpu *gpu = container_of(work, struct garnet_gpu, released_work);
	struct garnet_vma *vma, *next;

	llist_for_each_entry_safe(vma, next, llist_del_all(&gpu->released), release_link) {
		struct drm_gem_object *obj = &vma->obj->shmem.base;

		vma_release(vma);
		/* The last reference frees the object, which takes gpu->lock: fine here. */
		drm_gem_object_put(obj);
	}
}

static unsigned long gtt_shrinker_count(struct shrinker *shrinker, struct shrink_control *sc)
{
	struct garnet_gpu *gpu = container_of(shrinker, struct garnet_gpu, shrinker);
	struct garnet_vm *vm;
	struct garnet_vma *vma;
	unsigned long count = 0;

	if (!mutex_trylock(&gpu->lock))
		return 0;
	list_for_each_entry(vm, &gpu->vms, gpu_link)
		list_for_each_entry(vma, &vm->lru, lru_link)
			if (shrinkable(vma))
				count += vma->node.size >> PAGE_SHIFT;
	mutex_unlock(&gpu->lock);
	return count ?: SHRINK_EMPTY;
}

static unsigned long shrink_pass(struct garnet_gpu *gpu, unsigned long todo, bool dontneed_only)
{
	struct garnet_vma *vma, *next;
	struct garnet_vm *vm;
	unsigned long freed = 0;

	list_for_each_entry(vm, &gpu->vms, gpu_link) {
		list_for_each_entry_safe(vma, next, &vm->lru, lru_link) {
			if (freed >= todo)
				return freed;
			if (!shrinkable(vma) ||
			    (dontneed_only && READ_ONCE(vma->obj->shmem.madv) <= 0))
				continue;
			/* An object already dying is unbound by its own free, under gpu->lock. */
			if (!kref_get_unless_zero(&vma->obj->shmem.base.refcount))
				continue;
			freed += vma->node.size >> PAGE_SHIFT;
			vma_detach(vma);
			llist_add(&vma->release_link, &gpu->released);
			atomic64_inc(&gpu->counters.shrinker_unbinds);
		}
	}
	return freed;
}

static unsigned long gtt_shrinker_scan(struct shrinker *shrinker, struct shrink_control *sc)
{
	struct garnet_gpu *gpu = container_of(shrinker, struct garnet_gpu, shrinker);
	unsigned long freed;

	if (!mutex_trylock(&gpu->lock))
		return SHRINK_STOP;
	freed = shrink_pass(gpu, sc->nr_to_scan, true);
	if (freed < sc->nr_to_scan)
		freed += shrink_pass(gpu, sc->nr_to_scan - freed, false);
	mutex_unlock(&gpu->lock);
	if (freed)
		queue_work(gpu->retire_wq, &gpu->released_work);
	return freed;
}

int garnet_gpu_init(struct garnet_device *gdev)
{
	struct garnet_gpu *gpu;
	int ret;

	gpu = kzalloc(sizeof(*gpu), GFP_KERNEL);
	if (!gpu)
		return -ENOMEM;
	gpu->gdev = gdev;
	mutex_init(&gpu->lock);
	spin_lock_init(&gpu->fence_lock);
	INIT_LIST_HEAD(&gpu->vms);
	init_llist_head(&gpu->released);
	INIT_WORK(&gpu->released_work, released_work);
	garnet_vm_init(&gpu->ggtt, garnet_gtt_aperture_size(), false);
	list_add(&gpu->ggtt.gpu_link, &gpu->vms);

	ret = -ENOMEM;
	gpu->engine_wq = alloc_ordered_workqueue("garnet-engine", 0);
	if (!gpu->engine_wq)
		goto err_free;
	gpu->retire_wq = alloc_workqueue("garnet-retire", WQ_UNBOUND, 0);
	if (!gpu->retire_wq)
		goto err_engine;
	ret = garnet_engine_init(gpu);
	if (ret)
		goto err_retire;

	gpu->shrinker.count_objects = gtt_shrinker_count;
	gpu->shrinker.scan_objects = gtt_shrinker_scan;
	gpu->shrinker.seeks = DEFAULT_SEEKS;
	ret = register_shrinker(&gpu->shrinker, "drm-garnet-gtt");
	if (ret)
		goto err_sched;
	gpu->shrinker_registered = true;
	gdev->gpu = gpu;
	return 0;

err_sched:
	garnet_engine_fini(gpu);
err_retire:
	destroy_workqueue(gpu->retire_wq);
err_engine:
	destroy_workqueue(gpu->engine_wq);
err_free:
	drm_mm_takedown(&gpu->ggtt.mm);
	kfree(gpu);
	return ret;
}

/* Every file is closed, so every request has been submitted; let them all finish. */
void garnet_gpu_fini(struct garnet_device *gdev)
{
	struct garnet_gpu *gpu = gdev->gpu;

	if (!gpu)
		return;
	if (gpu->shrinker_registered)
		unregister_shrinker(&gpu->shrinker);
	flush_work(&gpu->released_work);
	garnet_engine_fini(gpu);
	drain_workqueue(gpu->engine_wq);
	drain_workqueue(gpu->retire_wq);
	destroy_workqueue(gpu->engine_wq);
	destroy_workqueue(gpu->retire_wq);
	garnet_vm_fini(gpu, &gpu->ggtt);
	gdev->gpu = NULL;
	mutex_destroy(&gpu->lock);
	kfree(gpu);
}
