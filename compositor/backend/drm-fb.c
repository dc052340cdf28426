// SPDX-License-Identifier: MIT
// Dumb buffers: memory the kernel can scan out and the pixman renderer can paint, one per
// frame in flight.
#include <errno.h>
#include <string.h>
#include <sys/mman.h>
#include <xf86drm.h>

#include "drm.h"

bool drm_fb_init(struct drm_fb *fb, int fd, uint32_t width, uint32_t height, bool alpha)
{
	struct drm_mode_create_dumb create = {.width = width, .height = height, .bpp = 32};
	struct drm_mode_map_dumb map = {0};
	struct drm_mode_destroy_dumb destroy = {0};

	memset(fb, 0, sizeof(*fb));
	if (drmIoctl(fd, DRM_IOCTL_MODE_CREATE_DUMB, &create) < 0)
		return false;
	fb->handle = create.handle;
	fb->stride = create.pitch;
	fb->size = create.size;
	/* depth 24 is XRGB8888, depth 32 ARGB8888 (what cursor planes take) */
	if (drmModeAddFB(fd, width, height, alpha ? 32 : 24, 32, fb->stride, fb->handle,
			 &fb->fb_id) < 0)
		goto err_dumb;
	map.handle = fb->handle;
	if (drmIoctl(fd, DRM_IOCTL_MODE_MAP_DUMB, &map) < 0)
		goto err_fb;
	fb->map = mmap(NULL, fb->size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, (off_t)map.offset);
	if (fb->map == MAP_FAILED) {
		fb->map = NULL;
		goto err_fb;
	}
	memset(fb->map, 0, fb->size);
	fb->image = pixman_image_create_bits(alpha ? PIXMAN_a8r8g8b8 : PIXMAN_x8r8g8b8,
					     (int)width, (int)height, fb->map, (int)fb->stride);
	if (!fb->image)
		goto err_map;
	return true;

err_map:
	munmap(fb->map, fb->size);
err_fb:
	drmModeRmFB(fd, fb->fb_id);
err_dumb:
	destroy.handle = fb->handle;
	drmIoctl(fd, DRM_IOCTL_MODE_DESTROY_DUMB, &destroy);
	memset(fb, 0, sizeof(*fb));
	return false;
}

void drm_fb_finish(struct drm_fb *fb, int fd)
{
	struct drm_mode_destroy_dumb destroy = {.handle = fb->handle};

	if (!fb->handle)
		return;
	if (fb->image)
		pixman_image_unref(fb->image);
	if (fb->map)
		munmap(fb->map, fb->size);
	if (fb->fb_id)
		drmModeRmFB(fd, fb->fb_id);
	drmIoctl(fd, DRM_IOCTL_MODE_DESTROY_DUMB, &destroy);
	memset(fb, 0, sizeof(*fb));
}
