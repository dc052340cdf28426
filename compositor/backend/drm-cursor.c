// SPDX-License-Identifier: MIT
// The cursor plane: the pointer image scanned out on a plane of its own, so the display, not a
// repaint of the frame, puts it where the pointer is. Atomic devices only; elsewhere (and for
// images the plane cannot take) the renderer draws the cursor into the frame.
#include <xf86drm.h>

#include "../core/output.h"
#include "drm.h"

void drm_cursor_init(struct drm_output *output)
{
	struct drm_backend *b = output->backend;
	struct drm_cursor *cursor = &output->cursor;
	uint64_t width = 64, height = 64;
	uint32_t plane;

	if (!b->atomic)
		return;
	plane = drm_kms_find_plane(b->fd, output->crtc_index, DRM_PLANE_TYPE_CURSOR);
	if (!plane || !drm_kms_plane_props(b->fd, plane, &cursor->props))
		return;
	drmGetCap(b->fd, DRM_CAP_CURSOR_WIDTH, &width);
	drmGetCap(b->fd, DRM_CAP_CURSOR_HEIGHT, &height);
	cursor->width = (uint32_t)width;
	cursor->height = (uint32_t)height;
	for (int i = 0; i < 2; i++) {
		if (!drm_fb_init(&cursor->fbs[i], b->fd, cursor->width, cursor->height, true)) {
			drm_cursor_finish(output);
			return;
		}
	}
	cursor->plane_id = plane;
	garnet_log(b->compositor, GARNET_LOG_INFO, "drm", "cursor plane %u (%ux%u) on CRTC %u",
		   plane, cursor->width, cursor->height, output->crtc_id);
}

void drm_cursor_finish(struct drm_output *output)
{
	for (int i = 0; i < 2; i++)
		drm_fb_finish(&output->cursor.fbs[i], output->backend->fd);
	output->cursor.plane_id = 0;
}

bool drm_cursor_show(struct garnet_output *base, pixman_image_t *image, int32_t x, int32_t y)
{
	struct drm_output *output = wl_container_of(base, output, base);
	struct drm_cursor *cursor = &output->cursor;
	struct drm_fb *fb;

	if (!cursor->plane_id)
		return false;
	if (!image) {
		cursor->fb_id = 0;
		return true;
	}
	if (pixman_image_get_width(image) > (int)cursor->width ||
	    pixman_image_get_height(image) > (int)cursor->height)
		return false;
	/* Fill the buffer not on screen; the commit of this frame swaps them. */
	fb = &cursor->fbs[cursor->next];
	cursor->next = !cursor->next;
	pixman_image_composite32(PIXMAN_OP_CLEAR, fb->image, NULL, fb->image, 0, 0, 0, 0, 0, 0,
				 (int)cursor->width, (int)cursor->height);
	pixman_image_composite32(PIXMAN_OP_SRC, image, NULL, fb->image, 0, 0, 0, 0, 0, 0,
				 pixman_image_get_width(image), pixman_image_get_height(image));
	cursor->fb_id = fb->fb_id;
	cursor->x = x;
	cursor->y = y;
	return true;
}
