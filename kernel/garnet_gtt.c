// SPDX-License-Identifier: GPL-2.0-only
/*
 * The GTT: address spaces managed with drm_mm. Binding an object maps its pages into the
 * kernel (the engine reaches memory only through bindings) and gives it a range of addresses.
 * When a space is full, idle unpinned bindings are evicted, least recently used first; when
 * only busy ones are left, eviction waits for the engine to finish with the oldest of them.
 *
 * Legacy GEM_INIT narrows the range of the global GTT that placement may use; PIN and UNPIN
 * keep an object at one address (privileged: pins are a global resource).
 */
#include <linux/dma-resv.h>
#include <linux/iosys-map.h>
#include <linux/random.h>
#include <linux/slab.h>

#include <drm/drm_auth.h>
#include <drm/drm_file.h>
#include <drm/drm_gem.h>
#include <uapi/drm/i915_drm.h>

#include "garnet_drv.h"
#include "garnet_exec.h"
#include "garnet_gem.h"

void garnet_vm_init(struct garnet_vm *vm, u64 size, bool randomise)
{
	drm_mm_init(&vm->mm, 0, size);
	vm->start = 0;
	vm->end = size;
	vm->size = size;
	vm->randomise = randomise;
	INIT_LIST_HEAD(&vm->lru);
	INIT_LIST_HEAD(&vm->gpu_link);
	hash_init(vm->vmas);
}

static bool vma_idle(const struct garnet_vma *vma)
{
	return !vma->last_fence || dma_fence_is_signaled(vma->last_fence);
}

/* Caller holds gpu->lock; the binding is idle and unpinned (or the object is going away). */
static void vma_unbind(struct garnet_vma *vma)
{
	struct iosys_map map = IOSYS_MAP_INIT_VADDR(vma->vaddr);

	drm_mm_remove_node(&vma->node);
	hash_del(&vma->hash_link);
	list_del(&vma->lru_link);
	drm_gem_shmem_vunmap(&vma->obj->shmem, &map);
	dma_fence_put(vma->last_fence);
	kfree(vma);
}

void garnet_vm_fini(struct garnet_gpu *gpu, struct garnet_vm *vm)
{
	struct garnet_vma *vma, *next;

	mutex_lock(&gpu->lock);
	list_for_each_entry_safe(vma, next, &vm->lru, lru_link) {
		WARN_ON(!vma_idle(vma));
		vma_unbind(vma);
	}
	list_del_init(&vm->gpu_link);
	drm_mm_takedown(&vm->mm);
	mutex_unlock(&gpu->lock);
}

static struct garnet_vma *vm_find_binding(struct garnet_vm *vm, struct garnet_object *obj)
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
 * Frees room for one more binding: the least recently used idle binding goes; failing that,
 * waits (with gpu->lock held, which the engine never needs) for the least recently used busy
 * one. Returns -ENOSPC when everything left is pinned.
 */
static int vm_evict_one(struct garnet_gpu *gpu, struct garnet_vm *vm)
{
	struct garnet_vma *vma, *busy = NULL;
	long ret;

	list_for_each_entry(vma, &vm->lru, lru_link) {
		if (vma->pin_count)
			continue;
		if (vma_idle(vma)) {
			vma_unbind(vma);
			atomic64_inc(&gpu->counters.evictions);
			return 0;
		}
		if (!busy)
			busy = vma;
	}
	if (!busy)
		return -ENOSPC;

	atomic64_inc(&gpu->counters.eviction_waits);
	ret = dma_fence_wait(busy->last_fence, true);
	if (ret)
		return ret;
	vma_unbind(busy);
	atomic64_inc(&gpu->counters.evictions);
	return 0;
}

/* Evicts every unpinned binding of vm, waiting for busy ones. Caller holds gpu->lock. */
int garnet_vm_evict_all(struct garnet_gpu *gpu, struct garnet_vm *vm)
{
	int ret;

	do {
		ret = vm_evict_one(gpu, vm);
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
 * -EFAULT for an object whose contents the user gave up (MADVISE DONTNEED or purged), as i915.
 */
struct garnet_vma *garnet_vma_bind(struct garnet_gpu *gpu, struct garnet_vm *vm,
				   struct garnet_object *obj, u64 alignment)
{
	u64 size = obj->shmem.base.size;
	struct iosys_map map;
	struct garnet_vma *vma;
	int ret;

	lockdep_assert_held(&gpu->lock);
	if (READ_ONCE(obj->shmem.madv) != I915_MADV_WILLNEED)
		return ERR_PTR(-EFAULT);
	vma = vm_find_binding(vm, obj);
	if (vma && vma_misplaced(vma, alignment)) {
		if (vma->pin_count)
			return ERR_PTR(-EBUSY);
		if (!vma_idle(vma) && dma_fence_wait(vma->last_fence, true))
			return ERR_PTR(-ERESTARTSYS);
		vma_unbind(vma);
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
		ret = vm_evict_one(gpu, vm);
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
void garnet_gtt_object_free(struct garnet_object *gobj)
{
	struct garnet_gpu *gpu = to_garnet_device(gobj->shmem.base.dev)->gpu;
	struct garnet_vm *vm;
	struct garnet_vma *vma;

	if (!gpu)
		return;
	mutex_lock(&gpu->lock);
	list_for_each_entry(vm, &gpu->vms, gpu_link) {
		vma = vm_find_binding(vm, gobj);
		if (vma) {
			WARN_ON(vma->pin_count || !vma_idle(vma));
			vma_unbind(vma);
		}
	}
	mutex_unlock(&gpu->lock);
}

/*
 * Legacy GEM_INIT (master only): the range of the GTT that placement may use. Bindings outside
 * the new range are evicted; a pinned one there makes it -EBUSY.
 */
int garnet_gem_init_ioctl(struct drm_device *drm, void *data, struct drm_file *file)
{
	struct drm_i915_gem_init *args = data;
	struct garnet_gpu *gpu = to_garnet_device(drm)->gpu;
	struct garnet_vm *vm = &gpu->ggtt;
	struct garnet_vma *vma, *next;
	int ret = 0;

	if (args->gtt_start >= args->gtt_end || args->gtt_end > vm->size ||
	    !PAGE_ALIGNED(args->gtt_start) || !PAGE_ALIGNED(args->gtt_end))
		return -EINVAL;

	mutex_lock(&gpu->lock);
	list_for_each_entry_safe(vma, next, &vm->lru, lru_link) {
		if (vma->node.start >= args->gtt_start &&
		    vma->node.start + vma->node.size <= args->gtt_end)
			continue;
		if (vma->pin_count) {
			ret = -EBUSY;
			break;
		}
		if (!vma_idle(vma)) {
			ret = dma_fence_wait(vma->last_fence, true);
			if (ret)
				break;
		}
		vma_unbind(vma);
		atomic64_inc(&gpu->counters.evictions);
	}
	if (!ret) {
		vm->start = args->gtt_start;
		vm->end = args->gtt_end;
	}
	mutex_unlock(&gpu->lock);
	return ret;
}

static struct garnet_pin *find_pin(struct garnet_client *client, struct garnet_object *obj)
{
	struct garnet_pin *pin;

	list_for_each_entry(pin, &client->pins, link)
		if (pin->obj == obj)
			return pin;
	return NULL;
}

/*
 * PIN keeps the object bound in the global GTT at one address until UNPIN (or the file
 * closes). Only the file that pinned an object may unpin it.
 */
int garnet_gem_pin_ioctl(struct drm_device *drm, void *data, struct drm_file *file)
{
	struct drm_i915_gem_pin *args = data;
	struct garnet_device *gdev = to_garnet_device(drm);
	struct garnet_client *client = to_garnet_file(file)->client;
	struct garnet_gpu *gpu = gdev->gpu;
	struct garnet_object *gobj;
	struct garnet_vma *vma;
	struct garnet_pin *pin;
	int ret = 0;

	if (args->pad)
		return -EINVAL;
	if (args->alignment && (!is_power_of_2(args->alignment) ||
				args->alignment > gpu->ggtt.size))
		return -EINVAL;
	gobj = garnet_gem_lookup(file, args->handle);
	if (!gobj)
		return -ENOENT;

	mutex_lock(&gpu->lock);
	pin = find_pin(client, gobj);
	if (pin && args->alignment && !IS_ALIGNED(pin->vma->node.start, args->alignment)) {
		ret = -EINVAL;
		goto out;
	}
	if (pin) {
		pin->count++;
		args->offset = pin->vma->node.start;
		goto out;
	}

	pin = kzalloc(sizeof(*pin), GFP_KERNEL);
	if (!pin) {
		ret = -ENOMEM;
		goto out;
	}
	vma = garnet_vma_bind(gpu, &gpu->ggtt, gobj, args->alignment);
	if (IS_ERR(vma)) {
		kfree(pin);
		ret = PTR_ERR(vma);
		goto out;
	}
	/* The pin's reference: dropped by UNPIN, or at close (outside the lock). */
	drm_gem_object_get(&gobj->shmem.base);
	pin->obj = gobj;
	pin->vma = vma;
	pin->count = 1;
	list_add(&pin->link, &client->pins);
	gobj->pin_count++;
	atomic64_add(gobj->shmem.base.size, &gdev->pinned_bytes);
	args->offset = vma->node.start;
out:
	mutex_unlock(&gpu->lock);
	drm_gem_object_put(&gobj->shmem.base);
	return ret;
}

/* Caller holds gpu->lock; returns the object whose pin reference must be dropped, or NULL. */
static struct garnet_object *pin_release(struct garnet_pin *pin)
{
	struct garnet_device *gdev = to_garnet_device(pin->obj->shmem.base.dev);
	struct garnet_object *gobj = pin->obj;

	if (--pin->count)
		return NULL;
	garnet_vma_unpin(pin->vma);
	gobj->pin_count--;
	atomic64_sub(gobj->shmem.base.size, &gdev->pinned_bytes);
	list_del(&pin->link);
	kfree(pin);
	return gobj;
}

int garnet_gem_unpin_ioctl(struct drm_device *drm, void *data, struct drm_file *file)
{
	struct drm_i915_gem_unpin *args = data;
	struct garnet_client *client = to_garnet_file(file)->client;
	struct garnet_gpu *gpu = to_garnet_device(drm)->gpu;
	struct garnet_object *gobj, *unpinned = NULL;
	struct garnet_pin *pin;
	int ret = 0;

	if (args->pad)
		return -EINVAL;
	gobj = garnet_gem_lookup(file, args->handle);
	if (!gobj)
		return -ENOENT;

	mutex_lock(&gpu->lock);
	pin = find_pin(client, gobj);
	if (pin)
		unpinned = pin_release(pin);
	else
		ret = -EINVAL;
	mutex_unlock(&gpu->lock);

	if (unpinned)
		drm_gem_object_put(&unpinned->shmem.base);
	drm_gem_object_put(&gobj->shmem.base);
	return ret;
}

void garnet_client_unpin_all(struct garnet_client *client)
{
	struct garnet_gpu *gpu = client->gpu;
	struct garnet_pin *pin;
	struct garnet_object *gobj;

	for (;;) {
		mutex_lock(&gpu->lock);
		pin = list_first_entry_or_null(&client->pins, struct garnet_pin, link);
		gobj = NULL;
		if (pin) {
			pin->count = 1;
			gobj = pin_release(pin);
		}
		mutex_unlock(&gpu->lock);
		if (!gobj)
			break;
		drm_gem_object_put(&gobj->shmem.base);
	}
}

/*
 * Under memory pressure, idle unpinned bindings of objects the user marked DONTNEED are
 * dropped, so that the object shrinker may purge their pages. Busy bindings are left alone:
 * in-flight requests keep their memory.
 */
static bool shrinkable(struct garnet_vma *vma)
{
	return !vma->pin_count && vma_idle(vma) && READ_ONCE(vma->obj->shmem.madv) > 0;
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

static unsigned long gtt_shrinker_scan(struct shrinker *shrinker, struct shrink_control *sc)
{
	struct garnet_gpu *gpu = container_of(shrinker, struct garnet_gpu, shrinker);
	struct garnet_vma *vma, *next;
	struct garnet_vm *vm;
	unsigned long freed = 0;

	if (!mutex_trylock(&gpu->lock))
		return SHRINK_STOP;
	list_for_each_entry(vm, &gpu->vms, gpu_link) {
		list_for_each_entry_safe(vma, next, &vm->lru, lru_link) {
			if (freed >= sc->nr_to_scan)
				break;
			if (!shrinkable(vma))
				continue;
			freed += vma->node.size >> PAGE_SHIFT;
			vma_unbind(vma);
			atomic64_inc(&gpu->counters.shrinker_unbinds);
		}
	}
	mutex_unlock(&gpu->lock);
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
	/* Gen3 addresses are 32 bits wide. */
	garnet_vm_init(&gpu->ggtt, min_t(u64, garnet_aperture_size(), SZ_4G), false);
	list_add(&gpu->ggtt.gpu_link, &gpu->vms);
	gpu->fence_context = dma_fence_context_alloc(1);

	ret = -ENOMEM;
	gpu->engine_wq = alloc_ordered_workqueue("garnet-engine", 0);
	if (!gpu->engine_wq)
		goto err_free;
	gpu->retire_wq = alloc_workqueue("garnet-retire", WQ_UNBOUND, 0);
	if (!gpu->retire_wq)
		goto err_engine;

	gpu->shrinker.count_objects = gtt_shrinker_count;
	gpu->shrinker.scan_objects = gtt_shrinker_scan;
	gpu->shrinker.seeks = DEFAULT_SEEKS;
	ret = register_shrinker(&gpu->shrinker, "drm-garnet-gtt");
	if (ret)
		goto err_retire;
	gpu->shrinker_registered = true;
	gdev->gpu = gpu;
	return 0;

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
	drain_workqueue(gpu->engine_wq);
	drain_workqueue(gpu->retire_wq);
	destroy_workqueue(gpu->engine_wq);
	destroy_workqueue(gpu->retire_wq);
	garnet_vm_fini(gpu, &gpu->ggtt);
	gdev->gpu = NULL;
	mutex_destroy(&gpu->lock);
	kfree(gpu);
}
