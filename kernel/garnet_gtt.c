// SPDX-License-Identifier: GPL-2.0-only
/*
 * The aperture and the 2008 design's privileged pinning. Modern i915 stubs GEM_INIT, PIN and
 * UNPIN out; garnet implements them: GEM_INIT (master and root) sets the managed range, PIN
 * (root) gives an object a fixed range and keeps its pages resident until UNPIN, or until the
 * pinning file closes its handle, so that no pin outlives its owner.
 */
#include <linux/module.h>

#include <drm/drm_file.h>
#include <drm/drm_gem.h>
#include <uapi/drm/i915_drm.h>

#include "garnet_drv.h"
#include "garnet_gem.h"
#include "garnet_gtt.h"

static unsigned int aperture_mb = 256;
module_param(aperture_mb, uint, 0444);
MODULE_PARM_DESC(aperture_mb, "GTT aperture size at load, in MiB (default 256)");

/* A gen3 GTT addresses 32 bits; GEM_INIT cannot manage more. */
#define GARNET_GTT_LIMIT	(1ull << 32)

int garnet_gtt_init(struct garnet_device *gdev)
{
	struct garnet_gtt *gtt = &gdev->gtt;
	u64 size = (u64)aperture_mb << 20;

	if (!size || size > GARNET_GTT_LIMIT || !PAGE_ALIGNED(size))
		return -EINVAL;
	mutex_init(&gtt->lock);
	gtt->start = 0;
	gtt->end = size;
	drm_mm_init(&gtt->mm, gtt->start, size);
	return 0;
}

void garnet_gtt_fini(struct garnet_device *gdev)
{
	drm_mm_takedown(&gdev->gtt.mm);
	mutex_destroy(&gdev->gtt.lock);
}

/* Caller holds gtt->lock; the object is pinned by nobody afterwards. */
static void release_pins(struct garnet_gtt *gtt, struct garnet_object *gobj)
{
	if (!gobj->pin_count)
		return;
	gobj->pin_count = 0;
	gobj->pin_file = NULL;
	gtt->pinned_bytes -= gobj->shmem.base.size;
	drm_mm_remove_node(&gobj->gtt_node);
	drm_gem_shmem_unpin(&gobj->shmem);
}

void garnet_gtt_handle_closed(struct garnet_object *gobj, struct drm_file *file)
{
	struct garnet_gtt *gtt = &to_garnet_device(gobj->shmem.base.dev)->gtt;

	mutex_lock(&gtt->lock);
	if (gobj->pin_file == file)
		release_pins(gtt, gobj);
	mutex_unlock(&gtt->lock);
}

void garnet_gtt_object_free(struct garnet_object *gobj)
{
	struct garnet_gtt *gtt = &to_garnet_device(gobj->shmem.base.dev)->gtt;

	/* Pins live only as long as a handle, so a dying object holds none. */
	mutex_lock(&gtt->lock);
	if (!WARN_ON(gobj->pin_count) && drm_mm_node_allocated(&gobj->gtt_node))
		drm_mm_remove_node(&gobj->gtt_node);
	mutex_unlock(&gtt->lock);
}

int garnet_gem_init_ioctl(struct drm_device *drm, void *data, struct drm_file *file)
{
	struct drm_i915_gem_init *args = data;
	struct garnet_gtt *gtt = &to_garnet_device(drm)->gtt;
	int ret = 0;

	if (args->gtt_start >= args->gtt_end || args->gtt_end > GARNET_GTT_LIMIT ||
	    !PAGE_ALIGNED(args->gtt_start) || !PAGE_ALIGNED(args->gtt_end))
		return -EINVAL;

	mutex_lock(&gtt->lock);
	/* Moving the range under pinned objects would break the offsets they were given. */
	if (!drm_mm_clean(&gtt->mm)) {
		ret = -EBUSY;
	} else {
		drm_mm_takedown(&gtt->mm);
		gtt->start = args->gtt_start;
		gtt->end = args->gtt_end;
		drm_mm_init(&gtt->mm, gtt->start, gtt->end - gtt->start);
	}
	mutex_unlock(&gtt->lock);
	return ret;
}

int garnet_gem_pin_ioctl(struct drm_device *drm, void *data, struct drm_file *file)
{
	struct drm_i915_gem_pin *args = data;
	struct garnet_gtt *gtt = &to_garnet_device(drm)->gtt;
	struct garnet_object *gobj;
	int ret = 0;

	if (args->pad)
		return -EINVAL;
	if (args->alignment & (args->alignment - 1) || args->alignment > GARNET_GTT_LIMIT)
		return -EINVAL;

	gobj = garnet_gem_lookup(file, args->handle);
	if (!gobj)
		return -ENOENT;
	/* Another driver's pages cannot be made resident from here. */
	if (gobj->shmem.base.import_attach) {
		ret = -EINVAL;
		goto out;
	}

	mutex_lock(&gtt->lock);
	if (gobj->pin_count && gobj->pin_file != file) {
		ret = -EINVAL;	/* pinned by another file */
		goto unlock;
	}
	if (gobj->pin_count == UINT_MAX) {
		ret = -EBUSY;
		goto unlock;
	}
	if (!gobj->pin_count) {
		ret = drm_gem_shmem_pin(&gobj->shmem);
		if (ret)
			goto unlock;
		ret = drm_mm_insert_node_in_range(&gtt->mm, &gobj->gtt_node,
						  gobj->shmem.base.size, args->alignment, 0,
						  gtt->start, gtt->end, DRM_MM_INSERT_BEST);
		if (ret) {
			drm_gem_shmem_unpin(&gobj->shmem);
			goto unlock;
		}
		gobj->pin_file = file;
		gtt->pinned_bytes += gobj->shmem.base.size;
	} else if (args->alignment && !IS_ALIGNED(gobj->gtt_node.start, args->alignment)) {
		/* A pinned object cannot move to meet a new alignment. */
		ret = -EINVAL;
		goto unlock;
	}
	gobj->pin_count++;
	args->offset = gobj->gtt_node.start;
unlock:
	mutex_unlock(&gtt->lock);
out:
	drm_gem_object_put(&gobj->shmem.base);
	return ret;
}

int garnet_gem_unpin_ioctl(struct drm_device *drm, void *data, struct drm_file *file)
{
	struct drm_i915_gem_unpin *args = data;
	struct garnet_gtt *gtt = &to_garnet_device(drm)->gtt;
	struct garnet_object *gobj;
	int ret = 0;

	if (args->pad)
		return -EINVAL;
	gobj = garnet_gem_lookup(file, args->handle);
	if (!gobj)
		return -ENOENT;

	mutex_lock(&gtt->lock);
	if (!gobj->pin_count || gobj->pin_file != file)
		ret = -EINVAL;
	else if (gobj->pin_count == 1)
		release_pins(gtt, gobj);
	else
		gobj->pin_count--;
	mutex_unlock(&gtt->lock);

	drm_gem_object_put(&gobj->shmem.base);
	return ret;
}

int garnet_gem_get_aperture_ioctl(struct drm_device *drm, void *data, struct drm_file *file)
{
	struct drm_i915_gem_get_aperture *args = data;
	struct garnet_gtt *gtt = &to_garnet_device(drm)->gtt;

	mutex_lock(&gtt->lock);
	args->aper_size = gtt->end - gtt->start;
	args->aper_available_size = args->aper_size - gtt->pinned_bytes;
	mutex_unlock(&gtt->lock);
	return 0;
}
