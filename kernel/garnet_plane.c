// SPDX-License-Identifier: GPL-2.0-only
/*
 * The primary and cursor planes. Both keep their framebuffer mapped in the kernel for as long
 * as the state is current (shadow-plane state), because the CRTC composes them with the CPU.
 * The checks here are what makes an atomic commit with a bad plane fail with -EINVAL before
 * anything reaches the screen.
 */
#include <drm/drm_print.h>
#include <drm/drm_atomic.h>
#include <drm/drm_atomic_helper.h>
#include <drm/drm_damage_helper.h>
#include <drm/drm_fourcc.h>
#include <drm/drm_framebuffer.h>
#include <drm/drm_gem_atomic_helper.h>
#include <drm/drm_modeset_helper_vtables.h>
#include <drm/drm_plane.h>

#include "garnet_drv.h"
#include "garnet_kms.h"

static const u32 garnet_primary_formats[] = {
	DRM_FORMAT_XRGB8888,
	DRM_FORMAT_ARGB8888,
	DRM_FORMAT_RGB565,
};

static const u32 garnet_cursor_formats[] = {
	DRM_FORMAT_ARGB8888,
};

/* Source and destination must be the same size, at whole pixels: there is no scaler. */
static int garnet_plane_check_size(struct drm_plane_state *plane_state)
{
	if ((plane_state->src_x | plane_state->src_y | plane_state->src_w |
	     plane_state->src_h) & 0xffff) {
		drm_dbg_kms(plane_state->plane->dev, "fractional plane source\n");
		return -EINVAL;
	}
	if (plane_state->src_w >> 16 != plane_state->crtc_w ||
	    plane_state->src_h >> 16 != plane_state->crtc_h) {
		drm_dbg_kms(plane_state->plane->dev, "plane source %ux%u != destination %ux%u\n",
			    plane_state->src_w >> 16, plane_state->src_h >> 16,
			    plane_state->crtc_w, plane_state->crtc_h);
		return -EINVAL;
	}
	return 0;
}

static struct drm_crtc_state *plane_crtc_state(struct drm_atomic_state *state,
					       struct drm_plane_state *plane_state)
{
	if (!plane_state->crtc)
		return NULL;
	return drm_atomic_get_new_crtc_state(state, plane_state->crtc);
}

/*
 * The primary plane covers the whole CRTC: a framebuffer smaller than the mode cannot, and
 * is refused here (can_position = false makes the helper insist on full coverage).
 */
static int garnet_primary_atomic_check(struct drm_plane *plane, struct drm_atomic_state *state)
{
	struct drm_plane_state *plane_state = drm_atomic_get_new_plane_state(state, plane);
	struct drm_crtc_state *crtc_state = plane_crtc_state(state, plane_state);
	int ret;

	if (plane_state->fb) {
		ret = garnet_plane_check_size(plane_state);
		if (ret)
			return ret;
	}
	ret = drm_atomic_helper_check_plane_state(plane_state, crtc_state, DRM_PLANE_NO_SCALING,
						  DRM_PLANE_NO_SCALING, false, false);
	if (ret)
		return ret;
	if (plane_state->fb && crtc_state && crtc_state->enable && !plane_state->visible) {
		drm_dbg_kms(plane->dev, "primary plane does not cover the CRTC\n");
		return -EINVAL;
	}
	drm_atomic_helper_check_plane_damage(state, plane_state);
	return 0;
}

static int garnet_cursor_atomic_check(struct drm_plane *plane, struct drm_atomic_state *state)
{
	struct drm_plane_state *plane_state = drm_atomic_get_new_plane_state(state, plane);
	struct drm_crtc_state *crtc_state = plane_crtc_state(state, plane_state);
	struct drm_framebuffer *fb = plane_state->fb;
	int ret;

	if (fb) {
		if (fb->width > GARNET_CURSOR_SIZE || fb->height > GARNET_CURSOR_SIZE ||
		    plane_state->crtc_w > GARNET_CURSOR_SIZE ||
		    plane_state->crtc_h > GARNET_CURSOR_SIZE) {
			drm_dbg_kms(plane->dev, "cursor %ux%u larger than %ux%u\n",
				    plane_state->crtc_w, plane_state->crtc_h,
				    GARNET_CURSOR_SIZE, GARNET_CURSOR_SIZE);
			return -EINVAL;
		}
		ret = garnet_plane_check_size(plane_state);
		if (ret)
			return ret;
	}
	/* The cursor may hang off any edge; it is clipped to the CRTC. */
	ret = drm_atomic_helper_check_plane_state(plane_state, crtc_state, DRM_PLANE_NO_SCALING,
						  DRM_PLANE_NO_SCALING, true, true);
	if (ret)
		return ret;
	drm_atomic_helper_check_plane_damage(state, plane_state);
	return 0;
}

/* Composition happens once per commit, for all planes together, in the CRTC's flush. */
static void garnet_plane_atomic_update(struct drm_plane *plane, struct drm_atomic_state *state)
{
}

static const struct drm_plane_helper_funcs garnet_primary_helper_funcs = {
	DRM_GEM_SHADOW_PLANE_HELPER_FUNCS,
	.atomic_check	= garnet_primary_atomic_check,
	.atomic_update	= garnet_plane_atomic_update,
};

static const struct drm_plane_helper_funcs garnet_cursor_helper_funcs = {
	DRM_GEM_SHADOW_PLANE_HELPER_FUNCS,
	.atomic_check	= garnet_cursor_atomic_check,
	.atomic_update	= garnet_plane_atomic_update,
};

static const struct drm_plane_funcs garnet_plane_funcs = {
	.update_plane	= drm_atomic_helper_update_plane,
	.disable_plane	= drm_atomic_helper_disable_plane,
	.destroy	= drm_plane_cleanup,
	DRM_GEM_SHADOW_PLANE_FUNCS,
};

int garnet_planes_init(struct garnet_kms *kms)
{
	struct drm_device *drm = &kms->gdev->drm;
	int ret;

	ret = drm_universal_plane_init(drm, &kms->primary, 1, &garnet_plane_funcs,
				       garnet_primary_formats,
				       ARRAY_SIZE(garnet_primary_formats), NULL,
				       DRM_PLANE_TYPE_PRIMARY, NULL);
	if (ret)
		return ret;
	drm_plane_helper_add(&kms->primary, &garnet_primary_helper_funcs);
	drm_plane_enable_fb_damage_clips(&kms->primary);

	ret = drm_universal_plane_init(drm, &kms->cursor, 1, &garnet_plane_funcs,
				       garnet_cursor_formats, ARRAY_SIZE(garnet_cursor_formats),
				       NULL, DRM_PLANE_TYPE_CURSOR, NULL);
	if (ret)
		return ret;
	drm_plane_helper_add(&kms->cursor, &garnet_cursor_helper_funcs);
	drm_plane_enable_fb_damage_clips(&kms->cursor);
	return 0;
}
