// SPDX-License-Identifier: MIT
// Where a cast's picture goes. A wl_shm buffer is written between libwayland's begin_access and
// end_access (a pool the backend truncated is its protocol error, never garnet's SIGBUS). A
// garnet.ko object is written through the mapping garnet keeps of it, after asking the kernel
// for the CPU write domain, which is what tells the object's other users (the consumer's
// dma-buf reads) that the CPU wrote it; an object the GPU still uses is left alone, since
// waiting for it would stall every client behind the backend's GPU work.
#include <xf86drm.h>
#include <i915_drm.h>
#include <wayland-server-protocol.h>

#include "../core/gem-buffer.h"
#include "portal-target.h"

static bool xrgb_or_argb(pixman_format_code_t format)
{
	return format == PIXMAN_x8r8g8b8 || format == PIXMAN_a8r8g8b8;
}

bool cast_target_get(struct wl_resource *buffer, int version, struct cast_target *t)
{
	struct wl_shm_buffer *shm = wl_shm_buffer_get(buffer);
	struct garnet_gem_buffer *gem;
	uint32_t format;

	*t = (struct cast_target){0};
	if (shm) {
		format = wl_shm_buffer_get_format(shm);
		if (format != WL_SHM_FORMAT_XRGB8888 && format != WL_SHM_FORMAT_ARGB8888)
			return false;
		t->shm = shm;
		t->width = wl_shm_buffer_get_width(shm);
		t->height = wl_shm_buffer_get_height(shm);
		t->stride = wl_shm_buffer_get_stride(shm);
		return true;
	}
	gem = garnet_gem_buffer_from_resource(buffer);
	if (!gem || version < CAST_TARGET_GEM_SINCE_VERSION || !gem->writable ||
	    !xrgb_or_argb(gem->format))
		return false;
	t->gem = gem;
	t->width = gem->width;
	t->height = gem->height;
	t->stride = gem->stride;
	return true;
}

static bool gpu_uses(struct garnet_gem_buffer *gem)
{
	struct drm_i915_gem_busy busy = {.handle = gem->handle};

	return drmIoctl(gem->drm_fd, DRM_IOCTL_I915_GEM_BUSY, &busy) < 0 || busy.busy != 0;
}

bool cast_target_begin(struct cast_target *t)
{
	struct drm_i915_gem_set_domain domain;

	if (t->shm) {
		wl_shm_buffer_begin_access(t->shm);
		t->pixels = wl_shm_buffer_get_data(t->shm);
		return true;
	}
	if (gpu_uses(t->gem))
		return false;
	domain = (struct drm_i915_gem_set_domain){.handle = t->gem->handle,
						  .read_domains = I915_GEM_DOMAIN_CPU,
						  .write_domain = I915_GEM_DOMAIN_CPU};
	if (drmIoctl(t->gem->drm_fd, DRM_IOCTL_I915_GEM_SET_DOMAIN, &domain) < 0)
		return false;
	t->pixels = t->gem->pixels;
	return true;
}

void cast_target_end(struct cast_target *t)
{
	if (t->shm)
		wl_shm_buffer_end_access(t->shm);
	t->pixels = NULL;
}
