// SPDX-License-Identifier: GPL-2.0-only
/*
 * The aperture and the 2008 design's privileged pinning. Modern i915 stubs GEM_INIT, PIN and
 * UNPIN out; garnet implements them on the global GTT of garnet_vm.c: GEM_INIT (master and
 * root) sets the range placement may use, PIN (root) binds an object and keeps it at its
 * address, with its pages resident, until UNPIN or until the pinning file closes its handle,
 * so that no pin outlives its owner. Execbuffers of the same object find it where it is.
 * PIN checks the handle again under the GPU lock, which the close callback takes too.
 */
#include <linux/module.h>

#include <drm/drm_file.h>
#include <drm/drm_gem.h>
#include <uapi/drm/i915_drm.h>

#include "garnet_drv.h"
#include "garnet_exec.h"
#include "garnet_gem.h"
#include "garnet_gtt.h"

static unsigned int aperture_mb = 256;
module_param(aperture_mb, uint, 0444);
MODULE_PARM_DESC(aperture_mb, "GTT aperture size at load, in MiB (default 256)");

u64 garnet_gtt_aperture_size(void)
{
	return (u64)aperture_mb << 20;
}

int garnet_gtt_init(struct garnet_device *gdev)
{
	u64 size = garnet_gtt_aperture_size();

	if (!size || size > GARNET_VM_LIMIT)
		return -EINVAL;
	gdev->gtt.pinned_bytes = 0;
	return 0;
}

void garnet_gtt_fini(struct garnet_device *gdev)
{
	WARN_ON(gdev->gtt.pinned_bytes);
}

/*
 * Caller holds the GPU lock. True while the file's handle still names the object: a GEM_CLOSE
 * removes the handle before its close callback takes the GPU lock to release the file's pins,
 * so a pin made under the lock after this check is always released by that callback, and one
 * made after the handle is gone would outlive it (and be freed pinned).
 */
static bool handle_names(struct drm_file *file, u32 handle, struct garnet_object *gobj)
{
	struct drm_gem_object *obj = drm_gem_object_lookup(file, handle);

	if (!obj)
		return false;
	/* The caller's own reference keeps the object, so this put never frees it. */
	drm_gem_object_put(obj);
	return obj == &gobj->shmem.base;
}

/* Caller holds the GPU lock; the object is pinned by nobody afterwards. */
static void release_pins(struct garnet_device *gdev, struct garnet_object *gobj)
{
	struct garnet_vma *vma;

	if (!gobj->pin_count)
		return;
	vma = garnet_vm_find(&gdev->gpu->ggtt, gobj);
	if (!WARN_ON(!vma))
		garnet_vma_unpin(vma);
	WRITE_ONCE(gobj->pin_count, 0);
	gobj->pin_file = NULL;
	WRITE_ONCE(gdev->gtt.pinned_bytes, gdev->gtt.pinned_bytes - gobj->shmem.base.size);
}

void garnet_gtt_handle_closed(struct garnet_object *gobj, struct drm_file *file)
{
	struct garnet_device *gdev = to_garnet_device(gobj->shmem.base.dev);

	mutex_lock(&gdev->gpu->lock);
	if (gobj->pin_file == file)
		release_pins(gdev, gobj);
	mutex_unlock(&gdev->gpu->lock);
}

void garnet_gtt_object_free(struct garnet_object *gobj)
{
	/* Pins live only as long as a handle, so a dying object holds none. */
	WARN_ON(gobj->pin_count);
	garnet_vm_object_free(gobj);
}

/*
 * Moving the range under pinned objects would break the offsets they were given: -EBUSY.
 * Bindings outside the new range are evicted; for a busy one the lock is dropped, the engine
 * waited for (interruptibly) and the eviction started over.
 */
int garnet_gem_init_ioctl(struct drm_device *drm, void *data, struct drm_file *file)
{
	struct drm_i915_gem_init *args = data;
	struct garnet_device *gdev = to_garnet_device(drm);
	struct garnet_gpu *gpu = gdev->gpu;
	struct garnet_vm *vm = &gpu->ggtt;
	struct garnet_vma *vma, *next;
	struct dma_fence *busy = NULL;
	int ret = 0;

	if (args->gtt_start >= args->gtt_end || args->gtt_end > GARNET_VM_LIMIT ||
	    !PAGE_ALIGNED(args->gtt_start) || !PAGE_ALIGNED(args->gtt_end))
		return -EINVAL;

retry:
	ret = garnet_wait_busy(&busy);
	if (ret)
		return ret;
	ret = mutex_lock_interruptible(&gpu->lock);
	if (ret)
		return ret;
	if (gdev->gtt.pinned_bytes) {
		ret = -EBUSY;
		goto out;
	}
	list_for_each_entry_safe(vma, next, &vm->lru, lru_link) {
		if (vma->node.start >= args->gtt_start &&
		    vma->node.start + vma->node.size <= args->gtt_end)
			continue;
		if (garnet_vma_busy(vma, &busy)) {
			mutex_unlock(&gpu->lock);
			goto retry;
		}
		garnet_vma_unbind(vma);
		atomic64_inc(&gpu->counters.evictions);
	}
	vm->start = args->gtt_start;
	vm->end = args->gtt_end;
out:
	mutex_unlock(&gpu->lock);
	return ret;
}

int garnet_gem_pin_ioctl(struct drm_device *drm, void *data, struct drm_file *file)
{
	struct drm_i915_gem_pin *args = data;
	struct garnet_device *gdev = to_garnet_device(drm);
	struct garnet_gpu *gpu = gdev->gpu;
	struct garnet_object *gobj;
	struct dma_fence *busy = NULL;
	struct garnet_vma *vma;
	int ret = 0;

	if (args->pad)
		return -EINVAL;
	if (args->alignment & (args->alignment - 1) || args->alignment > GARNET_VM_LIMIT)
		return -EINVAL;

	gobj = garnet_gem_lookup(file, args->handle);
	if (!gobj)
		return -ENOENT;
	/* Another driver's pages cannot be made resident from here. */
	if (gobj->shmem.base.import_attach) {
		ret = -EINVAL;
		goto out;
	}

retry:
	ret = garnet_wait_busy(&busy);
	if (ret)
		goto out;
	mutex_lock(&gpu->lock);
	if (!handle_names(file, args->handle, gobj)) {
		ret = -ENOENT;
		goto unlock;
	}
	if (gobj->pin_count && gobj->pin_file != file) {
		ret = -EINVAL;	/* pinned by another file */
		goto unlock;
	}
	if (gobj->pin_count == UINT_MAX) {
		ret = -EBUSY;
		goto unlock;
	}
	if (!gobj->pin_count) {
		/* Binding maps (and so pins) the pages; the binding's pin keeps it in place. */
		vma = garnet_vma_bind(gpu, &gpu->ggtt, gobj, args->alignment, &busy);
		if (IS_ERR(vma)) {
			ret = PTR_ERR(vma);
			if (ret == -EAGAIN && busy) {
				mutex_unlock(&gpu->lock);
				goto retry;
			}
			goto unlock;
		}
		gobj->pin_file = file;
		WRITE_ONCE(gdev->gtt.pinned_bytes,
			   gdev->gtt.pinned_bytes + gobj->shmem.base.size);
	} else {
		vma = garnet_vm_find(&gpu->ggtt, gobj);
		/* A pinned object cannot move to meet a new alignment. */
		if (args->alignment && !IS_ALIGNED(vma->node.start, args->alignment)) {
			ret = -EINVAL;
			goto unlock;
		}
	}
	WRITE_ONCE(gobj->pin_count, gobj->pin_count + 1);
	args->offset = vma->node.start;
unlock:
	mutex_unlock(&gpu->lock);
out:
	drm_gem_object_put(&gobj->shmem.base);
	return ret;
}

int garnet_gem_unpin_ioctl(struct drm_device *drm, void *data, struct drm_file *file)
{
	struct drm_i915_gem_unpin *args = data;
	struct garnet_device *gdev = to_garnet_device(drm);
	struct garnet_object *gobj;
	int ret = 0;

	if (args->pad)
		return -EINVAL;
	gobj = garnet_gem_lookup(file, args->handle);
	if (!gobj)
		return -ENOENT;

	mutex_lock(&gdev->gpu->lock);
	if (!gobj->pin_count || gobj->pin_file != file)
		ret = -EINVAL;
	else if (gobj->pin_count == 1)
		release_pins(gdev, gobj);
	else
		WRITE_ONCE(gobj->pin_count, gobj->pin_count - 1);
	mutex_unlock(&gdev->gpu->lock);

	drm_gem_object_put(&gobj->shmem.base);
	return ret;
}

int garnet_gem_get_aperture_ioctl(struct drm_device *drm, void *data, struct drm_file *file)
{
	struct drm_i915_gem_get_aperture *args = data;
	struct garnet_device *gdev = to_garnet_device(drm);
	struct garnet_gpu *gpu = gdev->gpu;

	mutex_lock(&gpu->lock);
	args->aper_size = gpu->ggtt.end - gpu->ggtt.start;
	args->aper_available_size = args->aper_size - gdev->gtt.pinned_bytes;
	mutex_unlock(&gpu->lock);
	return 0;
}
