// SPDX-License-Identifier: GPL-2.0-only
/*
 * GETPARAM: what the virtual GPU is and can do, as libdrm_intel and i915 tools ask it.
 * Every answer is derived from what this module actually implements.
 */
#include <linux/uaccess.h>

#include <drm/drm_drv.h>
#include <drm/drm_ioctl.h>
#include <uapi/drm/i915_drm.h>

#include "garnet_drv.h"
#include "garnet_gem.h"

/* An Intel G33 (gen3) id: old enough that libdrm_intel drives it with the 2008 GEM ioctls. */
#define GARNET_CHIPSET_ID	0x29c2

/* True once the driver registers a handler for this i915 ioctl number. */
static bool has_ioctl(struct drm_device *drm, unsigned int nr)
{
	const struct drm_driver *drv = drm->driver;

	return nr < drv->num_ioctls && drv->ioctls[nr].func;
}

int garnet_getparam_ioctl(struct drm_device *drm, void *data, struct drm_file *file)
{
	struct drm_i915_getparam *args = data;
	int value;

	switch (args->param) {
	case I915_PARAM_CHIPSET_ID:
		value = GARNET_CHIPSET_ID;
		break;
	case I915_PARAM_REVISION:
		value = 0;
		break;
	case I915_PARAM_HAS_GEM:
		value = 1;
		break;
	case I915_PARAM_HAS_EXECBUF2:
		value = has_ioctl(drm, DRM_I915_GEM_EXECBUFFER2);
		break;
	case I915_PARAM_HAS_EXEC_NO_RELOC:
	case I915_PARAM_HAS_EXEC_HANDLE_LUT:
	case I915_PARAM_HAS_EXEC_BATCH_FIRST:
		/* Execbuffer flags garnet_exec.c accepts, with it. */
		value = has_ioctl(drm, DRM_I915_GEM_EXECBUFFER2);
		break;
	case I915_PARAM_HAS_WAIT_TIMEOUT:
		if (!has_ioctl(drm, DRM_I915_GEM_WAIT))
			return -EINVAL;
		value = 1;
		break;
	case I915_PARAM_NUM_FENCES_AVAIL:
		/* No fence registers: objects are linear, tiling is refused. */
		value = 0;
		break;
	case I915_PARAM_HAS_LLC:
		/*
		 * The engine is the CPU: it reads and writes through the same caches as every
		 * mapping, so nothing is ever clflushed and userspace need not either.
		 */
		value = 1;
		break;
	case I915_PARAM_MMAP_VERSION:
		/* GEM_MMAP without the write-combining flag (version 0). */
		value = 0;
		break;
	case I915_PARAM_HAS_BSD:
	case I915_PARAM_HAS_BSD2:
	case I915_PARAM_HAS_BLT:
	case I915_PARAM_HAS_RELAXED_FENCING:
	case I915_PARAM_HAS_EXEC_ASYNC:
		/*
		 * libdrm_intel takes a successful query of these as "present" whatever the
		 * value, so a feature garnet lacks is a parameter this kernel does not know.
		 */
		return -EINVAL;
	case I915_PARAM_HAS_VEBOX:
	case I915_PARAM_HAS_RELAXED_DELTA:
	case I915_PARAM_HAS_ALIASING_PPGTT:
	case I915_PARAM_HAS_EXEC_SOFTPIN:
	case I915_PARAM_HAS_EXEC_FENCE:
	case I915_PARAM_HAS_PAGEFLIPPING:
	case I915_PARAM_HAS_OVERLAY:
	case I915_PARAM_HAS_SEMAPHORES:
	case I915_PARAM_HAS_SECURE_BATCHES:
	case I915_PARAM_HAS_PINNED_BATCHES:
	case I915_PARAM_HAS_WT:
	case I915_PARAM_HAS_GPU_RESET:
	case I915_PARAM_HAS_USERPTR_PROBE:
		/* Features garnet does not have (yet): i915 answers such questions with 0. */
		value = 0;
		break;
	default:
		return -EINVAL;
	}

	if (copy_to_user(args->value, &value, sizeof(value)))
		return -EFAULT;
	return 0;
}
